package mira.query.rows;

import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.proto.wire.WireException;
import mira.query.result.LogRow;
import mira.query.result.Value;
import mira.query.table.AttrTable;
import mira.query.table.DictReader;
import mira.query.table.IdReader;
import mira.query.table.IntReader;
import mira.query.table.Scratch;
import mira.query.table.Tables;
import mira.query.table.VarReader;

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
    Selected selected = new Selected(r, logs, rows, n);
    boolean[] sel = selected.rows;
    AttrLists attrs = new AttrLists(AttrTable.of(Tables.get(r, TableFiles.LOG_ATTRS)), total, sel);
    ResourceScopes env = selected.envelopes;
    IntReader observed = IntReader.of(logs.column(ColumnNames.OBSERVED_TIME_UNIX_NANO));
    IntReader sevNum = IntReader.of(logs.column(ColumnNames.SEVERITY_NUMBER));
    DictReader sevText = DictReader.of(logs, ColumnNames.SEVERITY_TEXT);
    DictReader event = DictReader.of(logs, ColumnNames.EVENT_NAME);
    VarReader body = VarReader.of(logs.column(ColumnNames.BODY));
    VarReader bodySer = VarReader.of(logs.column(ColumnNames.BODY_SER));
    IdReader traceId = IdReader.of(logs.column(ColumnNames.TRACE_ID), 16);
    IdReader spanId = IdReader.of(logs.column(ColumnNames.SPAN_ID), 8);
    IntReader flags = IntReader.of(logs.column(ColumnNames.FLAGS));
    IntReader dropped = IntReader.of(logs.column(ColumnNames.DROPPED_ATTRIBUTES_COUNT));
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
            env.resource(selected.resourceId.getInt(i), s), env.scope(selected.scopeId.getInt(i), s));
      }
    } catch (WireException e) {
      throw new CorruptBlockException(r.ref().dir(), TableFiles.LOGS, "cannot read row: " + e.getMessage());
    }
    return out;
  }
}
