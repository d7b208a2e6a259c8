package mira.block.testing;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
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
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.util.Random;

/**
 * Deterministic export requests of each signal in which every column kind a block holds is
 * populated — dictionaries, fixed-size binary ids, Utf8, Binary, lists, booleans — and every
 * nullable column has both nulls and values. For tests that need "a real block", not a random one.
 */
public final class SampleRequests {
  public static final long T0 = 1_767_225_600_000_000_000L; // 2026-01-01T00:00:00Z

  private SampleRequests() {}

  public static KeyValue kv(String k, AnyValue v) {
    return KeyValue.newBuilder().setKey(k).setValue(v).build();
  }

  public static AnyValue str(String s) {
    return AnyValue.newBuilder().setStringValue(s).build();
  }

  public static AnyValue i64(long v) {
    return AnyValue.newBuilder().setIntValue(v).build();
  }

  public static AnyValue f64(double v) {
    return AnyValue.newBuilder().setDoubleValue(v).build();
  }

  public static AnyValue bool(boolean v) {
    return AnyValue.newBuilder().setBoolValue(v).build();
  }

  public static AnyValue bytes(byte... b) {
    return AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(b)).build();
  }

  /** One attribute of every value kind: string, int, double, bool, bytes, array, kvlist, empty. */
  static KeyValue[] everyKind(int i) {
    return new KeyValue[] {
      kv("http.route", str("/api/" + (i % 7))),
      kv("http.response.status_code", i64(200 + (i % 5) * 100)),
      kv("ratio", f64(i / 8.0)),
      kv("cached", bool(i % 2 == 0)),
      kv("raw", bytes((byte) i, (byte) 0xFF)),
      kv("args", AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addValues(str("a" + i))).build()),
      kv("map", AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder().addValues(kv("x", i64(i)))).build()),
      kv("nothing", AnyValue.getDefaultInstance()),
    };
  }

  static Resource resource(int i) {
    return Resource.newBuilder()
        .addAttributes(kv("service.name", str("svc-" + (i % 3))))
        .addAttributes(kv("service.instance.id", str("pod-" + i)))
        .addAttributes(kv("host.cores", i64(8)))
        .setDroppedAttributesCount(i % 2)
        .build();
  }

  static InstrumentationScope scope(int i) {
    return InstrumentationScope.newBuilder().setName("io.mira.sample").setVersion(i % 2 == 0 ? "1.0" : "")
        .addAttributes(kv("scope.attr", bool(true))).build();
  }

  static ByteString id(Random r, int width) {
    byte[] b = new byte[width];
    r.nextBytes(b);
    return ByteString.copyFrom(b);
  }

  /** {@code n} log records over two resources; every other record traced, bodies of every kind. */
  public static ExportLogsServiceRequest logs(int n, long seed) {
    Random r = new Random(seed);
    ExportLogsServiceRequest.Builder req = ExportLogsServiceRequest.newBuilder();
    for (int res = 0; res < 2; res++) {
      ScopeLogs.Builder scope = ScopeLogs.newBuilder().setScope(scope(res));
      for (int i = res; i < n; i += 2) {
        LogRecord.Builder l = LogRecord.newBuilder().setTimeUnixNano(T0 + i);
        if (i % 3 != 0) {
          l.setObservedTimeUnixNano(T0 + i + 7);
          l.setSeverityNumberValue(1 + i % 24);
          l.setSeverityText(i % 2 == 0 ? "INFO" : "ERROR");
          l.setFlags(1);
        }
        if (i % 4 == 1) {
          l.setEventName("checkout.failed");
        }
        switch (i % 4) {
          case 0 -> l.setBody(str("request " + i + " took " + r.nextInt(1000) + " ms"));
          case 1 -> l.setBody(AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
              .addValues(kv("k", i64(i)))));
          case 2 -> l.setBody(i64(-i));
          default -> { }
        }
        if (i % 2 == 0) {
          l.setTraceId(id(r, 16)).setSpanId(id(r, 8));
        }
        for (KeyValue kv : everyKind(i)) {
          l.addAttributes(kv);
        }
        scope.addLogRecords(l.setDroppedAttributesCount(i % 3));
      }
      req.addResourceLogs(ResourceLogs.newBuilder().setResource(resource(res)).addScopeLogs(scope));
    }
    return req.build();
  }

  /** {@code n} spans in traces of four, with events and links carrying attributes. */
  public static ExportTraceServiceRequest traces(int n, long seed) {
    Random r = new Random(seed);
    ScopeSpans.Builder scope = ScopeSpans.newBuilder().setScope(scope(0));
    ByteString trace = id(r, 16);
    for (int i = 0; i < n; i++) {
      if (i % 4 == 0) {
        trace = id(r, 16);
      }
      long start = T0 + i * 1000L;
      Span.Builder s = Span.newBuilder().setTraceId(trace).setSpanId(id(r, 8)).setName("op-" + (i % 5))
          .setKindValue(i % 6).setStartTimeUnixNano(start).setEndTimeUnixNano(start + 10 + r.nextInt(5000))
          .setDroppedAttributesCount(i % 2);
      if (i % 4 != 0) {
        s.setParentSpanId(id(r, 8));
      }
      if (i % 3 == 0) {
        s.setTraceState("rojo=00f067aa0ba902b7").setFlags(0x301);
      }
      if (i % 5 == 0) {
        s.setStatus(Status.newBuilder().setCodeValue(2).setMessage("boom " + i));
      }
      for (KeyValue kv : everyKind(i)) {
        s.addAttributes(kv);
      }
      if (i % 2 == 0) {
        s.addEvents(Span.Event.newBuilder().setTimeUnixNano(start + 5).setName("exception")
            .addAttributes(kv("exception.type", str("java.lang.NullPointerException")))
            .addAttributes(kv("exception.line", i64(i))));
      }
      if (i % 3 == 1) {
        s.addLinks(Span.Link.newBuilder().setTraceId(id(r, 16)).setSpanId(id(r, 8))
            .addAttributes(kv("link.kind", str("follows"))).setFlags(i % 2));
      }
      scope.addSpans(s);
    }
    return ExportTraceServiceRequest.newBuilder()
        .addResourceSpans(ResourceSpans.newBuilder().setResource(resource(0)).addScopeSpans(scope)).build();
  }

  /** Metrics of every type, {@code n} points each, with exemplars, point and metadata attributes. */
  public static ExportMetricsServiceRequest metrics(int n, long seed) {
    Random r = new Random(seed);
    ScopeMetrics.Builder scope = ScopeMetrics.newBuilder().setScope(scope(0));
    Gauge.Builder gauge = Gauge.newBuilder();
    Sum.Builder sum = Sum.newBuilder().setIsMonotonic(true).setAggregationTemporalityValue(2);
    Histogram.Builder hist = Histogram.newBuilder().setAggregationTemporalityValue(2);
    ExponentialHistogram.Builder exp = ExponentialHistogram.newBuilder().setAggregationTemporalityValue(1);
    Summary.Builder summary = Summary.newBuilder();
    for (int i = 0; i < n; i++) {
      long t = T0 + i * 1_000_000L;
      NumberDataPoint.Builder g = NumberDataPoint.newBuilder().setTimeUnixNano(t).addAttributes(kv("cpu", i64(i % 4)));
      if (i % 2 == 0) {
        g.setAsDouble(r.nextDouble() * 100);
      } else {
        g.setAsInt(r.nextInt(1000));
      }
      if (i % 3 == 0) {
        g.addExemplars(Exemplar.newBuilder().setTimeUnixNano(t).setAsDouble(1.5).setTraceId(id(r, 16))
            .setSpanId(id(r, 8)).addFilteredAttributes(kv("user", str("u" + i))));
      }
      gauge.addDataPoints(g);
      sum.addDataPoints(NumberDataPoint.newBuilder().setStartTimeUnixNano(T0).setTimeUnixNano(t).setAsInt(i * 10L)
          .addAttributes(kv("http.route", str("/r" + (i % 3)))).setFlags(i % 2));
      HistogramDataPoint.Builder h = HistogramDataPoint.newBuilder().setStartTimeUnixNano(T0).setTimeUnixNano(t)
          .setCount(10).addBucketCounts(3).addBucketCounts(7).addExplicitBounds(100.0).setSum(42.0)
          .addAttributes(kv("http.response.status_code", i64(200 + i % 2 * 300)));
      if (i % 2 == 0) {
        h.setMin(0.5).setMax(99.0);
      }
      hist.addDataPoints(h);
      exp.addDataPoints(ExponentialHistogramDataPoint.newBuilder().setTimeUnixNano(t).setCount(4).setScale(2)
          .setZeroCount(1).setPositive(ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(1)
              .addBucketCounts(1).addBucketCounts(2))
          .setZeroThreshold(0.001));
      summary.addDataPoints(SummaryDataPoint.newBuilder().setTimeUnixNano(t).setCount(5).setSum(12.5)
          .addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(0.5).setValue(2.0))
          .addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(0.99).setValue(9.0)));
    }
    scope.addMetrics(Metric.newBuilder().setName("cpu.utilization").setUnit("1").setGauge(gauge)
        .addMetadata(kv("meta.source", str("sampler"))));
    scope.addMetrics(Metric.newBuilder().setName("http.requests").setDescription("Requests.").setSum(sum));
    scope.addMetrics(Metric.newBuilder().setName("http.duration").setUnit("ms").setHistogram(hist));
    scope.addMetrics(Metric.newBuilder().setName("queue.depth").setExponentialHistogram(exp));
    scope.addMetrics(Metric.newBuilder().setName("gc.pause").setSummary(summary));
    return ExportMetricsServiceRequest.newBuilder()
        .addResourceMetrics(ResourceMetrics.newBuilder().setResource(resource(0)).addScopeMetrics(scope)).build();
  }
}
