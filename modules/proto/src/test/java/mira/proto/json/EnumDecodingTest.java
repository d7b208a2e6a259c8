package mira.proto.json;

import static mira.proto.json.Docs.RECORD;
import static mira.proto.json.Docs.SPAN;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Enums arrive as numbers or as the .proto value names. */
class EnumDecodingTest {

  @Test
  void enumsArriveByNumberOrByName() throws Exception {
    assertThat(Docs.decodeLogRecord("\"severityNumber\":\"SEVERITY_NUMBER_ERROR\"").getSeverityNumber())
        .isEqualTo(SeverityNumber.SEVERITY_NUMBER_ERROR);
    assertThat(Docs.decodeLogRecord("\"severityNumber\":17").getSeverityNumber())
        .isEqualTo(SeverityNumber.SEVERITY_NUMBER_ERROR);
    Span s = Docs.decodeSpan("\"kind\":\"SPAN_KIND_SERVER\",\"status\":{\"code\":\"STATUS_CODE_ERROR\"}");
    assertThat(s.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_SERVER);
    assertThat(s.getStatus().getCode()).isEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
    Metric m =
        Docs.decodeMetric("\"sum\":{\"aggregation_temporality\":\"AGGREGATION_TEMPORALITY_CUMULATIVE\"}");
    assertThat(m.getSum().getAggregationTemporality())
        .isEqualTo(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
  }

  @Test
  void enumNumberAsStringIsAccepted() throws Exception {
    assertThat(Docs.decodeSpan("\"kind\":\"3\"").getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
  }

  @Test
  void unknownEnumNameIsRefusedNamingTheField() {
    Docs.refusedAsLogs(Docs.logRecord("\"severityNumber\":\"SEVERITY_NUMBER_LOUD\""))
        .withMessage(RECORD + ".severityNumber: \"SEVERITY_NUMBER_LOUD\" is not a SeverityNumber name");
    Docs.refusedAsTraces(Docs.span("\"kind\":\"server\""))
        .withMessage(SPAN + ".kind: \"server\" is not a SpanKind name");
  }

  @Test
  void javasUnrecognizedConstantIsNotAnEnumName() {
    // Generated Java enums carry UNRECOGNIZED; the .proto does not, so neither does OTLP/JSON.
    Docs.refusedAsLogs(Docs.logRecord("\"severityNumber\":\"UNRECOGNIZED\""))
        .withMessageEndingWith("is not a SeverityNumber name");
  }

  @Test
  void unknownEnumNumberIsKeptAsAnUnrecognizedValue() throws Exception {
    LogRecord r = Docs.decodeLogRecord("\"severityNumber\":99");
    assertThat(r.getSeverityNumber()).isEqualTo(SeverityNumber.UNRECOGNIZED);
    assertThat(r.getSeverityNumberValue()).isEqualTo(99);
    Span s = Docs.decodeSpan("\"kind\":-3");
    assertThat(s.getKindValue()).isEqualTo(-3);
    assertThat(new String(OtlpJson.encode(s), StandardCharsets.UTF_8)).isEqualTo("{\"kind\":-3}");
  }

  @Test
  void enumOfTheWrongTypeIsRefused() {
    Docs.refusedAsTraces(Docs.span("\"status\":{\"code\":{}}"))
        .withMessage(SPAN + ".status.code: expected a StatusCode number or name, got an object");
  }
}
