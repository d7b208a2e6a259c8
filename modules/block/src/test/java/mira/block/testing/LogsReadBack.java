package mira.block.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The oracle of logs round trips: a request flattened to one record per row, and a published block
 * read with Arrow Java's reader and rebuilt the same way.
 */
public final class LogsReadBack {
  private LogsReadBack() {}

  /** One log record with everything around it, as the block should give it back. */
  public record Flat(Resource resource, String resourceSchema, InstrumentationScope scope, String scopeSchema, LogRecord record) {}

  public static List<Flat> flatten(ExportLogsServiceRequest req) {
    List<Flat> out = new ArrayList<>();
    for (ResourceLogs rl : req.getResourceLogsList()) {
      for (ScopeLogs sl : rl.getScopeLogsList()) {
        for (LogRecord r : sl.getLogRecordsList()) {
          out.add(new Flat(rl.getResource(), rl.getSchemaUrl(), sl.getScope(), sl.getSchemaUrl(), r));
        }
      }
    }
    return out;
  }

  public static List<Flat> readBack(Path block) throws Exception {
    List<Rebuild.Res> resources = Rebuild.resources(block);
    List<Rebuild.Scope> scopes = Rebuild.scopes(block);
    ArrowTables.Rows logs = ArrowTables.read(block, "logs.arrow");
    List<List<KeyValue>> attrs = Rebuild.attributes(ArrowTables.read(block, "log_attrs.arrow"), logs.size());
    List<Flat> out = new ArrayList<>();
    for (int i = 0; i < logs.size(); i++) {
      Map<String, Object> r = logs.get(i);
      assertThat(r.get("id")).isEqualTo((long) i);
      LogRecord.Builder b = LogRecord.newBuilder()
          .setTimeUnixNano((Long) r.get("time_unix_nano"))
          .setObservedTimeUnixNano(Rebuild.longOrZero(r.get("observed_time_unix_nano")))
          .setSeverityNumberValue((int) Rebuild.longOrZero(r.get("severity_number")))
          .setSeverityText(Rebuild.orEmpty(r.get("severity_text")))
          .setEventName(Rebuild.orEmpty(r.get("event_name")))
          .addAllAttributes(attrs.get(i))
          .setDroppedAttributesCount(((Long) r.get("dropped_attributes_count")).intValue())
          .setFlags((int) Rebuild.longOrZero(r.get("flags")))
          .setTraceId(Rebuild.bytesOrEmpty(r.get("trace_id")))
          .setSpanId(Rebuild.bytesOrEmpty(r.get("span_id")));
      if (r.get("body") != null) {
        b.setBody(AnyValue.newBuilder().setStringValue((String) r.get("body")));
      } else if (r.get("body_ser") != null) {
        b.setBody(AnyValue.parseFrom((byte[]) r.get("body_ser")));
      }
      Rebuild.Res res = resources.get(((Long) r.get("resource_id")).intValue());
      Rebuild.Scope sc = scopes.get(((Long) r.get("scope_id")).intValue());
      out.add(new Flat(res.resource(), res.schemaUrl(), sc.scope(), sc.schemaUrl(), b.build()));
    }
    return out;
  }
}
