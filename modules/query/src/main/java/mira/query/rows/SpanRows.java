package mira.query.rows;

import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import java.util.ArrayList;
import java.util.List;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.proto.wire.WireException;
import mira.query.result.SpanRow;
import mira.query.table.AttrTable;
import mira.query.table.Children;
import mira.query.table.IdReader;
import mira.query.table.IntReader;
import mira.query.table.Scratch;
import mira.query.table.Tables;
import mira.query.table.VarReader;

/**
 * Reads matched span rows of one block, with their events and links, into {@link SpanRow}s
 * (docs/api.md, "Span rows"), while the block is open. Unset fields hold their OTLP default.
 */
public final class SpanRows {
  private SpanRows() {}

  /**
   * Reads {@code rows[0..n)} of the block's spans table; {@code times[k]} is row k's place in the
   * order of results (null: its start time).
   *
   * @throws CorruptBlockException if a value the rows need cannot be decoded
   */
  public static SpanRow[] read(BlockReader r, TableView spans, int[] rows, long[] times, int n) throws CorruptBlockException {
    int total = spans.rows();
    Selected selected = new Selected(r, spans, rows, n);
    boolean[] sel = selected.rows;
    AttrLists attrs = new AttrLists(AttrTable.of(Tables.get(r, TableFiles.SPAN_ATTRS)), total, sel);
    ResourceScopes env = selected.envelopes;
    Child events = new Child(r, TableFiles.SPAN_EVENTS, TableFiles.SPAN_EVENT_ATTRS, total, sel);
    Child links = new Child(r, TableFiles.SPAN_LINKS, TableFiles.SPAN_LINK_ATTRS, total, sel);

    IdReader traceId = IdReader.of(spans.column(ColumnNames.TRACE_ID), 16);
    IdReader spanId = IdReader.of(spans.column(ColumnNames.SPAN_ID), 8);
    IdReader parentSpanId = IdReader.of(spans.column(ColumnNames.PARENT_SPAN_ID), 8);
    VarReader traceState = VarReader.of(spans.column(ColumnNames.TRACE_STATE));
    IntReader flags = IntReader.of(spans.column(ColumnNames.FLAGS));
    VarReader name = VarReader.of(spans.column(ColumnNames.NAME));
    IntReader kind = IntReader.of(spans.column(ColumnNames.KIND));
    IntReader start = IntReader.of(spans.column(ColumnNames.START_TIME_UNIX_NANO));
    IntReader end = IntReader.of(spans.column(ColumnNames.END_TIME_UNIX_NANO));
    IntReader duration = IntReader.of(spans.column(ColumnNames.DURATION_NANO));
    IntReader statusCode = IntReader.of(spans.column(ColumnNames.STATUS_CODE));
    VarReader statusMessage = VarReader.of(spans.column(ColumnNames.STATUS_MESSAGE));
    IntReader dropped = IntReader.of(spans.column(ColumnNames.DROPPED_ATTRIBUTES_COUNT));
    IntReader droppedEvents = IntReader.of(spans.column(ColumnNames.DROPPED_EVENTS_COUNT));
    IntReader droppedLinks = IntReader.of(spans.column(ColumnNames.DROPPED_LINKS_COUNT));

    IntReader evTime = IntReader.of(events.table == null ? null : events.table.column(ColumnNames.TIME_UNIX_NANO));
    VarReader evName = VarReader.of(events.table == null ? null : events.table.column(ColumnNames.NAME));
    IntReader evDropped = IntReader.of(events.table == null ? null : events.table.column(ColumnNames.DROPPED_ATTRIBUTES_COUNT));
    IdReader lnTrace = IdReader.of(links.table == null ? null : links.table.column(ColumnNames.TRACE_ID), 16);
    IdReader lnSpan = IdReader.of(links.table == null ? null : links.table.column(ColumnNames.SPAN_ID), 8);
    VarReader lnState = VarReader.of(links.table == null ? null : links.table.column(ColumnNames.TRACE_STATE));
    IntReader lnFlags = IntReader.of(links.table == null ? null : links.table.column(ColumnNames.FLAGS));
    IntReader lnDropped = IntReader.of(links.table == null ? null : links.table.column(ColumnNames.DROPPED_ATTRIBUTES_COUNT));

    Scratch s = new Scratch();
    int node = r.ref().name().node();
    long seq = r.ref().name().seq();
    SpanRow[] out = new SpanRow[n];
    try {
      for (int k = 0; k < n; k++) {
        int i = rows[k];
        int ne = events.children.count(i);
        List<SpanRow.Event> evs = ne == 0 ? List.of() : new ArrayList<>(ne);
        for (int e = 0; e < ne; e++) {
          int ev = events.children.row(i, e);
          evs.add(new SpanRow.Event(evTime.getOr(ev, 0), ResourceScopes.orEmpty(evName.string(ev)),
              events.attrs.get(ev, s), evDropped.getOr(ev, 0)));
        }
        int nl = links.children.count(i);
        List<SpanRow.Link> lns = nl == 0 ? List.of() : new ArrayList<>(nl);
        for (int l = 0; l < nl; l++) {
          int ln = links.children.row(i, l);
          lns.add(new SpanRow.Link(lnTrace.hex(ln), lnSpan.hex(ln), ResourceScopes.orEmpty(lnState.string(ln)),
              lnFlags.getOr(ln, 0), links.attrs.get(ln, s), lnDropped.getOr(ln, 0)));
        }
        long startTime = start.getOr(i, 0);
        out[k] = new SpanRow(times == null ? startTime : times[k], node, seq, i, traceId.hex(i), spanId.hex(i),
            parentSpanId.hex(i), ResourceScopes.orEmpty(traceState.string(i)), flags.getOr(i, 0),
            ResourceScopes.orEmpty(name.string(i)), (int) kind.getOr(i, 0), startTime, end.getOr(i, 0),
            duration.getOr(i, 0), (int) statusCode.getOr(i, 0), ResourceScopes.orEmpty(statusMessage.string(i)),
            attrs.get(i, s), dropped.getOr(i, 0), evs, droppedEvents.getOr(i, 0), lns, droppedLinks.getOr(i, 0),
            env.resource(selected.resourceId.getInt(i), s), env.scope(selected.scopeId.getInt(i), s));
      }
    } catch (WireException e) {
      throw new CorruptBlockException(r.ref().dir(), TableFiles.SPANS, "cannot read row: " + e.getMessage());
    }
    return out;
  }

  /** A child table (events or links) of the selected spans, with its attributes. */
  private static final class Child {
    final TableView table;
    final Children children;
    final AttrLists attrs;

    Child(BlockReader r, String file, String attrFile, int spans, boolean[] selectedSpans) throws CorruptBlockException {
      table = Tables.get(r, file);
      int rows = table == null ? 0 : table.rows();
      children = Children.of(IntReader.of(table == null ? null : table.column(ColumnNames.PARENT_ID)), rows, spans, selectedSpans);
      boolean[] used = new boolean[rows];
      for (int p = 0; p < spans; p++) {
        if (selectedSpans[p]) {
          for (int k = 0, c = children.count(p); k < c; k++) {
            used[children.row(p, k)] = true;
          }
        }
      }
      attrs = new AttrLists(AttrTable.of(Tables.get(r, attrFile)), rows, used);
    }
  }
}
