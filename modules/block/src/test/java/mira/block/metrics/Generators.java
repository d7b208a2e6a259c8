package mira.block.metrics;

import static mira.block.testing.OtlpArbitraries.id;
import static mira.block.testing.OtlpArbitraries.text;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogram;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.metrics.v1.Summary;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import io.opentelemetry.proto.resource.v1.Resource;
import java.util.List;
import java.util.function.UnaryOperator;
import mira.block.testing.OtlpArbitraries;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * jqwik generators of OTLP metrics requests covering every metric type and every point field.
 * Explicit bounds come from a small pool so that interning is exercised; point times are never 0
 * (a 0 time is stored as the receive time, tested on its own).
 */
public final class Generators {
  private Generators() {}

  /** Fewer and shallower attributes than the shared generator: metrics have more levels to fill. */
  static Arbitrary<List<KeyValue>> attributes() {
    return OtlpArbitraries.keyValue(1).list().ofMaxSize(3);
  }

  static Arbitrary<Long> time() {
    return Arbitraries.longs().between(1, Long.MAX_VALUE);
  }

  static Arbitrary<Long> startTime() {
    return Arbitraries.oneOf(Arbitraries.just(0L), time());
  }

  /** Any 64-bit pattern: uint64 and fixed64 counts above 2^63 must survive too. */
  static Arbitrary<Long> count() {
    return Arbitraries.oneOf(Arbitraries.longs().between(0, 1000), Arbitraries.longs());
  }

  static Arbitrary<Double> optionalDouble() {
    return Arbitraries.doubles().injectNull(0.3);
  }

  /** 0 none, 1 int, 2 double. */
  static Arbitrary<Integer> valueKind() {
    return Arbitraries.integers().between(0, 2);
  }

  static Arbitrary<Exemplar> exemplar() {
    return Combinators.combine(Arbitraries.longs().between(0, Long.MAX_VALUE), valueKind(), Arbitraries.longs(),
            Arbitraries.doubles(), id(8), id(16), attributes())
        .as((t, kind, i, d, span, trace, attrs) -> {
          Exemplar.Builder e = Exemplar.newBuilder().setTimeUnixNano(t).setSpanId(span).setTraceId(trace)
              .addAllFilteredAttributes(attrs);
          if (kind == 1) {
            e.setAsInt(i);
          } else if (kind == 2) {
            e.setAsDouble(d);
          }
          return e.build();
        });
  }

  static Arbitrary<List<Exemplar>> exemplars() {
    return Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(List.<Exemplar>of())), Tuple.of(1, exemplar().list().ofMaxSize(2)));
  }

  static Arbitrary<NumberDataPoint> numberPoint() {
    return Combinators.combine(startTime(), time(), valueKind(), Arbitraries.longs(), Arbitraries.doubles(),
            exemplars(), Arbitraries.integers().between(0, 1), attributes())
        .as((start, t, kind, i, d, ex, flags, attrs) -> {
          NumberDataPoint.Builder p = NumberDataPoint.newBuilder().setStartTimeUnixNano(start).setTimeUnixNano(t)
              .addAllExemplars(ex).setFlags(flags).addAllAttributes(attrs);
          if (kind == 1) {
            p.setAsInt(i);
          } else if (kind == 2) {
            p.setAsDouble(d);
          }
          return p.build();
        });
  }

  /** A few bounds arrays, shared between points so interning has something to do. */
  static Arbitrary<List<Double>> bounds() {
    return Arbitraries.oneOf(
        Arbitraries.of(List.of(), List.of(0.0), List.of(-0.0), List.of(5.0, 10.0, 25.0, 50.0, 100.0), List.of(1.0, 2.0)),
        Arbitraries.doubles().list().ofMaxSize(4));
  }

  static Arbitrary<HistogramDataPoint> histogramPoint() {
    Arbitrary<HistogramDataPoint.Builder> a = Combinators.combine(startTime(), time(), count(), optionalDouble(),
            count().list().ofMaxSize(6), bounds(), exemplars(), attributes())
        .as((start, t, count, sum, buckets, bounds, ex, attrs) -> {
          HistogramDataPoint.Builder p = HistogramDataPoint.newBuilder().setStartTimeUnixNano(start).setTimeUnixNano(t)
              .setCount(count).addAllBucketCounts(buckets).addAllExplicitBounds(bounds).addAllExemplars(ex)
              .addAllAttributes(attrs);
          if (sum != null) {
            p.setSum(sum);
          }
          return p;
        });
    return Combinators.combine(a, optionalDouble(), optionalDouble(), Arbitraries.integers().between(0, 1))
        .as((p, min, max, flags) -> {
          if (min != null) {
            p.setMin(min);
          }
          if (max != null) {
            p.setMax(max);
          }
          return p.setFlags(flags).build();
        });
  }

  static Arbitrary<ExponentialHistogramDataPoint.Buckets> buckets() {
    return Combinators.combine(Arbitraries.integers().between(-300, 300), count().list().ofMaxSize(5))
        .as((offset, counts) -> ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(offset)
            .addAllBucketCounts(counts).build());
  }

  static Arbitrary<ExponentialHistogramDataPoint> exponentialPoint() {
    Arbitrary<ExponentialHistogramDataPoint.Builder> a = Combinators.combine(startTime(), time(), count(),
            optionalDouble(), Arbitraries.integers().between(-10, 20), count(), buckets().injectNull(0.3),
            buckets().injectNull(0.3))
        .as((start, t, count, sum, scale, zero, pos, neg) -> {
          ExponentialHistogramDataPoint.Builder p = ExponentialHistogramDataPoint.newBuilder()
              .setStartTimeUnixNano(start).setTimeUnixNano(t).setCount(count).setScale(scale).setZeroCount(zero);
          if (sum != null) {
            p.setSum(sum);
          }
          if (pos != null) {
            p.setPositive(pos);
          }
          if (neg != null) {
            p.setNegative(neg);
          }
          return p;
        });
    return Combinators.combine(a, optionalDouble(), optionalDouble(), Arbitraries.doubles(),
            Arbitraries.integers().between(0, 1), exemplars(), attributes())
        .as((p, min, max, threshold, flags, ex, attrs) -> {
          if (min != null) {
            p.setMin(min);
          }
          if (max != null) {
            p.setMax(max);
          }
          return p.setZeroThreshold(threshold).setFlags(flags).addAllExemplars(ex).addAllAttributes(attrs).build();
        });
  }

  static Arbitrary<SummaryDataPoint> summaryPoint() {
    Arbitrary<SummaryDataPoint.ValueAtQuantile> q = Combinators.combine(Arbitraries.doubles().between(0, 1),
            Arbitraries.doubles())
        .as((quantile, value) -> SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(quantile).setValue(value).build());
    return Combinators.combine(startTime(), time(), count(), Arbitraries.doubles(), q.list().ofMaxSize(4),
            Arbitraries.integers().between(0, 1), attributes())
        .as((start, t, count, sum, qs, flags, attrs) -> SummaryDataPoint.newBuilder().setStartTimeUnixNano(start)
            .setTimeUnixNano(t).setCount(count).setSum(sum).addAllQuantileValues(qs).setFlags(flags)
            .addAllAttributes(attrs).build());
  }

  /** The data oneof: a builder step that sets one of the five kinds, or none. */
  static Arbitrary<UnaryOperator<Metric.Builder>> data() {
    Arbitrary<Integer> temporality = Arbitraries.integers().between(0, 2);
    Arbitrary<UnaryOperator<Metric.Builder>> none = Arbitraries.just(m -> m);
    Arbitrary<UnaryOperator<Metric.Builder>> gauge = numberPoint().list().ofMaxSize(3)
        .map(ps -> m -> m.setGauge(Gauge.newBuilder().addAllDataPoints(ps)));
    Arbitrary<UnaryOperator<Metric.Builder>> sum = Combinators.combine(numberPoint().list().ofMaxSize(3),
            temporality, Arbitraries.of(true, false))
        .as((ps, t, mono) -> m -> m.setSum(Sum.newBuilder().addAllDataPoints(ps).setAggregationTemporalityValue(t)
            .setIsMonotonic(mono)));
    Arbitrary<UnaryOperator<Metric.Builder>> hist = Combinators.combine(
            histogramPoint().list().ofMaxSize(3), temporality)
        .as((ps, t) -> m -> m.setHistogram(Histogram.newBuilder().addAllDataPoints(ps).setAggregationTemporalityValue(t)));
    Arbitrary<UnaryOperator<Metric.Builder>> exp = Combinators.combine(
            exponentialPoint().list().ofMaxSize(3), temporality)
        .as((ps, t) -> m -> m.setExponentialHistogram(ExponentialHistogram.newBuilder().addAllDataPoints(ps)
            .setAggregationTemporalityValue(t)));
    Arbitrary<UnaryOperator<Metric.Builder>> summary = summaryPoint().list().ofMaxSize(3)
        .map(ps -> m -> m.setSummary(Summary.newBuilder().addAllDataPoints(ps)));
    return Arbitraries.oneOf(none, gauge, sum, hist, exp, summary);
  }

  static Arbitrary<Metric> metric() {
    return Combinators.combine(Arbitraries.oneOf(Arbitraries.of("http.server.duration", "jvm.memory.used"), text()),
            Arbitraries.of("", "Duration of HTTP server requests."), Arbitraries.of("", "ms", "By", "{request}"),
            attributes(), data())
        .as((name, desc, unit, metadata, data) -> data.apply(Metric.newBuilder().setName(name).setDescription(desc)
            .setUnit(unit).addAllMetadata(metadata)).build());
  }

  static Arbitrary<Resource> resource() {
    return Combinators.combine(attributes(), Arbitraries.integers().between(0, 3))
        .as((attrs, dropped) -> Resource.newBuilder().addAllAttributes(attrs).setDroppedAttributesCount(dropped).build());
  }

  static Arbitrary<InstrumentationScope> scope() {
    return Combinators.combine(Arbitraries.of("", "lib", "io.opentelemetry.x"), Arbitraries.of("", "1.0"), attributes(),
            Arbitraries.integers().between(0, 2))
        .as((n, v, attrs, d) -> InstrumentationScope.newBuilder().setName(n).setVersion(v).addAllAttributes(attrs)
            .setDroppedAttributesCount(d).build());
  }

  static Arbitrary<ScopeMetrics> scopeMetrics() {
    return Combinators.combine(scope(), Arbitraries.of("", "https://schema/1"), metric().list().ofMaxSize(4))
        .as((s, url, ms) -> ScopeMetrics.newBuilder().setScope(s).setSchemaUrl(url).addAllMetrics(ms).build());
  }

  static Arbitrary<ResourceMetrics> resourceMetrics() {
    return Combinators.combine(resource(), Arbitraries.of("", "https://schema/2"), scopeMetrics().list().ofMaxSize(3))
        .as((r, url, scopes) -> ResourceMetrics.newBuilder().setResource(r).setSchemaUrl(url).addAllScopeMetrics(scopes)
            .build());
  }

  public static Arbitrary<ExportMetricsServiceRequest> metricsRequests() {
    return resourceMetrics().list().ofMinSize(1).ofMaxSize(3)
        .map(l -> ExportMetricsServiceRequest.newBuilder().addAllResourceMetrics(l).build());
  }
}
