package mira.query.series;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import mira.block.catalog.BlockRef;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.query.doc.Cursor;
import mira.query.doc.Documents;
import mira.query.doc.SeriesFn;
import mira.query.doc.SeriesQuery;
import mira.query.prune.Pruning;
import mira.query.result.QueryException;
import mira.query.result.Refused;
import mira.query.result.SeriesResult;
import mira.query.result.Stats;
import mira.query.scan.Engine;
import mira.query.scan.Sources;
import mira.query.scan.Waves;

/**
 * {@code rate}, {@code increase} and explicit-bucket {@code quantile} of a named metric on the
 * step grid, from per-block {@link BlockPartial}s: a sealed block the window holds whole gives its
 * kept partial (read once per query shape, see {@link SeriesPartials}), a block the window cuts
 * or the memtable's snapshot is read for the window. The partials of a series are put in order and
 * each block's first point takes its increase from the previous block's last, so the answer is
 * the one {@link SeriesFunctions} and {@link Quantiles} give from every point gathered (up to the
 * order in which fractional increases are added).
 *
 * <p>Where that cannot be guaranteed the answer is left to the gathering path ({@link #run}
 * returns null): a block that does not fold, the blocks of a series that overlap in time, more
 * series or points than the gathering path keeps.
 */
final class SteppedScan {
  private static final System.Logger LOG = System.getLogger(SteppedScan.class.getName());
  /** Whether this process has said once, at INFO, why a stepped query was left to the gathering path. */
  private static final AtomicBoolean TOLD = new AtomicBoolean();

  private SteppedScan() {}

  /**
   * Says why {@code q} is answered by gathering every point: at INFO the first time in a process
   * (an operator sees that the cheaper path is not taken, and why), at DEBUG after that.
   */
  private static void gathering(SeriesQuery q, String why) {
    System.Logger.Level level = TOLD.compareAndSet(false, true) ? System.Logger.Level.INFO : System.Logger.Level.DEBUG;
    if (LOG.isLoggable(level)) {
      LOG.log(level, "series " + q.fn().fn() + " of " + q.name() + " gathers every point instead of per-block partials: "
          + why);
    }
  }

  /**
   * Two of {@code blocks} whose time ranges overlap (more than at one end), or null. Blocks sealed side by side by
   * several ingest shards overlap, and an export goes to whichever shard has room, so one series'
   * points alternate between them: per-block partials of such a series cannot be put in order
   * ({@link #inOrder}), and building them only to find that out was most of a first stepped query's
   * cost (the load generator's corpus, 4 connections).
   */
  static BlockRef[] overlapping(List<BlockRef> blocks) {
    if (blocks.size() < 2) {
      return null;
    }
    BlockRef[] sorted = blocks.toArray(new BlockRef[0]);
    Arrays.sort(sorted, Comparator.comparingLong((BlockRef b) -> b.name().minTime()));
    BlockRef reach = sorted[0];
    for (int i = 1; i < sorted.length; i++) {
      if (sorted[i].name().minTime() < reach.name().maxTime()) {
        return new BlockRef[] {reach, sorted[i]};
      }
      if (sorted[i].name().maxTime() > reach.name().maxTime()) {
        reach = sorted[i];
      }
    }
    return null;
  }

  /** Whether a query can be answered from partials: a named metric, rate, increase or quantile, the epoch grid. */
  static boolean applies(SeriesQuery q) {
    SeriesFn f = q.fn();
    return f != null && !f.fromWindow() && q.name() != null
        && (f.fn().equals("rate") || f.fn().equals("increase") || f.fn().equals("quantile"));
  }

  /**
   * The answer from partials, or null if the gathering path must give it.
   *
   * @param listed how many blocks the window listed (for the stats)
   */
  static SeriesResult run(Engine engine, Sources sources, int listed, Pruning.Selection selected, SeriesQuery q,
      SeriesPartials cache, long started) throws IOException, QueryException {
    SeriesFn f = q.fn();
    boolean quantile = f.fn().equals("quantile");
    long step = f.step();
    SeriesQuery all = new SeriesQuery(q.name(), Long.MIN_VALUE, Long.MAX_VALUE, q.where(), q.maxSeries(),
        q.maxPoints(), f);
    String shape = q.name() + '\u0000' + (quantile ? "quantile" : "increase") + '\u0000' + step + '\u0000' + q.where();
    List<BlockRef> blocks = selected.blocks();
    BlockRef[] overlap = overlapping(blocks);
    if (overlap != null) {
      gathering(q, "blocks " + engine.name(overlap[0]) + " and " + engine.name(overlap[1]) + " overlap in time");
      return null;
    }
    BlockPartial[] parts = new BlockPartial[blocks.size()];
    Object[] kept = new Object[blocks.size()];
    Map<Path, Integer> at = new HashMap<>();
    for (int i = 0; i < parts.length; i++) {
      at.put(blocks.get(i).dir(), i);
    }
    AtomicInteger scanned = new AtomicInteger();
    List<Refused> refused = Collections.synchronizedList(new ArrayList<>());
    Waves.run(blocks, b -> false, block -> {
      Object id = sources.isSnapshot(block) ? null : SeriesPartials.block(block.dir());
      List<Object> key = id == null ? null : List.of(id, shape);
      BlockPartial p = cache.get(key);
      boolean whole = true;   // p is the block's partial over all time, which the window holds whole
      if (p == null || !p.wholeIn(q.from(), q.to())) {
        try (BlockReader r = engine.open(sources, block)) {
          scanned.incrementAndGet();
          if (p == null && key != null) {
            p = partial(r, all, quantile, step);
            cache.put(key, p);
          }
          if (p == null || !p.wholeIn(q.from(), q.to())) {
            p = partial(r, q, quantile, step);
            whole = false;
          }
        } catch (CorruptBlockException e) {
          refused.add(new Refused(engine.name(block), e.getMessage()));
          return;
        }
      }
      int i = at.get(block.dir());
      parts[i] = p;
      kept[i] = whole && key != null ? id : null;
    }, engine.fanOut());

    boolean anyExact = false;
    long points = 0;
    long matched = 0;
    for (int i = 0; i < parts.length; i++) {
      BlockPartial p = parts[i];
      if (p != null && !p.foldable()) {
        gathering(q, "block " + engine.name(blocks.get(i)) + " does not fold");
        return null;
      }
      if (p != null) {
        anyExact |= !p.exact.isEmpty();
        points += p.points;
        matched += p.matched;
      }
    }
    BlockPartial[] joined = runs(parts, kept, shape, quantile, step, cache);
    // Exact name first, as the gathering path: a metric really called foo.count keeps its own name.
    HashMap<String, List<BlockPartial.Piece>> byKey = new HashMap<>();
    for (BlockPartial p : joined) {
      if (p != null) {
        for (BlockPartial.Piece piece : anyExact ? p.exact : p.suffix) {
          byKey.computeIfAbsent(piece.key(), k -> new ArrayList<>()).add(piece);
        }
      }
    }
    if (byKey.size() > Documents.MAX_SERIES) {
      gathering(q, byKey.size() + " series, more than " + Documents.MAX_SERIES);
      return null;
    }
    for (List<BlockPartial.Piece> pieces : byKey.values()) {
      if (!inOrder(pieces)) {
        gathering(q, "the pieces of a series overlap in time or hold more than " + Documents.MAX_POINTS + " points");
        return null;
      }
    }
    // In key order, as the gathering path's sorted set: groups take their members in this order.
    TreeMap<String, List<BlockPartial.Piece>> bySeries = new TreeMap<>(byKey);
    List<Refused> ref = new ArrayList<>(refused);
    ref.sort((a, b) -> a.block().compareTo(b.block()));
    for (List<BlockPartial.Piece> pieces : bySeries.values()) {
      Series s = pieces.get(0).shell();
      SeriesFunctions.check(f, s, s.name.equals(q.name()));
    }
    long t0 = Math.floorDiv(q.from(), step) * step;
    int nb = (int) ((q.to() - t0) / step) + 1;
    long base = Math.floorDiv(t0, step);
    TreeMap<String, SeriesFunctions.Group> groups = new TreeMap<>();
    for (List<BlockPartial.Piece> pieces : bySeries.values()) {
      if (quantile) {
        quantile(groups, f, pieces, q.from(), base, nb);
      } else {
        increase(groups, f, pieces, q.from(), base, nb);
      }
    }
    Stats stats = new Stats(listed, selected.pruned(), scanned.get(), points, matched,
        (System.nanoTime() - started) / 1_000_000);
    return quantile ? Quantiles.results(groups, q, t0, nb, 0, stats, ref)
        : SeriesFunctions.results(groups, q, t0, 0, stats, ref);
  }

  /**
   * The parts oldest first, with the kept partials of whole blocks whose oldest points fall in the
   * same {@link SeriesPartials#runSlot() slot} of time replaced by one partial of them all (kept
   * as well, under the blocks it joins): an hour of a busy node's metrics is some sixty blocks, and
   * the fold's cost is per series and part, so joining them cuts it by the blocks a run holds.
   * Oldest first also hands each series' pieces to {@link #inOrder} already sorted.
   */
  private static BlockPartial[] runs(BlockPartial[] parts, Object[] kept, String shape, boolean quantile, long step,
      SeriesPartials cache) {
    Integer[] order = new Integer[parts.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparing((Integer i) -> parts[i], Comparator.nullsLast(
        Comparator.comparingLong((BlockPartial p) -> p.minTime))));
    List<BlockPartial> out = new ArrayList<>(parts.length);
    long slot = cache.runSlot();
    for (int i = 0; i < order.length; ) {
      BlockPartial p = parts[order[i]];
      int j = i + 1;
      if (p != null && kept[order[i]] != null && p.matched > 0) {
        long at = Math.floorDiv(p.minTime, slot);
        while (j < order.length && kept[order[j]] != null && parts[order[j]].matched > 0
            && Math.floorDiv(parts[order[j]].minTime, slot) == at) {
          j++;
        }
      }
      if (j - i < 2) {
        out.add(p);
        i++;
        continue;
      }
      List<Object> blocks = new ArrayList<>(j - i);
      List<BlockPartial> members = new ArrayList<>(j - i);
      for (int k = i; k < j; k++) {
        blocks.add(kept[order[k]]);
        members.add(parts[order[k]]);
      }
      List<Object> key = List.of(new SeriesPartials.Run(blocks), shape);
      BlockPartial run = cache.get(key);
      if (run == null) {
        run = BlockPartial.merge(members, quantile, step);
        if (run != null) {
          cache.put(key, run);
        }
      }
      if (run == null) {
        out.addAll(members);
      } else {
        out.add(run);
      }
      i = j;
    }
    return out.toArray(new BlockPartial[0]);
  }

  private static BlockPartial partial(BlockReader r, SeriesQuery q, boolean quantile, long step)
      throws CorruptBlockException {
    SeriesSet exact = new SeriesSet(Documents.MAX_SERIES);
    SeriesSet suffix = new SeriesSet(Documents.MAX_SERIES);
    long[] counts = new long[2];
    SeriesScan.scan(r, q, Documents.MAX_POINTS, exact, suffix, counts);
    return BlockPartial.of(exact, suffix, quantile, step, counts[0], counts[1]);
  }

  /**
   * Sorts a series' pieces oldest first; true if each begins after the one before it ends (in the
   * total order of points) and they hold no more points than the gathering path keeps.
   */
  private static boolean inOrder(List<BlockPartial.Piece> pieces) {
    if (!sorted(pieces)) {
      pieces.sort((a, b) -> compare(a.first(), b.first()));
    }
    long total = 0;
    for (int i = 0; i < pieces.size(); i++) {
      total += pieces.get(i).count();
      if (i > 0 && compare(pieces.get(i - 1).last(), pieces.get(i).first()) >= 0) {
        return false;
      }
    }
    return total <= Documents.MAX_POINTS;
  }

  /** Whether the pieces already begin in order (the blocks were taken oldest first, so nearly always). */
  private static boolean sorted(List<BlockPartial.Piece> pieces) {
    for (int i = 1; i < pieces.size(); i++) {
      if (compare(pieces.get(i - 1).first(), pieces.get(i).first()) > 0) {
        return false;
      }
    }
    return true;
  }

  private static int compare(Series.Point a, Series.Point b) {
    return Cursor.compare(a.time(), a.node(), a.seq(), a.id(), b.time(), b.node(), b.seq(), b.id());
  }

  /** Rate or increase of one series: per step, its increases; then into its group, as {@link SeriesFunctions#apply}. */
  private static void increase(TreeMap<String, SeriesFunctions.Group> groups, SeriesFn f,
      List<BlockPartial.Piece> pieces, long from, long base, int nb) {
    Series s = pieces.get(0).shell();
    boolean delta = s.temporality == 1;
    // Only the steps the pieces touch can hold a value (see SeriesFunctions.apply): every pass
    // below runs over them alone.
    int lo = nb;
    int hi = -1;
    for (BlockPartial.Piece p : pieces) {
      int k = bucket(p.first().time(), f.step(), base);
      lo = Math.min(lo, k);
      hi = Math.max(hi, k);
      for (int j = 0; j < p.steps().length; j++) {
        if (p.sums()[j] != null) {
          lo = Math.min(lo, (int) (p.steps()[j] - base));
          hi = Math.max(hi, (int) (p.steps()[j] - base));
        }
      }
    }
    double[] buckets = new double[nb];
    if (lo <= hi) {
      Arrays.fill(buckets, Math.max(lo, 0), Math.min(hi, nb - 1) + 1, Double.NaN);
    }
    Series.Point prev = null;
    for (BlockPartial.Piece p : pieces) {
      add(buckets, bucket(p.first().time(), f.step(), base), BlockPartial.rateIncrease(p.first(), prev, delta, from));
      for (int j = 0; j < p.steps().length; j++) {
        if (p.sums()[j] != null) {
          add(buckets, (int) (p.steps()[j] - base), p.sums()[j][0]);
        }
      }
      prev = p.last();
    }
    if (f.fn().equals("rate")) {
      for (int k = Math.max(lo, 0), end = Math.min(hi, nb - 1); k <= end; k++) {
        buckets[k] = buckets[k] / (f.step() / 1e9);
      }
    }
    SeriesFunctions.Group g = SeriesFunctions.group(groups, f, s);
    g.add(buckets, f.agg(), lo, hi);
    for (BlockPartial.Piece p : pieces) {
      for (int j = 0; j < p.steps().length; j++) {
        if (p.best()[j] != null) {
          g.exemplar((int) (p.steps()[j] - base), p.best()[j]);
        }
      }
    }
  }

  private static void add(double[] buckets, int k, double inc) {
    buckets[k] = Double.isNaN(buckets[k]) ? inc : buckets[k] + inc;
  }

  private static int bucket(long time, long step, long base) {
    return (int) (Math.floorDiv(time, step) - base);
  }

  /** One histogram's bucket increases into its group (same bounds only), as {@link Quantiles}. */
  private static void quantile(TreeMap<String, SeriesFunctions.Group> groups, SeriesFn f,
      List<BlockPartial.Piece> pieces, long from, long base, int nb) {
    BlockPartial.Piece head = pieces.get(0);
    if (!head.fold()) {
      return;   // the sum half carries no buckets
    }
    Series s = head.shell();
    String name = s.name.substring(0, s.name.length() - ".count".length());
    boolean delta = s.temporality == 1;
    SeriesFunctions.Group g = null;
    BlockPartial.Piece prev = null;
    for (BlockPartial.Piece p : pieces) {
      if (g != null && !Arrays.equals(g.bounds, p.bounds())) {
        g = null;   // another layout: another group
      }
      double[] first = prev == null ? BlockPartial.histIncrease(p.first(), p.head(), null, null, delta, from)
          : BlockPartial.histIncrease(p.first(), p.head(), prev.last(), prev.tail(), delta, from);
      if (first != null) {
        g = group(groups, f, s, name, p.bounds(), g, nb);
        int b = bucket(p.first().time(), f.step(), base);
        merge(g, b, first);
        for (mira.query.result.SeriesResult.Exemplar x : p.first().exemplars()) {
          g.exemplar(b, x);
        }
      }
      for (int j = 0; j < p.steps().length; j++) {
        if (p.sums()[j] != null) {
          g = group(groups, f, s, name, p.bounds(), g, nb);
          int b = (int) (p.steps()[j] - base);
          merge(g, b, p.sums()[j]);
          if (p.best()[j] != null) {
            g.exemplar(b, p.best()[j]);
          }
        }
      }
      prev = p;
    }
  }

  private static SeriesFunctions.Group group(TreeMap<String, SeriesFunctions.Group> groups, SeriesFn f, Series s,
      String name, double[] bounds, SeriesFunctions.Group g, int nb) {
    if (g != null) {
      return g;
    }
    g = SeriesFunctions.group(groups, f, s, name, Arrays.toString(bounds));
    if (g.merged == null) {
      g.merged = new double[nb][];
      g.bounds = bounds;
      g.best = new SeriesResult.Exemplar[nb];
    }
    return g;
  }

  private static void merge(SeriesFunctions.Group g, int b, double[] inc) {
    double[] m = g.merged[b];
    if (m == null) {
      m = g.merged[b] = new double[inc.length];
    }
    for (int k = 0; k < inc.length; k++) {
      m[k] += inc[k];
    }
  }
}
