package mira.query.testing;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.util.ArrayList;
import java.util.List;
import mira.block.testing.OtlpArbitraries;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * OTLP data built to make queries interesting: attribute keys and values from small pools (so
 * terms match some rows and not others, across every stored type and every level), times from a
 * dozen instants (so many rows share a nanosecond), mixed with {@link OtlpArbitraries}' fully
 * random values for rendering coverage.
 */
public final class Corpus {
  /** 2026-01-01T00:00:00Z. */
  public static final long T0 = 1_767_225_600_000_000_000L;
  /** Times are T0 + k * STEP for k in 0..TICKS. */
  public static final long STEP = 1_000;
  public static final int TICKS = 12;

  public static final List<String> KEYS = List.of("code", "svc", "ratio", "flag", "k");
  public static final List<ByteString> TRACE_IDS = List.of(id(16, 1), id(16, 2), id(16, 0xAB));
  public static final List<ByteString> SPAN_IDS = List.of(id(8, 3), id(8, 4), id(8, 0xCD));

  private Corpus() {}

  static ByteString id(int width, int fill) {
    byte[] b = new byte[width];
    for (int i = 0; i < width; i++) {
      b[i] = (byte) (fill + i);
    }
    return ByteString.copyFrom(b);
  }

  public static Arbitrary<Long> time() {
    return Arbitraries.integers().between(0, TICKS).map(i -> T0 + i * STEP);
  }

  static AnyValue str(String s) {
    return AnyValue.newBuilder().setStringValue(s).build();
  }

  static AnyValue i(long v) {
    return AnyValue.newBuilder().setIntValue(v).build();
  }

  static AnyValue d(double v) {
    return AnyValue.newBuilder().setDoubleValue(v).build();
  }

  /** Values the query pool compares against, in every stored type. */
  public static Arbitrary<AnyValue> poolValue() {
    return Arbitraries.of(
        i(200), str("200"), i(500), str("500"), d(200.0), d(0.5), str("0.5"), str("200.0"), str("abc"),
        str("x200y"), str("é"), i(-3), d(-0.0), d(1e300), d(Double.NaN), str("1000"), str("99"), str("-5"),
        i(1000), d(99.5), str("abd"),
        // Numbers spelt as text the way the zone index reads them (a sign, a bare fraction, a trailing
        // point), and 1 in every type: int, double, text.
        str("+200"), str(".5"), str("5."), str("007"), i(1), d(1.0), str("1"), str("1.0"),
        AnyValue.newBuilder().setBoolValue(true).build(), str("true"),
        AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(new byte[] {1, 2, 3})).build(), str("AQID"),
        AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addValues(str("abc")).addValues(i(7))).build(),
        AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
            .addValues(KeyValue.newBuilder().setKey("a").setValue(str("abc")))).build(),
        AnyValue.getDefaultInstance());
  }

  static Arbitrary<KeyValue> poolAttr() {
    return Combinators.combine(Arbitraries.of(KEYS), poolValue())
        .as((k, v) -> KeyValue.newBuilder().setKey(k).setValue(v).build());
  }

  /** Mostly pool attributes, sometimes with fully random ones after them. */
  public static Arbitrary<List<KeyValue>> attributes() {
    return Arbitraries.oneOf(
        poolAttr().list().ofMaxSize(3),
        Combinators.combine(poolAttr().list().ofMaxSize(2), OtlpArbitraries.attributes()).as((a, b) -> {
          List<KeyValue> l = new ArrayList<>(a);
          l.addAll(b);
          return l;
        }));
  }

  /**
   * Identifying attributes a resource may start with, one per identity rule and none (so a few
   * entities recur across resources and blocks, and some resources have no identity).
   */
  public static final List<List<KeyValue>> IDENTITIES = List.of(
      List.of(),
      List.of(kv("service.name", str("checkout"))),
      List.of(kv("service.name", str("cart")), kv("service.namespace", str("shop"))),
      List.of(kv("service.name", str("checkout")), kv("service.instance.id", str("i-1"))),
      List.of(kv("k8s.pod.uid", str("pod-7")), kv("k8s.container.name", str("app"))),
      List.of(kv("container.id", str("abc"))),
      List.of(kv("host.id", str("abc"))),
      List.of(kv("host.name", str("node-1")), kv("process.pid", i(42))));

  static KeyValue kv(String k, AnyValue v) {
    return KeyValue.newBuilder().setKey(k).setValue(v).build();
  }

  static Arbitrary<Resource> resource() {
    return Combinators.combine(Arbitraries.of(IDENTITIES), attributes(), Arbitraries.integers().between(0, 2))
        .as((id, a, d) -> Resource.newBuilder().addAllAttributes(id).addAllAttributes(a)
            .setDroppedAttributesCount(d).build());
  }

  static Arbitrary<InstrumentationScope> scope() {
    return Combinators.combine(Arbitraries.of("", "lib", "io.mira"), Arbitraries.of("", "1.0"), attributes(),
            Arbitraries.integers().between(0, 2))
        .as((n, v, a, d) -> InstrumentationScope.newBuilder().setName(n).setVersion(v).addAllAttributes(a)
            .setDroppedAttributesCount(d).build());
  }

  static Arbitrary<AnyValue> body() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, Arbitraries.of("GET /a 200", "boom: NullPointerException", "abc", "é", "")
            .map(Corpus::str)),
        net.jqwik.api.Tuple.of(2, poolValue()),
        net.jqwik.api.Tuple.of(2, OtlpArbitraries.anyValue(2)));
  }

  static Arbitrary<LogRecord> logRecord() {
    Arbitrary<LogRecord.Builder> a = Combinators.combine(
            Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(8, time()), net.jqwik.api.Tuple.of(1, Arbitraries.just(0L))),
            Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(3, time()), net.jqwik.api.Tuple.of(1, Arbitraries.just(0L))),
            Arbitraries.of(0, 9, 13, 17, 21),
            Arbitraries.of("", "INFO", "ERROR", "Warn"),
            Arbitraries.of("", "login", "logout"),
            body().injectNull(0.15),
            attributes(),
            Arbitraries.integers().between(0, 3))
        .as((t, o, sev, st, ev, body, attrs, dropped) -> {
          LogRecord.Builder b = LogRecord.newBuilder().setTimeUnixNano(t).setObservedTimeUnixNano(o)
              .setSeverityNumberValue(sev).setSeverityText(st).setEventName(ev).addAllAttributes(attrs)
              .setDroppedAttributesCount(dropped);
          if (body != null) {
            b.setBody(body);
          }
          return b;
        });
    return Combinators.combine(a,
            Arbitraries.oneOf(Arbitraries.just(ByteString.EMPTY), Arbitraries.of(TRACE_IDS)),
            Arbitraries.oneOf(Arbitraries.just(ByteString.EMPTY), Arbitraries.of(SPAN_IDS)),
            Arbitraries.of(0, 1, 0x101, -1))
        .as((b, t, s, f) -> b.setTraceId(t).setSpanId(s).setFlags(f).build());
  }

  public static Arbitrary<ExportLogsServiceRequest> logsRequest() {
    Arbitrary<ScopeLogs> scopes = Combinators.combine(scope(), Arbitraries.of("", "https://schema/s"),
            logRecord().list().ofMaxSize(6))
        .as((s, u, r) -> ScopeLogs.newBuilder().setScope(s).setSchemaUrl(u).addAllLogRecords(r).build());
    Arbitrary<ResourceLogs> resources = Combinators.combine(resource(), Arbitraries.of("", "https://schema/r"),
            scopes.list().ofMinSize(1).ofMaxSize(2))
        .as((r, u, s) -> ResourceLogs.newBuilder().setResource(r).setSchemaUrl(u).addAllScopeLogs(s).build());
    return resources.list().ofMinSize(1).ofMaxSize(2)
        .map(l -> ExportLogsServiceRequest.newBuilder().addAllResourceLogs(l).build())
        .filter(r -> r.getResourceLogsList().stream().flatMap(x -> x.getScopeLogsList().stream())
            .anyMatch(s -> s.getLogRecordsCount() > 0));
  }

  static Arbitrary<Span.Event> event() {
    return Combinators.combine(time(), Arbitraries.of("exception", "retry"), attributes(),
            Arbitraries.integers().between(0, 2))
        .as((t, n, a, d) -> Span.Event.newBuilder().setTimeUnixNano(t).setName(n).addAllAttributes(a)
            .setDroppedAttributesCount(d).build());
  }

  static Arbitrary<Span.Link> link() {
    return Combinators.combine(Arbitraries.of(TRACE_IDS), Arbitraries.of(SPAN_IDS), Arbitraries.of("", "a=b"),
            attributes(), Arbitraries.of(0, 1, -5))
        .as((t, s, st, a, f) -> Span.Link.newBuilder().setTraceId(t).setSpanId(s).setTraceState(st)
            .addAllAttributes(a).setFlags(f).build());
  }

  static Arbitrary<Span> span() {
    Arbitrary<Span.Builder> ids = Combinators.combine(Arbitraries.of(TRACE_IDS), Arbitraries.of(SPAN_IDS),
            Arbitraries.oneOf(Arbitraries.just(ByteString.EMPTY), Arbitraries.of(SPAN_IDS)),
            Arbitraries.of("", "rojo=1"), Arbitraries.of(0, 1, 0x301, -7),
            Arbitraries.of("GET /a", "POST /b", "db.query", "é", ""), Arbitraries.integers().between(0, 5))
        .as((t, s, p, st, f, n, k) -> Span.newBuilder().setTraceId(t).setSpanId(s).setParentSpanId(p)
            .setTraceState(st).setFlags(f).setName(n).setKindValue(k));
    Arbitrary<Span.Builder> times = Combinators.combine(ids,
            Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(8, time()), net.jqwik.api.Tuple.of(1, Arbitraries.just(0L))),
            Arbitraries.of(0L, 1L, 500L, 2_000L, 1_000_000L),
            Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(6, Arbitraries.just(true)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(false))),
            attributes(), Arbitraries.integers().between(0, 2))
        .as((b, start, dur, hasEnd, a, d) -> b.setStartTimeUnixNano(start)
            .setEndTimeUnixNano(hasEnd ? (start == 0 ? Corpus.T0 + dur : start + dur) : 0)
            .addAllAttributes(a).setDroppedAttributesCount(d));
    return Combinators.combine(times, event().list().ofMaxSize(2), link().list().ofMaxSize(2),
            Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, 2),
            Arbitraries.of("", "boom", "NullPointerException at x"))
        .as((b, ev, ln, code, de, msg) -> {
          b.addAllEvents(ev).addAllLinks(ln).setDroppedEventsCount(de).setDroppedLinksCount(de);
          if (code != 0 || !msg.isEmpty()) {
            b.setStatus(Status.newBuilder().setCodeValue(code).setMessage(msg));
          }
          return b.build();
        });
  }

  public static Arbitrary<ExportTraceServiceRequest> tracesRequest() {
    Arbitrary<ScopeSpans> scopes = Combinators.combine(scope(), Arbitraries.of("", "https://schema/s"),
            span().list().ofMaxSize(6))
        .as((s, u, r) -> ScopeSpans.newBuilder().setScope(s).setSchemaUrl(u).addAllSpans(r).build());
    Arbitrary<ResourceSpans> resources = Combinators.combine(resource(), Arbitraries.of("", "https://schema/r"),
            scopes.list().ofMinSize(1).ofMaxSize(2))
        .as((r, u, s) -> ResourceSpans.newBuilder().setResource(r).setSchemaUrl(u).addAllScopeSpans(s).build());
    return resources.list().ofMinSize(1).ofMaxSize(2)
        .map(l -> ExportTraceServiceRequest.newBuilder().addAllResourceSpans(l).build())
        .filter(r -> r.getResourceSpansList().stream().flatMap(x -> x.getScopeSpansList().stream())
            .anyMatch(s -> s.getSpansCount() > 0));
  }
}
