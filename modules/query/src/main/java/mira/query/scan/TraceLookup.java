package mira.query.scan;

import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.catalog.Catalog;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.proto.wire.Signal;
import mira.query.result.QueryException;
import mira.query.result.Refused;
import mira.query.result.Stats;
import mira.query.result.SpanRow;
import mira.query.result.TraceResult;
import mira.query.prune.Probe;
import mira.query.prune.Pruning;
import mira.query.rows.SpanRows;
import mira.query.table.IdReader;
import mira.query.table.IntReader;
import mira.query.table.Tables;

/**
 * Every span of one trace across all of retention: a trace has no useful time bound (an id from
 * yesterday's log line is as valid as one from a minute ago), so every traces block is a
 * candidate and the trace.idx probe (in {@link mira.query.prune.Pruning}) narrows them. A trace
 * is answered whole or not at all: past {@link #MAX_SPANS} spans the lookup fails and names the
 * paged alternative.
 */
public final class TraceLookup {
  /** The most spans one lookup returns. */
  public static final int MAX_SPANS = 100_000;

  private TraceLookup() {}

  /**
   * @param traceIdHex 32 hex digits, any case
   * @throws QueryException if the id is malformed or the trace is larger than {@link #MAX_SPANS}
   */
  public static TraceResult run(Engine engine, String traceIdHex) throws QueryException, IOException {
    byte[] id = parse(traceIdHex);
    String hex = HexFormat.of().formatHex(id);
    long started = System.nanoTime();
    Sources sources = engine.sources(Signal.TRACES, Long.MIN_VALUE, Long.MAX_VALUE);
    List<BlockRef> listed = sources.refs();
    Probe probe = new Probe(Signal.TRACES, Long.MIN_VALUE, Long.MAX_VALUE, null, id, List.of());
    Pruning.Selection selected = engine.pruning().select(listed, sources::isSnapshot, probe);
    List<BlockRef> todo = selected.blocks();
    List<SpanRow> found = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger total = new AtomicInteger();
    AtomicBoolean tooMany = new AtomicBoolean();
    AtomicInteger scanned = new AtomicInteger();
    LongAdder rowsScanned = new LongAdder();
    List<Refused> refused = Collections.synchronizedList(new ArrayList<>());
    Waves.run(todo, b -> tooMany.get(), block -> {
      try (BlockReader r = engine.open(sources, block)) {
        TableView spans = Tables.get(r, TableFiles.SPANS);
        scanned.incrementAndGet();
        if (spans == null) {
          return;
        }
        int n = spans.rows();
        IdReader trace = IdReader.of(spans.column(ColumnNames.TRACE_ID), 16);
        int[] rows = new int[16];
        int m = 0;
        for (int i = 0; i < n; i++) {
          if (!trace.isNull(i) && trace.equalsAt(i, id)) {
            if (m == rows.length) {
              rows = java.util.Arrays.copyOf(rows, m * 2);
            }
            rows[m++] = i;
          }
        }
        rowsScanned.add(n);
        if (m == 0) {
          return;
        }
        if (total.addAndGet(m) > MAX_SPANS) {
          tooMany.set(true);
          return;
        }
        found.addAll(java.util.Arrays.asList(SpanRows.read(r, spans, rows, null, m)));
      } catch (CorruptBlockException e) {
        refused.add(new Refused(engine.name(block), e.getMessage()));
      }
    }, engine.fanOut());
    if (tooMany.get()) {
      throw new QueryException("trace " + hex + " has more than " + MAX_SPANS + " spans; page through it with "
          + "/api/v1/query and {\"field\": \"trace_id\", \"eq\": \"" + hex + "\"}");
    }
    List<SpanRow> spans = new ArrayList<>(found);
    spans.sort(Comparator.comparingLong(SpanRow::startTimeUnixNano).thenComparing(SpanRow::spanId)
        .thenComparing((a, b) -> mira.query.doc.Cursor.compare(0, a.node(), a.seq(), a.row(), 0, b.node(), b.seq(), b.row())));
    List<Refused> ref = new ArrayList<>(refused);
    ref.sort(Comparator.comparing(Refused::block));
    Stats stats = new Stats(listed.size(), selected.pruned(), scanned.get(), rowsScanned.sum(), spans.size(),
        (System.nanoTime() - started) / 1_000_000);
    return new TraceResult(hex, spans, stats, ref);
  }

  static byte[] parse(String s) throws QueryException {
    if (s == null || s.length() != 32) {
      throw new QueryException("trace id: expected 32 hex digits, got "
          + (s == null ? "nothing" : s.length() + " characters"));
    }
    for (int i = 0; i < 32; i++) {
      if (!mira.query.doc.Documents.isHex(s.charAt(i))) {
        throw new QueryException("trace id: character " + (i + 1) + " is not a hex digit");
      }
    }
    return HexFormat.of().parseHex(s.toLowerCase(java.util.Locale.ROOT));
  }
}
