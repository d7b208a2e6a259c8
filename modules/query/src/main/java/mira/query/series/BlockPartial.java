package mira.query.series;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
   */
  record Piece(String key, Series shell, Series.Point first, Series.Point last, int count, long[] steps,
      double[][] sums, SeriesResult.Exemplar[] best, double[] bounds, boolean fold) {
    long bytes() {
      long b = 160 + steps.length * 24L;
      for (double[] s : sums) {
        b += s == null ? 0 : 16 + s.length * 8L;
      }
      if (first.counts() != null) {
        b += 2 * (16 + first.counts().length * 8L);
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
          pts.size(), new long[0], new double[0][], new SeriesResult.Exemplar[0], null, false);
      if (p == null) {
        return null;
      }
      out.add(p);
    }
    return out;
  }

  private static String key(Series s) {
    return s.name + '\u0000' + s.type + '\u0000' + s.unit + '\u0000' + AttrKey.of(s.resource) + '\u0000'
        + AttrKey.of(s.attributes);
  }

  private static Piece piece(Series s, List<Series.Point> pts, boolean quantile, long step) {
    boolean delta = s.temporality == 1;
    double[] bounds = null;
    if (quantile) {
      bounds = pts.get(0).bounds();
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
    return new Piece(key(s), s, pts.get(0), pts.get(pts.size() - 1), pts.size(), st, sums.toArray(new double[0][]),
        best.toArray(new SeriesResult.Exemplar[0]), bounds, true);
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
    double[] now = counts(p);
    if (delta) {
      return now;
    }
    if (prev == null || !Arrays.equals(p.bounds(), prev.bounds())) {
      return p.start() != 0 && p.start() >= from ? now : null;
    }
    double[] before = counts(prev);
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
  static SeriesResult.Exemplar better(SeriesResult.Exemplar kept, SeriesResult.Exemplar x) {
    return kept == null || SeriesFunctions.Group.value(x) > SeriesFunctions.Group.value(kept) ? x : kept;
  }
}
