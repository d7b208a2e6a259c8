package mira.proto.json;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.trace.v1.Span;
import java.nio.charset.StandardCharsets;
import org.assertj.core.api.ThrowableAssertAlternative;

/** Small OTLP/JSON documents for the rule tests: one record, span or metric in its envelope. */
final class Docs {
  /** The path of the record, span or metric that {@link #logRecord} and friends wrap. */
  static final String RECORD = "resourceLogs[0].scopeLogs[0].logRecords[0]";

  static final String SPAN = "resourceSpans[0].scopeSpans[0].spans[0]";
  static final String METRIC = "resourceMetrics[0].scopeMetrics[0].metrics[0]";

  private Docs() {}

  static String logRecord(String fields) {
    return "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{" + fields + "}]}]}]}";
  }

  static String span(String fields) {
    return "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{" + fields + "}]}]}]}";
  }

  static String metric(String fields) {
    return "{\"resourceMetrics\":[{\"scopeMetrics\":[{\"metrics\":[{" + fields + "}]}]}]}";
  }

  /** A log record with one attribute whose value is the given AnyValue JSON. */
  static String attribute(String anyValue) {
    return logRecord("\"attributes\":[{\"key\":\"k\",\"value\":" + anyValue + "}]");
  }

  static ExportLogsServiceRequest logs(String json) throws OtlpJsonException {
    byte[] b = utf8(json);
    return OtlpJson.decodeLogs(b, 0, b.length);
  }

  static LogRecord decodeLogRecord(String fields) throws OtlpJsonException {
    return logs(logRecord(fields)).getResourceLogs(0).getScopeLogs(0).getLogRecords(0);
  }

  static Span decodeSpan(String fields) throws OtlpJsonException {
    byte[] b = utf8(span(fields));
    return OtlpJson.decodeTraces(b, 0, b.length).getResourceSpans(0).getScopeSpans(0).getSpans(0);
  }

  static Metric decodeMetric(String fields) throws OtlpJsonException {
    byte[] b = utf8(metric(fields));
    return OtlpJson.decodeMetrics(b, 0, b.length)
        .getResourceMetrics(0)
        .getScopeMetrics(0)
        .getMetrics(0);
  }

  /** Asserts the logs decoder refuses {@code json}; chain on the exception's message. */
  static ThrowableAssertAlternative<OtlpJsonException> refusedAsLogs(String json) {
    byte[] b = utf8(json);
    return assertThatExceptionOfType(OtlpJsonException.class)
        .isThrownBy(() -> OtlpJson.decodeLogs(b, 0, b.length));
  }

  static ThrowableAssertAlternative<OtlpJsonException> refusedAsTraces(String json) {
    byte[] b = utf8(json);
    return assertThatExceptionOfType(OtlpJsonException.class)
        .isThrownBy(() -> OtlpJson.decodeTraces(b, 0, b.length));
  }

  static ThrowableAssertAlternative<OtlpJsonException> refusedAsMetrics(String json) {
    byte[] b = utf8(json);
    return assertThatExceptionOfType(OtlpJsonException.class)
        .isThrownBy(() -> OtlpJson.decodeMetrics(b, 0, b.length));
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
