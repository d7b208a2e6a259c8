package mira.query.series;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import mira.query.result.QueryException;
import mira.query.result.Refused;
import mira.query.result.SeriesResult;
import mira.query.result.Stats;
import mira.query.doc.SeriesFn;
import mira.query.doc.SeriesQuery;

/**
 * {@code fn: "quantile"} over explicit-bucket histograms, exponential histograms and summaries.
 * Explicit buckets: per stored series and step, each bucket's
 * increase is taken with the reset rules of {@link SeriesFunctions} (a delta point's counts are
 * its increase; a cumulative point's are the difference from the previous point, or whole after a
 * reset or restart); the increases of a group's series are summed bucket by bucket (only series
 * with the same bounds are merged: differing bounds are separate groups), and the quantile is
 * taken from the merged counts by {@link #quantile}. Exponential buckets merge the same way at the
 * coarsest common scale (see {@link ExpHist}); summaries answer only the quantiles they carry.
 */
final class Quantiles {
  private Quantiles() {}

  static SeriesResult apply(SeriesSet raw, SeriesQuery q, long t0, int nb, Stats stats, List<Refused> refused)
      throws QueryException {
    SeriesFn f = q.fn();
    long step = f.step();
    TreeMap<String, SeriesFunctions.Group> groups = new TreeMap<>();
    SummaryQuantiles summaries = new SummaryQuantiles(f.quantile());
    for (Series s : raw.series()) {
      if (!s.name.endsWith(".count")) {
        continue;   // the .sum half carries no buckets
      }
      String base = s.name.substring(0, s.name.length() - ".count".length());
      switch (s.type) {
        case "summary" -> summaries.add(groups, f, s, base, t0, step, nb);
        case "exponential_histogram" -> exponential(groups, f, s, base, q.from(), t0, step, nb);
        default -> explicit(groups, f, s, base, q.from(), t0, step, nb);
      }
    }
    summaries.check(groups, f);
    return results(groups, q, t0, nb, raw.droppedSeries(), stats, refused);
  }

  /** The groups' quantiles per step, capped as the document asks; {@code droppedSeries} before the cap. */
  static SeriesResult results(TreeMap<String, SeriesFunctions.Group> groups, SeriesQuery q, long t0, int nb,
      long droppedSeries, Stats stats, List<Refused> refused) {
    SeriesFn f = q.fn();
    long step = f.step();
    List<SeriesResult.Series> out = new ArrayList<>();
    for (SeriesFunctions.Group g : groups.values()) {
      if (out.size() >= q.maxSeries()) {
        droppedSeries++;
        continue;
      }
      if (g.acc != null) {
        out.add(g.result(f.agg(), t0, step, q.maxPoints()));   // summaries: the carried quantile, combined by agg
        continue;
      }
      Integer scale = null;
      if (g.mergedExp != null) {
        int coarsest = Integer.MAX_VALUE;
        for (ExpHist h : g.mergedExp) {
          coarsest = h == null ? coarsest : Math.min(coarsest, h.scale());
        }
        scale = coarsest;
      }
      List<SeriesResult.Point> points = new ArrayList<>();
      List<SeriesResult.Exemplar> ex = new ArrayList<>();
      for (int b = 0; b < nb; b++) {
        double v;
        if (g.mergedExp != null) {
          ExpHist.Answer a = g.mergedExp[b] == null ? null : g.mergedExp[b].downscale(scale).quantile(f.quantile());
          v = a == null ? Double.NaN : a.value();
        } else {
          v = g.merged[b] == null ? Double.NaN : quantile(f.quantile(), g.bounds, g.merged[b]);
        }
        if (!Double.isNaN(v)) {
          points.add(new SeriesResult.Point(t0 + b * step, SeriesResult.DOUBLE, 0, v));
          if (g.best[b] != null) {
            ex.add(g.best[b]);
          }
        }
      }
      int skip = Math.max(0, points.size() - q.maxPoints());
      List<SeriesResult.Point> kept = points.subList(skip, points.size());
      long firstKept = kept.isEmpty() ? Long.MAX_VALUE : kept.get(0).time();
      List<SeriesResult.Exemplar> keptEx = new ArrayList<>();
      for (SeriesResult.Exemplar x : ex) {
        if (x.time() >= firstKept - step) {
          keptEx.add(x);
        }
      }
      out.add(new SeriesResult.Series(g.name, g.type, g.unit, g.description, g.resource, g.attributes, kept,
          skip == 0 ? ex : keptEx, skip, g.bounds, g.entity, scale));
    }
    return new SeriesResult(out, droppedSeries, stats, refused);
  }

  /** Explicit buckets: per step, the increases of the group's series with the same bounds, summed. */
  private static void explicit(TreeMap<String, SeriesFunctions.Group> groups, SeriesFn f, Series s, String base,
      long from, long t0, long step, int nb) {
    List<Series.Point> pts = s.finish();
    double[] prevCounts = null;
    long prevStart = 0;
    double[] prevBounds = null;
    // The group depends on the series and the bounds only: found once per layout, not per point.
    double[] groupBounds = null;
    SeriesFunctions.Group g = null;
    for (int i = 0; i < pts.size(); i++) {
      Series.Point p = pts.get(i);
      double[] bounds = p.bounds();
      long[] c = p.counts();
      if (c == null || bounds == null || c.length != bounds.length + 1) {
        prevCounts = null;
        continue;   // a histogram point sent without buckets
      }
      double[] now = new double[c.length];
      for (int k = 0; k < c.length; k++) {
        now[k] = c[k] >= 0 ? c[k] : (double) (c[k] >>> 1) * 2.0 + (c[k] & 1);
      }
      double[] inc;
      if (s.temporality == 1) {
        inc = now;
      } else if (prevCounts == null || !Arrays.equals(bounds, prevBounds)) {
        inc = p.start() != 0 && p.start() >= from ? now : null;
      } else if ((p.start() != prevStart && p.start() != 0) || lower(now, prevCounts)) {
        inc = now;
      } else {
        inc = new double[now.length];
        for (int k = 0; k < now.length; k++) {
          inc[k] = now[k] - prevCounts[k];
        }
      }
      prevCounts = now;
      prevStart = p.start();
      prevBounds = bounds;
      if (inc == null) {
        continue;
      }
      if (g == null || !Arrays.equals(bounds, groupBounds)) {
        g = SeriesFunctions.group(groups, f, s, base, Arrays.toString(bounds));
        groupBounds = bounds;
      }
      if (g.merged == null) {
        g.merged = new double[nb][];
        g.bounds = bounds;
        g.best = new SeriesResult.Exemplar[nb];
      }
      int b = (int) ((p.time() - t0) / step);
      double[] m = g.merged[b];
      if (m == null) {
        m = g.merged[b] = new double[inc.length];
      }
      for (int k = 0; k < inc.length; k++) {
        m[k] += inc[k];
      }
      for (SeriesResult.Exemplar x : p.exemplars()) {
        g.exemplar(b, x);
      }
    }
  }

  /**
   * Exponential buckets: per step, the increases of the group's series (whatever their scales),
   * summed at the coarsest scale of the two sides of each sum. A cumulative series' increase is
   * its counts minus the previous point's at the coarser of the two scales (an SDK lowers the
   * scale of a cumulative histogram as its range grows); a lower total or a new start time is a
   * reset, as for explicit buckets.
   */
  private static void exponential(TreeMap<String, SeriesFunctions.Group> groups, SeriesFn f, Series s, String base,
      long from, long t0, long step, int nb) {
    List<Series.Point> pts = s.finish();
    ExpHist prev = null;
    long prevStart = 0;
    SeriesFunctions.Group g = null;   // one group for every point of the series
    for (Series.Point p : pts) {
      ExpHist now = p.exp();
      if (now == null) {
        prev = null;
        continue;
      }
      ExpHist inc;
      if (s.temporality == 1) {
        inc = now;
      } else if (prev == null) {
        inc = p.start() != 0 && p.start() >= from ? now : null;
      } else if ((p.start() != prevStart && p.start() != 0) || now.total() < prev.total()) {
        inc = now;
      } else {
        inc = now.plus(prev, -1);
      }
      prev = now;
      prevStart = p.start();
      if (inc == null) {
        continue;
      }
      if (g == null) {
        g = SeriesFunctions.group(groups, f, s, base, "exponential");
      }
      if (g.mergedExp == null) {
        g.mergedExp = new ExpHist[nb];
        g.best = new SeriesResult.Exemplar[nb];
      }
      int b = (int) ((p.time() - t0) / step);
      g.mergedExp[b] = g.mergedExp[b] == null ? inc : g.mergedExp[b].plus(inc, 1);
      for (SeriesResult.Exemplar x : p.exemplars()) {
        g.exemplar(b, x);
      }
    }
  }

  /**
   * Summaries carry their quantiles ready-made, so only those can be answered: per stored series
   * and step, the value at the asked quantile of the step's last point that carries it. The
   * quantiles of different series cannot be merged into a fleet quantile; a group of several is
   * combined by {@code agg} only when it is {@code min}, {@code max} or {@code avg}.
   */
  private static final class SummaryQuantiles {
    private final double q;
    private final java.util.TreeSet<Double> carried = new java.util.TreeSet<>();
    private String name;
    private boolean any;

    SummaryQuantiles(double q) {
      this.q = q;
    }

    void add(TreeMap<String, SeriesFunctions.Group> groups, SeriesFn f, Series s, String base, long t0, long step,
        int nb) {
      name = base;
      double[] buckets = new double[nb];
      Arrays.fill(buckets, Double.NaN);
      boolean has = false;
      for (Series.Point p : s.finish()) {
        Shapes.Summary sm = p.summary();
        if (sm == null) {
          continue;
        }
        for (int k = 0; k < sm.quantiles().length; k++) {
          carried.add(sm.quantiles()[k]);
          if (Math.abs(sm.quantiles()[k] - q) <= 1e-9) {
            buckets[(int) ((p.time() - t0) / step)] = sm.values()[k];
            has = true;
          }
        }
      }
      if (!has) {
        return;
      }
      any = true;
      SeriesFunctions.Group g = SeriesFunctions.group(groups, f, s, base, "summary");
      g.members++;
      g.add(buckets, f.agg(), 0, buckets.length - 1);
    }

    /** A quantile no summary carries is a 400 naming those they do; so is a sum or count of several. */
    void check(TreeMap<String, SeriesFunctions.Group> groups, SeriesFn f) throws QueryException {
      if (name != null && !any) {
        StringBuilder b = new StringBuilder();
        for (double c : carried) {
          b.append(b.isEmpty() ? "" : ", ").append(c);
        }
        throw new QueryException("quantile: the summary \"" + name + "\" carries " + (b.isEmpty() ? "no quantiles"
            : "only the quantiles " + b) + " in the window, not " + q + " (a summary's quantiles are computed by its sender and cannot be derived)");
      }
      if (f.agg().equals("min") || f.agg().equals("max") || f.agg().equals("avg")) {
        return;
      }
      for (SeriesFunctions.Group g : groups.values()) {
        if (g.members > 1) {
          throw new QueryException("agg: \"" + f.agg() + "\" of the quantiles of " + g.members + " series of the summary \""
              + g.name + "\" has no meaning (summary quantiles do not merge); use agg min, max or avg, or group_by keys that leave one series per group");
        }
      }
    }
  }

  static boolean lower(double[] now, double[] prev) {
    double a = 0;
    double b = 0;
    for (int k = 0; k < now.length; k++) {
      a += now[k];
      b += prev[k];
    }
    return a < b;
  }

  /**
   * The {@code q}-quantile of explicit-bucket counts, as Prometheus's {@code histogram_quantile}:
   * with {@code n} bounds {@code b[0] < ... < b[n-1]} and {@code n + 1} counts (the last the +Inf
   * bucket), the rank is {@code q * total}; the answer lies in the first finite bucket {@code i}
   * whose cumulative count reaches the rank, linearly interpolated between its lower bound
   * ({@code b[i-1]}, or 0 for the first bucket when {@code b[0] > 0}, else {@code b[0]}) and
   * {@code b[i]}: {@code lower + (b[i] - lower) * (rank - cum[i-1]) / count[i]}. If only the +Inf
   * bucket reaches the rank, the answer is {@code b[n-1]}, the largest finite bound. Empty buckets
   * never answer (so {@code q = 0} gives the lower bound of the first non-empty one). NaN when the
   * counts sum to zero (an empty window) or there are no finite bounds.
   */
  static double quantile(double q, double[] bounds, double[] counts) {
    int n = bounds.length;
    double total = 0;
    for (double c : counts) {
      total += c;
    }
    if (n == 0 || total <= 0) {
      return Double.NaN;
    }
    double rank = q * total;
    double cum = 0;
    for (int i = 0; i < n; i++) {
      double before = cum;
      cum += counts[i];
      if (cum >= rank && counts[i] > 0) {
        double lower = i > 0 ? bounds[i - 1] : (bounds[0] > 0 ? 0 : bounds[0]);
        if (i == 0 && bounds[0] <= 0) {
          return bounds[0];
        }
        return lower + (bounds[i] - lower) * (rank - before) / counts[i];
      }
    }
    return bounds[n - 1];
  }
}
