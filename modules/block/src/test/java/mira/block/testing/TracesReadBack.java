package mira.block.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The oracle of traces round trips: a request flattened to one span per row, and a published block
 * read with Arrow Java's reader and rebuilt the same way (events and links attached to their span).
 */
public final class TracesReadBack {
  private TracesReadBack() {}

  /** One span with everything around it, as the block should give it back. */
  public record Flat(Resource resource, String resourceSchema, InstrumentationScope scope, String scopeSchema, Span span) {}

  public static List<Flat> flatten(ExportTraceServiceRequest req) {
    List<Flat> out = new ArrayList<>();
    for (ResourceSpans rs : req.getResourceSpansList()) {
      for (ScopeSpans ss : rs.getScopeSpansList()) {
        for (Span s : ss.getSpansList()) {
          out.add(new Flat(rs.getResource(), rs.getSchemaUrl(), ss.getScope(), ss.getSchemaUrl(), normalise(s)));
        }
      }
    }
    return out;
  }

  /** An explicitly empty Status carries nothing on the wire that a block could keep. */
  public static Span normalise(Span s) {
    return s.hasStatus() && s.getStatus().equals(Status.getDefaultInstance()) ? s.toBuilder().clearStatus().build() : s;
  }

  public static List<Flat> readBack(Path block) throws Exception {
    List<Rebuild.Res> resources = Rebuild.resources(block);
    List<Rebuild.Scope> scopes = Rebuild.scopes(block);
    ArrowTables.Rows spans = ArrowTables.read(block, "spans.arrow");
    List<List<KeyValue>> attrs = Rebuild.attributes(ArrowTables.read(block, "span_attrs.arrow"), spans.size());
    List<List<Span.Event>> events = events(block, spans.size());
    List<List<Span.Link>> links = links(block, spans.size());
    List<Flat> out = new ArrayList<>();
    for (int i = 0; i < spans.size(); i++) {
      Map<String, Object> r = spans.get(i);
      assertThat(r.get("id")).isEqualTo((long) i);
      long start = (Long) r.get("start_time_unix_nano");
      long end = (Long) r.get("end_time_unix_nano");
      assertThat(r.get("duration_nano")).isEqualTo(end - start);
      Span.Builder b = Span.newBuilder()
          .setTraceId(ByteString.copyFrom((byte[]) r.get("trace_id")))
          .setSpanId(ByteString.copyFrom((byte[]) r.get("span_id")))
          .setParentSpanId(Rebuild.bytesOrEmpty(r.get("parent_span_id")))
          .setTraceState(Rebuild.orEmpty(r.get("trace_state")))
          .setFlags((int) Rebuild.longOrZero(r.get("flags")))
          .setName((String) r.get("name"))
          .setKindValue(((Long) r.get("kind")).intValue())
          .setStartTimeUnixNano(start)
          .setEndTimeUnixNano(end)
          .addAllAttributes(attrs.get(i))
          .setDroppedAttributesCount(((Long) r.get("dropped_attributes_count")).intValue())
          .addAllEvents(events.get(i))
          .setDroppedEventsCount(((Long) r.get("dropped_events_count")).intValue())
          .addAllLinks(links.get(i))
          .setDroppedLinksCount(((Long) r.get("dropped_links_count")).intValue());
      int code = ((Long) r.get("status_code")).intValue();
      if (code != 0 || r.get("status_message") != null) {
        b.setStatus(Status.newBuilder().setCodeValue(code).setMessage(Rebuild.orEmpty(r.get("status_message"))));
      }
      Rebuild.Res res = resources.get(((Long) r.get("resource_id")).intValue());
      Rebuild.Scope sc = scopes.get(((Long) r.get("scope_id")).intValue());
      out.add(new Flat(res.resource(), res.schemaUrl(), sc.scope(), sc.schemaUrl(), b.build()));
    }
    return out;
  }

  /** Events by span id, in row order; event ids must be dense. */
  public static List<List<Span.Event>> events(Path block, int spans) throws Exception {
    ArrowTables.Rows rows = ArrowTables.read(block, "span_events.arrow");
    List<List<KeyValue>> attrs = Rebuild.attributes(ArrowTables.read(block, "span_event_attrs.arrow"), rows.size());
    List<List<Span.Event>> out = lists(spans);
    for (int i = 0; i < rows.size(); i++) {
      Map<String, Object> r = rows.get(i);
      assertThat(r.get("id")).isEqualTo((long) i);
      out.get(((Long) r.get("parent_id")).intValue()).add(Span.Event.newBuilder()
          .setTimeUnixNano((Long) r.get("time_unix_nano"))
          .setName((String) r.get("name"))
          .addAllAttributes(attrs.get(i))
          .setDroppedAttributesCount(((Long) r.get("dropped_attributes_count")).intValue())
          .build());
    }
    return out;
  }

  /** Links by span id, in row order; link ids must be dense. */
  public static List<List<Span.Link>> links(Path block, int spans) throws Exception {
    ArrowTables.Rows rows = ArrowTables.read(block, "span_links.arrow");
    List<List<KeyValue>> attrs = Rebuild.attributes(ArrowTables.read(block, "span_link_attrs.arrow"), rows.size());
    List<List<Span.Link>> out = lists(spans);
    for (int i = 0; i < rows.size(); i++) {
      Map<String, Object> r = rows.get(i);
      assertThat(r.get("id")).isEqualTo((long) i);
      out.get(((Long) r.get("parent_id")).intValue()).add(Span.Link.newBuilder()
          .setTraceId(Rebuild.bytesOrEmpty(r.get("trace_id")))
          .setSpanId(Rebuild.bytesOrEmpty(r.get("span_id")))
          .setTraceState(Rebuild.orEmpty(r.get("trace_state")))
          .addAllAttributes(attrs.get(i))
          .setDroppedAttributesCount(((Long) r.get("dropped_attributes_count")).intValue())
          .setFlags((int) Rebuild.longOrZero(r.get("flags")))
          .build());
    }
    return out;
  }

  public static <T> List<List<T>> lists(int n) {
    List<List<T>> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new ArrayList<>());
    }
    return out;
  }
}
