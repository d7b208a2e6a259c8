package mira.query.render;

import com.fasterxml.jackson.core.JsonGenerator;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.proto.wire.WireException;
import mira.query.table.AttrTable;
import mira.query.table.Children;
import mira.query.table.IdColumn;
import mira.query.table.IntColumn;
import mira.query.table.Scratch;
import mira.query.table.Tables;
import mira.query.table.VarColumn;

/**
 * Renders span rows of one block with their events and links (docs/api.md, "Span rows"). Unset
 * fields are written with their OTLP default, so every row has the same keys.
 */
public final class SpanRows {
  private SpanRows() {}

  /**
   * Renders {@code rows[0..n)} of the block's spans table.
   *
   * @throws CorruptBlockException if a value the rows need cannot be decoded
   */
  public static byte[][] render(BlockReader r, TableView spans, int[] rows, int n) throws CorruptBlockException {
    int total = spans.rows();
    boolean[] sel = new boolean[total];
    IntColumn resId = IntColumn.of(spans.column("resource_id"));
    IntColumn scopeId = IntColumn.of(spans.column("scope_id"));
    boolean[] usedRes = new boolean[1 << 16];
    boolean[] usedScope = new boolean[1 << 16];
    for (int k = 0; k < n; k++) {
      sel[rows[k]] = true;
      usedRes[resId.getInt(rows[k])] = true;
      usedScope[scopeId.getInt(rows[k])] = true;
    }
    AttrMap attrs = new AttrMap(AttrTable.of(Tables.get(r, Tables.SPAN_ATTRS)), total, sel);
    Envelopes env = new Envelopes(r, usedRes, usedScope);
    Child events = new Child(r, Tables.SPAN_EVENTS, Tables.SPAN_EVENT_ATTRS, total, sel);
    Child links = new Child(r, Tables.SPAN_LINKS, Tables.SPAN_LINK_ATTRS, total, sel);

    IdColumn traceId = IdColumn.of(spans.column("trace_id"), 16);
    IdColumn spanId = IdColumn.of(spans.column("span_id"), 8);
    IdColumn parentSpanId = IdColumn.of(spans.column("parent_span_id"), 8);
    VarColumn traceState = VarColumn.of(spans.column("trace_state"));
    IntColumn flags = IntColumn.of(spans.column("flags"));
    VarColumn name = VarColumn.of(spans.column("name"));
    IntColumn kind = IntColumn.of(spans.column("kind"));
    IntColumn start = IntColumn.of(spans.column("start_time_unix_nano"));
    IntColumn end = IntColumn.of(spans.column("end_time_unix_nano"));
    IntColumn duration = IntColumn.of(spans.column("duration_nano"));
    IntColumn statusCode = IntColumn.of(spans.column("status_code"));
    VarColumn statusMessage = VarColumn.of(spans.column("status_message"));
    IntColumn dropped = IntColumn.of(spans.column("dropped_attributes_count"));
    IntColumn droppedEvents = IntColumn.of(spans.column("dropped_events_count"));
    IntColumn droppedLinks = IntColumn.of(spans.column("dropped_links_count"));

    IntColumn evTime = IntColumn.of(events.table == null ? null : events.table.column("time_unix_nano"));
    VarColumn evName = VarColumn.of(events.table == null ? null : events.table.column("name"));
    IntColumn evDropped = IntColumn.of(events.table == null ? null : events.table.column("dropped_attributes_count"));
    IdColumn lnTrace = IdColumn.of(links.table == null ? null : links.table.column("trace_id"), 16);
    IdColumn lnSpan = IdColumn.of(links.table == null ? null : links.table.column("span_id"), 8);
    VarColumn lnState = VarColumn.of(links.table == null ? null : links.table.column("trace_state"));
    IntColumn lnFlags = IntColumn.of(links.table == null ? null : links.table.column("flags"));
    IntColumn lnDropped = IntColumn.of(links.table == null ? null : links.table.column("dropped_attributes_count"));

    Scratch s = new Scratch();
    byte[][] out = new byte[n][];
    try {
      for (int k = 0; k < n; k++) {
        int i = rows[k];
        out[k] = Json.render((JsonGenerator g) -> {
          g.writeStartObject();
          g.writeStringField("trace_id", traceId.hex(i));
          g.writeStringField("span_id", spanId.hex(i));
          g.writeStringField("parent_span_id", parentSpanId.hex(i));
          g.writeStringField("trace_state", Envelopes.orEmpty(traceState.string(i)));
          g.writeNumberField("flags", flags.getOr(i, 0));
          g.writeStringField("name", Envelopes.orEmpty(name.string(i)));
          g.writeNumberField("kind", kind.getOr(i, 0));
          g.writeStringField("start_time_unix_nano", Long.toString(start.getOr(i, 0)));
          g.writeStringField("end_time_unix_nano", Long.toString(end.getOr(i, 0)));
          g.writeStringField("duration_nano", Long.toString(duration.getOr(i, 0)));
          g.writeObjectFieldStart("status");
          g.writeNumberField("code", statusCode.getOr(i, 0));
          g.writeStringField("message", Envelopes.orEmpty(statusMessage.string(i)));
          g.writeEndObject();
          g.writeFieldName("attributes");
          attrs.write(g, i, s);
          g.writeNumberField("dropped_attributes_count", dropped.getOr(i, 0));
          g.writeArrayFieldStart("events");
          for (int e = 0, c = events.children.count(i); e < c; e++) {
            int ev = events.children.row(i, e);
            g.writeStartObject();
            g.writeStringField("time_unix_nano", Long.toString(evTime.getOr(ev, 0)));
            g.writeStringField("name", Envelopes.orEmpty(evName.string(ev)));
            g.writeFieldName("attributes");
            events.attrs.write(g, ev, s);
            g.writeNumberField("dropped_attributes_count", evDropped.getOr(ev, 0));
            g.writeEndObject();
          }
          g.writeEndArray();
          g.writeNumberField("dropped_events_count", droppedEvents.getOr(i, 0));
          g.writeArrayFieldStart("links");
          for (int l = 0, c = links.children.count(i); l < c; l++) {
            int ln = links.children.row(i, l);
            g.writeStartObject();
            g.writeStringField("trace_id", lnTrace.hex(ln));
            g.writeStringField("span_id", lnSpan.hex(ln));
            g.writeStringField("trace_state", Envelopes.orEmpty(lnState.string(ln)));
            g.writeNumberField("flags", lnFlags.getOr(ln, 0));
            g.writeFieldName("attributes");
            links.attrs.write(g, ln, s);
            g.writeNumberField("dropped_attributes_count", lnDropped.getOr(ln, 0));
            g.writeEndObject();
          }
          g.writeEndArray();
          g.writeNumberField("dropped_links_count", droppedLinks.getOr(i, 0));
          env.resource(g, resId.getInt(i), s);
          env.scope(g, scopeId.getInt(i), s);
          g.writeEndObject();
        });
      }
    } catch (WireException e) {
      throw new CorruptBlockException(r.ref().dir(), Tables.SPANS, "cannot render row: " + e.getMessage());
    }
    return out;
  }

  /** A child table (events or links) of the selected spans, with its attributes. */
  private static final class Child {
    final TableView table;
    final Children children;
    final AttrMap attrs;

    Child(BlockReader r, String file, String attrFile, int spans, boolean[] selectedSpans) throws CorruptBlockException {
      table = Tables.get(r, file);
      int rows = table == null ? 0 : table.rows();
      children = Children.of(IntColumn.of(table == null ? null : table.column("parent_id")), rows, spans, selectedSpans);
      boolean[] used = new boolean[rows];
      for (int p = 0; p < spans; p++) {
        if (selectedSpans[p]) {
          for (int k = 0, c = children.count(p); k < c; k++) {
            used[children.row(p, k)] = true;
          }
        }
      }
      attrs = new AttrMap(AttrTable.of(Tables.get(r, attrFile)), rows, used);
    }
  }
}
