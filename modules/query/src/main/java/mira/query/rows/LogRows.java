package mira.query.rows;

import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.proto.wire.WireException;
import mira.query.result.LogRow;
import mira.query.result.Value;
import mira.query.table.AttrTable;
import mira.query.table.DictColumn;
import mira.query.table.IdColumn;
import mira.query.table.IntColumn;
import mira.query.table.Scratch;
import mira.query.table.Tables;
import mira.query.table.VarColumn;

/**
 * Reads matched log rows of one block into {@link LogRow}s (docs/api.md, "Log rows"), while the
 * block is open. Unset fields hold their OTLP default ("" for strings and ids, 0 for numbers); an
 * absent body is null.
 */
public final class LogRows {
  private LogRows() {}

  /**
   * Reads {@code rows[0..n)} of the block's logs table; {@code times[k]} is row k's place in the
   * order of results.
   *
   * @throws CorruptBlockException if a value the rows need cannot be decoded
   */
  public static LogRow[] read(BlockReader r, TableView logs, int[] rows, long[] times, int n) throws CorruptBlockException {
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
    AttrLists attrs = new AttrLists(AttrTable.of(Tables.get(r, Tables.LOG_ATTRS)), total, sel);
    ResourceScopes env = new ResourceScopes(r, usedRes, usedScope);
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
    int node = r.ref().name().node();
    long seq = r.ref().name().seq();
    LogRow[] out = new LogRow[n];
    try {
      for (int k = 0; k < n; k++) {
        int i = rows[k];
        Value b;
        if (!body.isNull(i)) {
          b = new Value.Str(body.string(i));
        } else if (!bodySer.isNull(i)) {
          byte[] ser = bodySer.bytes(i);
          b = StoredValues.anyValue(ser, 0, ser.length);
        } else {
          b = null;
        }
        out[k] = new LogRow(times[k], node, seq, i, observed.getOr(i, 0), (int) sevNum.getOr(i, 0),
            ResourceScopes.orEmpty(sevText.string(i)), ResourceScopes.orEmpty(event.string(i)), b,
            traceId.hex(i), spanId.hex(i), flags.getOr(i, 0), attrs.get(i, s), dropped.getOr(i, 0),
            env.resource(resId.getInt(i), s), env.scope(scopeId.getInt(i), s));
      }
    } catch (WireException e) {
      throw new CorruptBlockException(r.ref().dir(), Tables.LOGS, "cannot read row: " + e.getMessage());
    }
    return out;
  }
}
