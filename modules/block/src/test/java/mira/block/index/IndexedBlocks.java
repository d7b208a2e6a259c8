package mira.block.index;

import com.google.protobuf.ByteString;
import com.google.protobuf.MessageLite;
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
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.nio.file.Path;
import java.util.List;
import mira.block.Decoders;
import mira.block.publish.Publisher;
import mira.block.table.Batch;
import mira.proto.wire.Signal;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Random blocks for the sidecar properties: attribute values crowd the edges the index rules are
 * about (numbers spelled as text, int64 past 2^53, -0.0, NaN, text that is almost a number), keys
 * repeat across every attribute level, trace ids repeat in and out of runs.
 */
final class IndexedBlocks {
  static final long T0 = 1_767_225_600_000_000_000L;
  static final long TWO_53 = 1L << 53;

  private IndexedBlocks() {}

  static Arbitrary<String> keys() {
    return Arbitraries.frequencyOf(
        Tuple.of(8, Arbitraries.of("http.response.status_code", "k", "service.name", "ratio", "flag")),
        Tuple.of(1, Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(6)));
  }

  static Arbitrary<String> texts() {
    return Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.of("200", "503", "0200", "+200", "2e2", "200.0", "-7", "-0", "0.5", ".5", "5.",
            "9007199254740993", "99999999999999999999", "1e400", "abc", "", "true", "TRUE", " 5", "NaN",
            "Infinity", "0x10", "1e", "-", "日本")),
        Tuple.of(2, Arbitraries.longs().between(-1000, 1000).map(v -> Long.toString(v))),
        Tuple.of(1, Arbitraries.strings().ofMaxLength(5)));
  }

  static Arbitrary<Long> longs() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.of(0L, 1L, -1L, 200L, 503L, TWO_53, TWO_53 + 1, -TWO_53 - 1, Long.MAX_VALUE,
            Long.MIN_VALUE, Long.MAX_VALUE - 1)),
        Tuple.of(4, Arbitraries.longs().between(-1000, 1000)),
        Tuple.of(1, Arbitraries.longs()));
  }

  static Arbitrary<Double> doubles() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.of(0.0, -0.0, 0.5, 200.0, 503.5, -7.25, 0x1p53, 0x1p53 + 2, 0x1p63, 1e300,
            Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE)),
        Tuple.of(4, Arbitraries.integers().between(-1000, 1000).map(i -> i / 4.0)),
        Tuple.of(1, Arbitraries.doubles()));
  }

  static Arbitrary<AnyValue> values() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, texts().map(s -> AnyValue.newBuilder().setStringValue(s).build())),
        Tuple.of(4, longs().map(v -> AnyValue.newBuilder().setIntValue(v).build())),
        Tuple.of(2, doubles().map(v -> AnyValue.newBuilder().setDoubleValue(v).build())),
        Tuple.of(1, Arbitraries.of(true, false).map(v -> AnyValue.newBuilder().setBoolValue(v).build())),
        Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMaxSize(4)
            .map(b -> AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(b)).build())),
        Tuple.of(1, Arbitraries.just(AnyValue.getDefaultInstance())),
        Tuple.of(1, longs().map(v -> AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder()
            .addValues(AnyValue.newBuilder().setIntValue(v))).build())),
        Tuple.of(1, texts().map(s -> AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
            .addValues(KeyValue.newBuilder().setKey("inner").setValue(AnyValue.newBuilder().setStringValue(s))))
            .build())));
  }

  /** Whether attribute lists are allowed to contain doubles (some properties want blocks without). */
  static Arbitrary<List<KeyValue>> attributes() {
    return Combinators.combine(keys(), values()).as((k, v) -> KeyValue.newBuilder().setKey(k).setValue(v).build())
        .list().ofMaxSize(3);
  }

  static Arbitrary<Resource> resource() {
    return attributes().map(a -> Resource.newBuilder().addAllAttributes(a).build());
  }

  static Arbitrary<InstrumentationScope> scope() {
    return attributes().map(a -> InstrumentationScope.newBuilder().setName("s").addAllAttributes(a).build());
  }

  /** Trace ids from a small pool (so they repeat, adjacent or not), or absent. */
  static Arbitrary<ByteString> traceId() {
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(ByteString.EMPTY)),
        Tuple.of(3, Arbitraries.integers().between(0, 5).map(i -> {
          byte[] b = new byte[16];
          b[15] = (byte) (i + 1);
          b[0] = (byte) (i * 37);
          return ByteString.copyFrom(b);
        })),
        Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofSize(16).map(ByteString::copyFrom)));
  }

  static Arbitrary<Long> small() {
    return Arbitraries.frequencyOf(
        Tuple.of(2, Arbitraries.just(0L)),
        Tuple.of(3, Arbitraries.longs().between(1, 30)),
        Tuple.of(1, Arbitraries.of(0xFFFF_FFFFL, 0x8000_0000L)));
  }

  static Arbitrary<LogRecord> logRecord() {
    return Combinators.combine(Arbitraries.longs().between(0, 1000), Arbitraries.longs().between(0, 2000), small(),
            small(), traceId(), attributes(), small())
        .as((t, observed, severity, flags, trace, attrs, dropped) -> {
          LogRecord.Builder l = LogRecord.newBuilder().setObservedTimeUnixNano(observed == 0 ? 0 : T0 + observed)
              .setSeverityNumberValue((int) (severity % 25)).setFlags((int) (long) flags).addAllAttributes(attrs)
              .setDroppedAttributesCount((int) (long) dropped).setTraceId(trace);
          if (t % 5 != 0) {
            l.setTimeUnixNano(T0 + t);
          }
          return l.build();
        });
  }

  static Arbitrary<ExportLogsServiceRequest> logs() {
    Arbitrary<ScopeLogs> scopes = Combinators.combine(scope(), logRecord().list().ofMinSize(1).ofMaxSize(6))
        .as((s, recs) -> ScopeLogs.newBuilder().setScope(s).addAllLogRecords(recs).build());
    Arbitrary<ResourceLogs> resources = Combinators.combine(resource(), scopes.list().ofMinSize(1).ofMaxSize(2))
        .as((r, ss) -> ResourceLogs.newBuilder().setResource(r).addAllScopeLogs(ss).build());
    return resources.list().ofMinSize(1).ofMaxSize(2)
        .map(rs -> ExportLogsServiceRequest.newBuilder().addAllResourceLogs(rs).build());
  }

  static Arbitrary<Span> span() {
    Arbitrary<Span.Builder> base = Combinators.combine(traceId().filter(b -> !b.isEmpty()), Arbitraries.longs().between(0, 1000),
            Arbitraries.longs().between(-5, 3000), Arbitraries.integers().between(0, 5),
            Arbitraries.integers().between(0, 2), small(), attributes())
        .as((trace, start, dur, kind, status, flags, attrs) -> Span.newBuilder().setTraceId(trace)
            .setSpanId(ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8})).setName("n")
            .setStartTimeUnixNano(T0 + start).setEndTimeUnixNano(T0 + start + dur).setKindValue(kind)
            .setStatus(Status.newBuilder().setCodeValue(status)).setFlags((int) (long) flags).addAllAttributes(attrs));
    Arbitrary<Span.Event> event = attributes().map(a -> Span.Event.newBuilder().setTimeUnixNano(T0).setName("e")
        .addAllAttributes(a).build());
    Arbitrary<Span.Link> link = Combinators.combine(traceId(), attributes()).as((t, a) -> Span.Link.newBuilder()
        .setTraceId(t).addAllAttributes(a).build());
    return Combinators.combine(base, event.list().ofMaxSize(2), link.list().ofMaxSize(2), small(), small(), small())
        .as((b, events, links, de, dl, da) -> b.addAllEvents(events).addAllLinks(links)
            .setDroppedEventsCount((int) (long) de).setDroppedLinksCount((int) (long) dl)
            .setDroppedAttributesCount((int) (long) da).build());
  }

  static Arbitrary<ExportTraceServiceRequest> traces() {
    Arbitrary<ScopeSpans> scopes = Combinators.combine(scope(), span().list().ofMinSize(1).ofMaxSize(6))
        .as((s, spans) -> ScopeSpans.newBuilder().setScope(s).addAllSpans(spans).build());
    Arbitrary<ResourceSpans> resources = Combinators.combine(resource(), scopes.list().ofMinSize(1).ofMaxSize(2))
        .as((r, ss) -> ResourceSpans.newBuilder().setResource(r).addAllScopeSpans(ss).build());
    return resources.list().ofMinSize(1).ofMaxSize(2)
        .map(rs -> ExportTraceServiceRequest.newBuilder().addAllResourceSpans(rs).build());
  }

  static Arbitrary<NumberDataPoint> numberPoint() {
    Arbitrary<Exemplar> exemplar = Combinators.combine(traceId(), attributes())
        .as((t, a) -> Exemplar.newBuilder().setTimeUnixNano(T0).setAsInt(1).setTraceId(t).addAllFilteredAttributes(a)
            .build());
    return Combinators.combine(Arbitraries.longs().between(1, 1000), Arbitraries.longs().between(0, 1000),
            Arbitraries.integers().between(0, 2), longs(), doubles(), attributes(), exemplar.list().ofMaxSize(1))
        .as((t, start, kind, i, d, attrs, ex) -> {
          NumberDataPoint.Builder p = NumberDataPoint.newBuilder().setTimeUnixNano(T0 + t)
              .setStartTimeUnixNano(start == 0 ? 0 : T0 + start).addAllAttributes(attrs).addAllExemplars(ex);
          if (kind == 1) {
            p.setAsInt(i);
          } else if (kind == 2) {
            p.setAsDouble(d);
          }
          return p.build();
        });
  }

  static Arbitrary<Metric> metric() {
    Arbitrary<HistogramDataPoint> hist = Combinators.combine(Arbitraries.longs().between(1, 1000), attributes())
        .as((t, a) -> HistogramDataPoint.newBuilder().setTimeUnixNano(T0 + t).setCount(1).addBucketCounts(1)
            .addAllAttributes(a).build());
    Arbitrary<Metric.Builder> data = Arbitraries.oneOf(
        numberPoint().list().ofMaxSize(3).map(ps -> Metric.newBuilder().setGauge(Gauge.newBuilder().addAllDataPoints(ps))),
        numberPoint().list().ofMaxSize(3).map(ps -> Metric.newBuilder().setSum(Sum.newBuilder().addAllDataPoints(ps))),
        hist.list().ofMaxSize(2).map(ps -> Metric.newBuilder().setHistogram(Histogram.newBuilder().addAllDataPoints(ps))));
    return Combinators.combine(data, attributes()).as((m, meta) -> m.setName("m").addAllMetadata(meta).build());
  }

  static Arbitrary<ExportMetricsServiceRequest> metrics() {
    Arbitrary<ScopeMetrics> scopes = Combinators.combine(scope(), metric().list().ofMinSize(1).ofMaxSize(4))
        .as((s, ms) -> ScopeMetrics.newBuilder().setScope(s).addAllMetrics(ms).build());
    Arbitrary<ResourceMetrics> resources = Combinators.combine(resource(), scopes.list().ofMinSize(1).ofMaxSize(2))
        .as((r, ss) -> ResourceMetrics.newBuilder().setResource(r).addAllScopeMetrics(ss).build());
    return resources.list().ofMinSize(1).ofMaxSize(2)
        .map(rs -> ExportMetricsServiceRequest.newBuilder().addAllResourceMetrics(rs).build());
  }

  /** A request of any signal, with its signal. */
  record Request(Signal signal, MessageLite message) {}

  static Arbitrary<Request> anySignal() {
    return Arbitraries.oneOf(
        logs().map(r -> new Request(Signal.LOGS, r)),
        traces().map(r -> new Request(Signal.TRACES, r)),
        metrics().map(r -> new Request(Signal.METRICS, r)));
  }

  static Batch decode(Request r) throws Exception {
    byte[] b = r.message().toByteArray();
    return Decoders.decode(r.signal(), b, 0, b.length, T0);
  }

  /** Publishes {@code batch} (with its sidecars) under {@code data}; returns the block directory. */
  static Path publish(Path data, Batch batch) throws Exception {
    try (BufferAllocator a = new RootAllocator()) {
      return new Publisher(data, batch.signal(), "idx", a).publish(batch, 0, 0);
    }
  }
}
