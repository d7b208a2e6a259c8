package mira.proto.json;

import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;

/**
 * The logs signal below the request: resource, scope and record. Conventions as {@link
 * CommonDecoder}.
 */
final class LogsDecoder {
  private LogsDecoder() {}

  static ResourceLogs resourceLogs(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    ResourceLogs.Builder b = ResourceLogs.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "resource" -> b.setResource(CommonDecoder.resource(in));
        case "scopeLogs", "scope_logs" -> {
          in.enterArray();
          while (in.nextElement()) b.addScopeLogs(scopeLogs(in));
        }
        case "schemaUrl", "schema_url" -> b.setSchemaUrl(in.string());
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static ScopeLogs scopeLogs(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    ScopeLogs.Builder b = ScopeLogs.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "scope" -> b.setScope(CommonDecoder.scope(in));
        case "logRecords", "log_records" -> {
          in.enterArray();
          while (in.nextElement()) b.addLogRecords(logRecord(in));
        }
        case "schemaUrl", "schema_url" -> b.setSchemaUrl(in.string());
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static LogRecord logRecord(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    LogRecord.Builder b = LogRecord.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "timeUnixNano", "time_unix_nano" -> b.setTimeUnixNano(in.uint64());
        case "observedTimeUnixNano", "observed_time_unix_nano" ->
            b.setObservedTimeUnixNano(in.uint64());
        case "severityNumber", "severity_number" ->
            b.setSeverityNumberValue(in.enumNumber(SeverityNumber.getDescriptor()));
        case "severityText", "severity_text" -> b.setSeverityText(in.string());
        case "body" -> b.setBody(CommonDecoder.anyValue(in));
        case "attributes" -> {
          in.enterArray();
          while (in.nextElement()) b.addAttributes(CommonDecoder.keyValue(in));
        }
        case "droppedAttributesCount", "dropped_attributes_count" ->
            b.setDroppedAttributesCount(in.uint32());
        case "flags" -> b.setFlags(in.uint32());
        case "traceId", "trace_id" -> b.setTraceId(in.hexId(16));
        case "spanId", "span_id" -> b.setSpanId(in.hexId(8));
        case "eventName", "event_name" -> b.setEventName(in.string());
        default -> in.skip();
      }
    }
    return b.build();
  }
}
