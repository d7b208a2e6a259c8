package mira.query.series;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mira.query.doc.Cursor;
import mira.query.result.SeriesResult;

/**
 * What one block gives a stepped {@code rate}, {@code increase} or explicit-bucket
 * {@code quantile}, per stored series, so that a block is read once and later answers combine
 * these few numbers instead of its points.
 *
 * <p>A series' increase at a point depends on the point before it, which for the first point of
 * the block lies in another block (or before the window). So each series keeps its first point
 * raw, the increases of its other points already summed per step (on the grid of multiples of
 * the step since the epoch), and its last point raw; {@link SteppedScan} takes the first point's
 * increase once the series' previous block is known. Everything else is the same arithmetic as
 * {@link SeriesFunctions#increase} and {@link Quantiles}, on the same points in the same order.
 *
 * <p>A block whose series do not fold this way is {@link #foldable() not foldable} and the query
 * takes the path that gathers every point: a series over the block's caps, a point without a
 * value or without buckets (the next point's increase would then depend on the window), bucket
 * bounds that change within a series, exponential histograms and summaries.
 */
final class BlockPartial {
  /** A block whose series cannot be folded per block. */
  static final BlockPartial UNFOLDABLE = new BlockPartial(false, List.of(), List.of(), 0, 0, Long.MAX_VALUE,
      Long.MIN_VALUE);

  private final boolean foldable;
  final List<Piece> exact;
  final List<Piece> suffix;
  /** Points in the block's point tables, and how many of them the query took. */
  final long points;
  final long matched;
  /** The times of the points taken: a window holding both takes all of them. */
  final long minTime;
  final long maxTime;

  private BlockPartial(boolean foldable, List<Piece> exact, List<Piece> suffix, long points, long matched,
      long minTime, long maxTime) {
    this.foldable = foldable;
    this.exact = exact;
    this.suffix = suffix;
    this.points = points;
    this.matched = matched;
    this.minTime = minTime;
    this.maxTime = maxTime;
  }

  boolean foldable() {
    return foldable;
  }

  /** Whether a window {@code [from, to]} takes exactly the points this partial was made from. */
  boolean wholeIn(long from, long to) {
    return matched == 0 || (minTime >= from && maxTime <= to);
  }

  /** An estimate of the heap held, for {@link SeriesPartials}' budget. */
  long bytes() {
    long b = 96;
    for (List<Piece> l : List.of(exact, suffix)) {
      for (Piece p : l) {
        b += p.bytes();
      }
    }
    return b;
  }

  /**
   * One stored series in one block.
   *
   * @param key the series' key in {@link SeriesSet} (name, type, unit, resource, attributes)
   * @param shell the series as the block collected it, for its identity; its points are not used
   * @param first the oldest point, raw
   * @param last the newest point, raw
   * @param count how many points
   * @param steps absolute step indexes ({@code floorDiv(time, step)}), ascending
   * @param sums per step, the summed increases of the points after the first (one value for a
   *     number, one per bucket for a histogram); null for a step only the first point falls in
   * @param best per step, the first exemplar of largest value among those offered (a quantile offers
   *     the first point's separately: whether it counts is known only when combined)
   * @param bounds a histogram's bucket bounds (the same for every point); null for numbers
   * @param fold whether the series' points are folded (false: the sum half of a histogram asked
   *     for a quantile, kept only so that the refusal can name it)
   * @param head the first point's bucket counts as the fold adds them (null for numbers), made once
   *     rather than per query: converting them was 40 % of a quantile's fold
   * @param tail the same of the last point
   */
  record Piece(String key, Series shell, Series.Point first, Series.Point last, int count, long[] steps,
      double[][] sums, SeriesResult.Exemplar[] best, double[] bounds, boolean fold, double[] head, double[] tail) {
    long bytes() {
      long b = 176 + steps.length * 24L;
      for (double[] s : sums) {
        b += s == null ? 0 : 16 + s.length * 8L;
      }
      if (first.counts() != null) {
        b += 4 * (16 + first.counts().length * 8L);
      }
      return b;
    }
  }

  /**
   * Folds a block's collected series: {@code quantile} true for explicit-bucket quantiles (the
   * {@code .count} halves of histograms), false for rate and increase (every series' values).
   */
  static BlockPartial of(SeriesSet exact, SeriesSet suffix, boolean quantile, long step, long points,
      long matched) {
    long[] times = {Long.MAX_VALUE, Long.MIN_VALUE};
    List<Piece> e = pieces(exact, quantile, step, times);
    List<Piece> s = e == null ? null : pieces(suffix, quantile, step, times);
    if (s == null || exact.droppedSeries() > 0 || suffix.droppedSeries() > 0) {
      return UNFOLDABLE;
    }
    return new BlockPartial(true, e, s, points, matched, times[0], times[1]);
  }

  private static List<Piece> pieces(SeriesSet set, boolean quantile, long step, long[] times) {
    List<Piece> out = new ArrayList<>(set.size());
    for (Series s : set.series()) {
      if (s.dropped() > 0) {
        return null;
      }
      List<Series.Point> pts = s.finish();
      if (pts.isEmpty()) {
        continue;
      }
      times[0] = Math.min(times[0], pts.get(0).time());
      times[1] = Math.max(times[1], pts.get(pts.size() - 1).time());
      boolean fold = !quantile || s.name.endsWith(".count");
      if (quantile && fold && !s.type.equals("histogram")) {
        return null;   // exponential histograms and summaries merge otherwise
      }
      Piece p = fold ? piece(s, pts, quantile, step) : new Piece(key(s), s, pts.get(0), pts.get(pts.size() - 1),
          pts.size(), new long[0], new double[0][], new SeriesResult.Exemplar[0], null, false, null, null);
      if (p == null) {
        return null;
      }
      out.add(p);
    }
    return out;
  }

  /**
   * The series' key, interned: the same series in every block then holds one string, so grouping
   * the pieces of a query compares references rather than a kilobyte of resource attributes per
   * piece (15 of 60 ms for 34,000 pieces before).
   */
  private static String key(Series s) {
    return (s.name + '\u0000' + s.type + '\u0000' + s.unit + '\u0000' + AttrKey.of(s.resource) + '\u0000'
        + AttrKey.of(s.attributes)).intern();
  }

  private static Piece piece(Series s, List<Series.Point> pts, boolean quantile, long step) {
    boolean delta = s.temporality == 1;
    double[] bounds = null;
    if (quantile) {
      bounds = Bounds.canonical(pts.get(0).bounds());
      for (Series.Point p : pts) {
        if (!buckets(p) || !Arrays.equals(p.bounds(), bounds)) {
          return null;
        }
      }
    } else {
      for (Series.Point p : pts) {
        if (Double.isNaN(p.value())) {
          return null;
        }
      }
    }
    List<Long> steps = new ArrayList<>();
    List<double[]> sums = new ArrayList<>();
    List<SeriesResult.Exemplar> best = new ArrayList<>();
    for (int i = 0; i < pts.size(); i++) {
      Series.Point p = pts.get(i);
      long k = Math.floorDiv(p.time(), step);
      int at = steps.size() - 1;
      if (at < 0 || steps.get(at) != k) {
        steps.add(k);
        sums.add(null);
        best.add(null);
        at++;
      }
      if (i > 0) {
        double[] inc = quantile ? histIncrease(p, pts.get(i - 1), delta, 0)
            : new double[] {rateIncrease(p, pts.get(i - 1), delta, 0)};
        double[] acc = sums.get(at);
        if (acc == null) {
          sums.set(at, inc.clone());
        } else {
          for (int j = 0; j < acc.length; j++) {
            acc[j] += inc[j];
          }
        }
      }
      if (i > 0 || !quantile) {
        for (SeriesResult.Exemplar x : p.exemplars()) {
          best.set(at, better(best.get(at), x));
        }
      }
    }
    long[] st = new long[steps.size()];
    for (int i = 0; i < st.length; i++) {
      st[i] = steps.get(i);
    }
    Series.Point first = pts.get(0);
    Series.Point last = pts.get(pts.size() - 1);
    return new Piece(key(s), s, first, last, pts.size(), st, sums.toArray(new double[0][]),
        best.toArray(new SeriesResult.Exemplar[0]), bounds, true, quantile ? counts(first) : null,
        quantile ? counts(last) : null);
  }

  /** Whether a histogram point carries buckets its bounds fit. */
  private static boolean buckets(Series.Point p) {
    return p.counts() != null && p.bounds() != null && p.counts().length == p.bounds().length + 1;
  }

  /**
   * A number's increase at {@code p} after {@code prev} (null: nothing before it in the window), by
   * the rules of {@link SeriesFunctions#increase}.
   */
  static double rateIncrease(Series.Point p, Series.Point prev, boolean delta, long from) {
    double v = p.value();
    if (delta) {
      return v;
    }
    if (prev == null) {
      return p.start() != 0 && p.start() >= from ? v : 0;
    }
    double before = prev.value();
    if (v < before || (p.start() != prev.start() && p.start() != 0)) {
      return v;
    }
    return v - before;
  }

  /**
   * A histogram's bucket increases at {@code p} after {@code prev} (null: nothing before it in the
   * window), by the rules of {@link Quantiles}; null when the point counts nothing (the first in
   * the window of a series that started before it).
   */
  static double[] histIncrease(Series.Point p, Series.Point prev, boolean delta, long from) {
    return histIncrease(p, counts(p), prev, prev == null ? null : counts(prev), delta, from);
  }

  /**
   * As {@link #histIncrease(Series.Point, Series.Point, boolean, long)} with the points' counts
   * already converted ({@link Piece#head}, {@link Piece#tail}); the answer may be {@code now}
   * itself, which the caller only reads.
   */
  static double[] histIncrease(Series.Point p, double[] now, Series.Point prev, double[] before, boolean delta,
      long from) {
    if (delta) {
      return now;
    }
    if (prev == null || !Arrays.equals(p.bounds(), prev.bounds())) {
      return p.start() != 0 && p.start() >= from ? now : null;
    }
    if ((p.start() != prev.start() && p.start() != 0) || Quantiles.lower(now, before)) {
      return now;
    }
    double[] inc = new double[now.length];
    for (int k = 0; k < now.length; k++) {
      inc[k] = now[k] - before[k];
    }
    return inc;
  }

  private static double[] counts(Series.Point p) {
    long[] c = p.counts();
    double[] now = new double[c.length];
    for (int k = 0; k < c.length; k++) {
      now[k] = c[k] >= 0 ? c[k] : (double) (c[k] >>> 1) * 2.0 + (c[k] & 1);
    }
    return now;
  }

  /** The exemplar a step keeps: the first of largest value (as {@link SeriesFunctions.Group#exemplar}). */
  /**
   * The partial of consecutive blocks, oldest first, as if they were one: each series' pieces
   * joined, the increase of a later piece's first point after the earlier piece's last added at
   * its step (the previous point is then known, so the window no longer matters), exemplars chosen
   * in the order the fold would offer them. Null if a series' pieces overlap in time or change
   * bucket layout between the blocks, or a block does not fold: the blocks are then combined one
   * by one, as before.
   */
  static BlockPartial merge(List<BlockPartial> parts, boolean quantile, long step) {
    Map<String, Piece> exact = new HashMap<>();
    Map<String, Piece> suffix = new HashMap<>();
    long points = 0;
    long matched = 0;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (BlockPartial p : parts) {
      if (!p.foldable || !join(exact, p.exact, quantile, step) || !join(suffix, p.suffix, quantile, step)) {
        return null;
      }
      points += p.points;
      matched += p.matched;
      min = Math.min(min, p.minTime);
      max = Math.max(max, p.maxTime);
    }
    return new BlockPartial(true, new ArrayList<>(exact.values()), new ArrayList<>(suffix.values()), points, matched,
        min, max);
  }

  private static boolean join(Map<String, Piece> into, List<Piece> later, boolean quantile, long step) {
    for (Piece b : later) {
      Piece a = into.get(b.key());
      if (a == null) {
        into.put(b.key(), b);
        continue;
      }
      Piece ab = join(a, b, quantile, step);
      if (ab == null) {
        return false;
      }
      into.put(b.key(), ab);
    }
    return true;
  }

  /** Piece {@code a} followed by piece {@code b} of the same series, or null if they cannot be joined. */
  private static Piece join(Piece a, Piece b, boolean quantile, long step) {
    Series.Point al = a.last();
    Series.Point bf = b.first();
    if (a.fold() != b.fold()
        || Cursor.compare(al.time(), al.node(), al.seq(), al.id(), bf.time(), bf.node(), bf.seq(), bf.id()) >= 0) {
      return null;
    }
    if (!a.fold()) {
      return new Piece(a.key(), a.shell(), a.first(), b.last(), a.count() + b.count(), a.steps(), a.sums(), a.best(),
          null, false, null, null);
    }
    if (quantile && a.bounds() != b.bounds() && !Arrays.equals(a.bounds(), b.bounds())) {
      return null;
    }
    boolean delta = a.shell().temporality == 1;
    double[] inc = quantile ? histIncrease(bf, b.head(), al, a.tail(), delta, 0)
        : new double[] {rateIncrease(bf, al, delta, 0)};
    long at = Math.floorDiv(bf.time(), step);
    long[] steps = union(a.steps(), b.steps());
    double[][] sums = new double[steps.length][];
    SeriesResult.Exemplar[] best = new SeriesResult.Exemplar[steps.length];
    int i = 0;
    int j = 0;
    for (int k = 0; k < steps.length; k++) {
      double[] sum = null;
      SeriesResult.Exemplar x = null;
      if (i < a.steps().length && a.steps()[i] == steps[k]) {
        sum = add(sum, a.sums()[i]);
        x = a.best()[i];
        i++;
      }
      if (steps[k] == at) {
        sum = add(sum, inc);
        if (quantile) {
          for (SeriesResult.Exemplar e : bf.exemplars()) {
            x = better(x, e);
          }
        }
      }
      if (j < b.steps().length && b.steps()[j] == steps[k]) {
        sum = add(sum, b.sums()[j]);
        if (b.best()[j] != null) {
          x = better(x, b.best()[j]);
        }
        j++;
      }
      sums[k] = sum;
      best[k] = x;
    }
    return new Piece(a.key(), a.shell(), a.first(), b.last(), a.count() + b.count(), steps, sums, best, a.bounds(),
        true, a.head(), b.tail());
  }

  private static long[] union(long[] a, long[] b) {
    int n = a.length > 0 && b.length > 0 && a[a.length - 1] == b[0] ? a.length + b.length - 1 : a.length + b.length;
    long[] u = Arrays.copyOf(a, n);
    System.arraycopy(b, a.length + b.length - n, u, a.length, n - a.length);
    return u;
  }

  /** {@code sum} plus {@code more} into a new array (null stands for nothing yet). */
  private static double[] add(double[] sum, double[] more) {
    if (more == null) {
      return sum;
    }
    if (sum == null) {
      return more.clone();
    }
    for (int k = 0; k < sum.length; k++) {
      sum[k] += more[k];
    }
    return sum;
  }

  static SeriesResult.Exemplar better(SeriesResult.Exemplar kept, SeriesResult.Exemplar x) {
    return kept == null || SeriesFunctions.Group.value(x) > SeriesFunctions.Group.value(kept) ? x : kept;
  }
}
