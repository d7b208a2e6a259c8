package mira.query.render;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.proto.wire.WireException;
import mira.query.table.AttrTable;
import mira.query.table.DictColumn;
import mira.query.table.IdColumn;
import mira.query.table.IntColumn;
import mira.query.table.Scratch;
import mira.query.table.Tables;
import mira.query.table.VarColumn;

/**
 * Renders log rows of one block (docs/api.md, "Log rows"). Unset fields are written with their
 * OTLP default ("" for strings and ids, 0 for numbers) so every row has the same keys; an absent
 * body is null.
 */
public final class LogRows {
  private LogRows() {}

  /**
   * Renders {@code rows[0..n)} of the block's logs table.
   *
   * @throws CorruptBlockException if a value the rows need cannot be decoded
   */
  public static byte[][] render(BlockReader r, TableView logs, int[] rows, int n) throws CorruptBlockException {
    int total = logs.rows();
    boolean[] sel = new boolean[total];
    IntColumn resId = IntColumn.of(logs.column("resource_id"));
    IntColumn scopeId = IntColumn.of(logs.column("scope_id"));
    boolean[] usedRes = new boolean[1 << 16];
    boolean[] usedScope = new boolean[1 << 16];
    for (int k = 0; k < n; k++) {
      sel[rows[k]] = true;
      usedRes[resId.getInt(rows[k])] = true;
      usedScope[scopeId.getInt(rows[k])] = true;
    }
    AttrMap attrs = new AttrMap(AttrTable.of(Tables.get(r, Tables.LOG_ATTRS)), total, sel);
    Envelopes env = new Envelopes(r, usedRes, usedScope);
    IntColumn time = IntColumn.of(logs.column("time_unix_nano"));
    IntColumn observed = IntColumn.of(logs.column("observed_time_unix_nano"));
    IntColumn sevNum = IntColumn.of(logs.column("severity_number"));
    DictColumn sevText = DictColumn.of(logs, "severity_text");
    DictColumn event = DictColumn.of(logs, "event_name");
    VarColumn body = VarColumn.of(logs.column("body"));
    VarColumn bodySer = VarColumn.of(logs.column("body_ser"));
    IdColumn traceId = IdColumn.of(logs.column("trace_id"), 16);
    IdColumn spanId = IdColumn.of(logs.column("span_id"), 8);
    IntColumn flags = IntColumn.of(logs.column("flags"));
    IntColumn dropped = IntColumn.of(logs.column("dropped_attributes_count"));
    Scratch s = new Scratch();
    byte[][] out = new byte[n][];
    try {
      for (int k = 0; k < n; k++) {
        int i = rows[k];
        out[k] = Json.render((JsonGenerator g) -> {
          g.writeStartObject();
          g.writeStringField("time_unix_nano", Long.toString(time.get(i)));
          g.writeStringField("observed_time_unix_nano", Long.toString(observed.getOr(i, 0)));
          g.writeNumberField("severity_number", sevNum.getOr(i, 0));
          g.writeStringField("severity_text", Envelopes.orEmpty(sevText.string(i)));
          g.writeStringField("event_name", Envelopes.orEmpty(event.string(i)));
          g.writeFieldName("body");
          if (!body.isNull(i)) {
            int len = body.copy(i, s);
            g.writeUTF8String(s.buf(), 0, len);
          } else if (!bodySer.isNull(i)) {
            byte[] b = bodySer.bytes(i);
            Values.anyValue(g, b, 0, b.length);
          } else {
            g.writeNull();
          }
          g.writeStringField("trace_id", traceId.hex(i));
          g.writeStringField("span_id", spanId.hex(i));
          g.writeNumberField("flags", flags.getOr(i, 0));
          g.writeFieldName("attributes");
          attrs.write(g, i, s);
          g.writeNumberField("dropped_attributes_count", dropped.getOr(i, 0));
          env.resource(g, resId.getInt(i), s);
          env.scope(g, scopeId.getInt(i), s);
          g.writeEndObject();
        });
      }
    } catch (WireException e) {
      throw new CorruptBlockException(r.ref().dir(), Tables.LOGS, "cannot render row: " + e.getMessage());
    }
    return out;
  }
}
