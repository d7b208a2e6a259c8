package mira.block.logs;

import static mira.block.testing.OtlpArbitraries.anyValue;
import static mira.block.testing.OtlpArbitraries.attributes;
import static mira.block.testing.OtlpArbitraries.id;
import static mira.block.testing.OtlpArbitraries.resource;
import static mira.block.testing.OtlpArbitraries.scope;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import mira.block.testing.OtlpArbitraries;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * jqwik generators of OTLP logs requests covering every field and every AnyValue kind (the shared
 * parts come from {@link OtlpArbitraries}).
 */
public final class Generators {
  private Generators() {}

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

  static Arbitrary<ScopeLogs> scopeLogs() {
    return Combinators.combine(scope(), Arbitraries.of("", "https://schema/1"), record().list().ofMaxSize(4))
        .as((s, url, recs) -> ScopeLogs.newBuilder().setScope(s).setSchemaUrl(url).addAllLogRecords(recs).build());
  }

  static Arbitrary<ResourceLogs> resourceLogs() {
    return Combinators.combine(resource(), Arbitraries.of("", "https://schema/2"), scopeLogs().list().ofMaxSize(3))
        .as((r, url, scopes) -> ResourceLogs.newBuilder().setResource(r).setSchemaUrl(url).addAllScopeLogs(scopes).build());
  }

  public static Arbitrary<ExportLogsServiceRequest> logsRequests() {
    return resourceLogs().list().ofMinSize(1).ofMaxSize(3)
        .map(l -> ExportLogsServiceRequest.newBuilder().addAllResourceLogs(l).build());
  }
}
