package mira.block.logs;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** jqwik generators of OTLP logs requests covering every field and every AnyValue kind. */
final class Generators {
  private Generators() {}

  static Arbitrary<String> text() {
    return Arbitraries.oneOf(
        Arbitraries.strings().alpha().ofMaxLength(12),
        Arbitraries.strings().ofMaxLength(8),
        Arbitraries.of("", "é", "日本", "😀 emoji"));
  }

  static Arbitrary<AnyValue> anyValue(int depth) {
    Arbitrary<AnyValue> scalar = Arbitraries.oneOf(
        text().map(s -> AnyValue.newBuilder().setStringValue(s).build()),
        Arbitraries.longs().map(v -> AnyValue.newBuilder().setIntValue(v).build()),
        Arbitraries.doubles().map(v -> AnyValue.newBuilder().setDoubleValue(v).build()),
        Arbitraries.of(true, false).map(v -> AnyValue.newBuilder().setBoolValue(v).build()),
        Arbitraries.bytes().array(byte[].class).ofMaxSize(10)
            .map(b -> AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(b)).build()),
        Arbitraries.just(AnyValue.getDefaultInstance()));
    if (depth <= 0) {
      return scalar;
    }
    Arbitrary<AnyValue> array = anyValue(depth - 1).list().ofMaxSize(3)
        .map(l -> AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addAllValues(l)).build());
    Arbitrary<AnyValue> kvlist = keyValue(depth - 1).list().ofMaxSize(3)
        .map(l -> AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder().addAllValues(l)).build());
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, scalar), net.jqwik.api.Tuple.of(1, array), net.jqwik.api.Tuple.of(1, kvlist));
  }

  static Arbitrary<KeyValue> keyValue(int depth) {
    Arbitrary<String> key = Arbitraries.oneOf(Arbitraries.of("service.name", "http.method", "k", ""), text());
    return Combinators.combine(key, anyValue(depth)).as((k, v) -> KeyValue.newBuilder().setKey(k).setValue(v).build());
  }

  static Arbitrary<List<KeyValue>> attributes() {
    return keyValue(2).list().ofMaxSize(5);
  }

  static Arbitrary<ByteString> id(int width) {
    return Arbitraries.oneOf(Arbitraries.just(ByteString.EMPTY),
        Arbitraries.bytes().array(byte[].class).ofSize(width).map(ByteString::copyFrom));
  }

  static Arbitrary<LogRecord> record() {
    Arbitrary<LogRecord.Builder> a = Combinators.combine(
            Arbitraries.longs().between(1, Long.MAX_VALUE),
            Arbitraries.longs().between(0, Long.MAX_VALUE),
            Arbitraries.integers().between(0, 24),
            Arbitraries.of("", "INFO", "WARN", "ERROR", "x"),
            Arbitraries.of("", "event.a", "event.b"),
            anyValue(2).injectNull(0.2),
            attributes(),
            Arbitraries.integers().between(0, 5))
        .as((t, o, sev, sevText, event, body, attrs, dropped) -> {
          LogRecord.Builder b = LogRecord.newBuilder().setTimeUnixNano(t).setObservedTimeUnixNano(o)
              .setSeverityNumberValue(sev).setSeverityText(sevText).setEventName(event)
              .addAllAttributes(attrs).setDroppedAttributesCount(dropped);
          if (body != null) {
            b.setBody(body);
          }
          return b;
        });
    return Combinators.combine(a, id(16), id(8), Arbitraries.integers().between(0, 3))
        .as((b, trace, span, flags) -> b.setTraceId(trace).setSpanId(span).setFlags(flags).build());
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

  static Arbitrary<ScopeLogs> scopeLogs() {
    return Combinators.combine(scope(), Arbitraries.of("", "https://schema/1"), record().list().ofMaxSize(4))
        .as((s, url, recs) -> ScopeLogs.newBuilder().setScope(s).setSchemaUrl(url).addAllLogRecords(recs).build());
  }

  static Arbitrary<ResourceLogs> resourceLogs() {
    return Combinators.combine(resource(), Arbitraries.of("", "https://schema/2"), scopeLogs().list().ofMaxSize(3))
        .as((r, url, scopes) -> ResourceLogs.newBuilder().setResource(r).setSchemaUrl(url).addAllScopeLogs(scopes).build());
  }

  static Arbitrary<ExportLogsServiceRequest> logsRequests() {
    return resourceLogs().list().ofMinSize(1).ofMaxSize(3)
        .map(l -> ExportLogsServiceRequest.newBuilder().addAllResourceLogs(l).build());
  }
}
