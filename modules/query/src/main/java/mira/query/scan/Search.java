package mira.query.scan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.catalog.Catalog;
import mira.block.read.CorruptBlockException;
import mira.proto.wire.Signal;
import mira.query.doc.Cursor;
import mira.query.doc.RootField;
import mira.query.doc.SearchQuery;
import mira.query.doc.Term;
import mira.query.prune.Probe;
import mira.query.prune.Pruning;
import mira.query.result.Refused;
import mira.query.result.Row;
import mira.query.result.SearchResult;
import mira.query.result.Stats;
import mira.query.rows.LogRows;
import mira.query.rows.SpanRows;

/**
 * A search over logs or spans: list the blocks whose names overlap the window, prune, scan them
 * newest first in waves, keep the best {@code limit} rows in the total order, read only those into records.
 *
 * <p>Per block: the window and cursor, then the terms (cheap root fields first, then attribute
 * semi-joins, then substring search), then a bounded heap of the block's best rows that could still
 * enter the result, which are read while the block is open and only then offered to the
 * shared result — so a block that turns out to be damaged contributes nothing and displaces
 * nothing.
 */
public final class Search {
  private Search() {}

  /**
   * The exact number of rows matching {@code where} in the window, with nothing materialised: a
   * search with limit 0, whose answer has no rows and whose {@link Stats#rowsMatched} counts every
   * match of every block (no page fills, so no block is skipped).
   */
  public static SearchResult count(Engine engine, Signal signal, long from, long to, List<Term> where)
      throws IOException {
    return run(engine, new SearchQuery(signal, from, to, where, 0, null));
  }

  public static SearchResult run(Engine engine, SearchQuery q) throws IOException {
    long started = System.nanoTime();
    Sources sources = engine.sources(q.signal(), q.from(), q.to());
    List<BlockRef> listed = sources.refs();
    Probe probe = new Probe(q.signal(), q.from(), q.to(), q.after(), traceId(q), q.where());
    Pruning.Selection selected = engine.pruning().select(listed, sources::isSnapshot, probe);
    List<BlockRef> todo = selected.blocks();
    List<Term> ordered = order(q.where());
    TopK top = new TopK(q.limit());
    AtomicInteger scanned = new AtomicInteger();
    LongAdder rowsScanned = new LongAdder();
    LongAdder rowsMatched = new LongAdder();
    List<Refused> refused = Collections.synchronizedList(new ArrayList<>());

    Waves.Gate gate = b -> {
      TopK.Worst w = top.worst();
      return w != null && b.name().maxTime() < w.time();
    };
    Waves.run(todo, gate, block -> {
      try (BlockReader r = engine.open(sources, block)) {
        Found f = scan(r, q, ordered, top.worst());
        if (f == null) {
          scanned.incrementAndGet();
          return;
        }
        // Nothing is offered until the whole block has been read.
        int node = block.name().node();
        long seq = block.name().seq();
        for (int k = 0; k < f.count; k++) {
          if (!top.offer(f.times[k], node, seq, f.rows[k], f.found[k])) {
            break; // best first: the rest cannot enter either
          }
        }
        scanned.incrementAndGet();
        rowsScanned.add(f.scanned);
        rowsMatched.add(f.matched);
      } catch (CorruptBlockException e) {
        refused.add(new Refused(engine.name(block), e.getMessage()));
      }
    }, engine.fanOut());

    TopK.Entry[] best = top.drainDescending();
    List<Row> rows = new ArrayList<>(best.length);
    for (TopK.Entry e : best) {
      rows.add(e.payload());
    }
    String next = null;
    if (q.limit() > 0 && best.length == q.limit()) {
      TopK.Entry last = best[best.length - 1];
      next = new Cursor(last.time(), last.node(), last.seq(), last.row()).encode();
    }
    Stats stats = new Stats(listed.size(), selected.pruned(), scanned.get(), rowsScanned.sum(), rowsMatched.sum(),
        (System.nanoTime() - started) / 1_000_000);
    List<Refused> ref = new ArrayList<>(refused);
    ref.sort((a, b) -> a.block().compareTo(b.block()));
    return new SearchResult(rows, next, stats, ref);
  }

  /** A block's contribution: its best rows, best first, read. */
  private record Found(int[] rows, long[] times, Row[] found, int count, long scanned, long matched) {}

  private static Found scan(BlockReader r, SearchQuery q, List<Term> terms, TopK.Worst worst)
      throws CorruptBlockException {
    RowFilter f = RowFilter.open(r, q.signal());
    if (f == null) {
      return null;
    }
    int[] cand = new int[f.rows()];
    int m = f.window(q.from(), q.to(), q.after(), cand);
    for (Term t : terms) {
      if (m == 0) {
        break;
      }
      m = f.apply(t, cand, m);
    }
    int node = r.ref().name().node();
    long seq = r.ref().name().seq();
    if (q.limit() == 0) {
      return new Found(new int[0], new long[0], new Row[0], 0, f.rows(), m);
    }
    RowHeap heap = new RowHeap(q.limit());
    for (int k = 0; k < m; k++) {
      int i = cand[k];
      long t = f.time(i);
      if (TopK.couldEnter(worst, t, node, seq, i)) {
        heap.offer(t, i);
      }
    }
    int[] rows = new int[heap.size()];
    long[] times = new long[heap.size()];
    int n = heap.drainDescending(rows, times);
    Row[] found = q.signal() == Signal.LOGS
        ? LogRows.read(r, f.root(), rows, times, n)
        : SpanRows.read(r, f.root(), rows, times, n);
    return new Found(rows, times, found, n, f.rows(), m);
  }

  /**
   * Entity terms first (one small table, then an array lookup per row), root-field terms (a
   * column each), then attribute semi-joins, then substring search, then negations (each runs its
   * inner term over the candidates left, so it goes where they are fewest).
   */
  static List<Term> order(List<Term> where) {
    List<Term> out = new ArrayList<>(where.size());
    for (Term t : where) {
      if (t instanceof Term.Entity) {
        out.add(t);
      }
    }
    for (Term t : where) {
      if (t instanceof Term.Field || t instanceof Term.FieldIn) {
        out.add(t);
      }
    }
    for (Term t : where) {
      if (t instanceof Term.Attr || t instanceof Term.AttrIn) {
        out.add(t);
      }
    }
    for (Term t : where) {
      if (t instanceof Term.Text) {
        out.add(t);
      }
    }
    for (Term t : where) {
      if (t instanceof Term.Not) {
        out.add(t);
      }
    }
    return out;
  }

  /**
   * The trace id an eq term on trace_id pins, for a trace.idx probe; null if none. (Terms are
   * all required, so any one of several such terms will do.)
   */
  private static byte[] traceId(SearchQuery q) {
    for (Term t : q.where()) {
      if (t instanceof Term.Field f && f.field() == RootField.TRACE_ID && f.op() == mira.query.doc.Op.EQ
          && f.value().text().length() == 32) {
        return java.util.HexFormat.of().parseHex(f.value().text().toLowerCase(java.util.Locale.ROOT));
      }
    }
    return null;
  }
}
