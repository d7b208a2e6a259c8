package mira.query.series;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mira.query.result.QueryException;
import mira.query.result.Refused;
import mira.query.result.Attribute;
import mira.query.result.SeriesResult;
import mira.query.result.Stats;
import mira.query.doc.SeriesFn;
import mira.query.doc.SeriesQuery;
import mira.query.render.Json;

/**
 * Step functions over collected series: each stored series is cut into buckets of {@code step}
 * on a grid aligned to multiples of the step since the epoch, a function gives one value per
 * bucket, then series are grouped by the {@code group_by} keys and combined bucket by bucket by
 * {@code agg}. A point's time is its bucket's start; a bucket with no value has no point.
 *
 * <p>Increase of a monotonic sum in a bucket is the sum of the increases attributed to the points
 * in it. Delta temporality: a point's value is its increase. Cumulative (or unspecified): a point's
 * increase is its difference from the previous point of the same series, except after a reset,
 * where the value itself is the increase (the counter restarted from zero): the value went down,
 * or {@code start_time_unix_nano} changed (a restarted process). The first point in the window
 * counts whole only if its series started inside the window; otherwise there is nothing before it
 * to take a difference from, and it counts zero. So a cumulative counter that started inside the
 * window and a delta counter of the same traffic give the same increase in every bucket.
 * Rate is increase divided by the step in seconds.
 *
 * <p>Caps apply after grouping: at most {@code max_series} groups (the smallest keys), each with
 * its newest {@code max_points} buckets.
 */
final class SeriesFunctions {
  private SeriesFunctions() {}

  static SeriesResult apply(SeriesSet raw, SeriesQuery q, Stats stats, List<Refused> refused) throws QueryException {
    SeriesFn f = q.fn();
    for (Series s : raw.series()) {
      check(f, s, s.name.equals(q.name()));
    }
    long step = f.step();
    long t0 = f.fromWindow() ? q.from() : Math.floorDiv(q.from(), step) * step;
    int nb = (int) ((q.to() - t0) / step) + 1;
    TreeMap<String, Group> groups = new TreeMap<>();
    if (f.fn().equals("quantile")) {
      return Quantiles.apply(raw, q, t0, nb, stats, refused);
    }
    List<Series> derived = new ArrayList<>();
    for (Series s : raw.series()) {
      if (f.fn().equals("avg") && !s.type.equals("gauge") && !s.type.equals("sum")) {
        derived.add(s);
        continue;
      }
      Columns c = columns(s);
      List<Series.Point> pts = c.points();
      long[] time = c.time();
      long[] start = c.start();
      double[] v = c.value();
      int n = time.length;
      // Only the steps between the series' first and last point can hold a value: a week at a
      // one-minute step is 10,081 steps, of which a series of an hour touches 60, so every pass
      // below runs over those steps alone (the others stay NaN, which is what they would hold).
      int lo = nb;
      int hi = -1;
      for (int i = 0; i < n; i++) {
        int k = (int) ((time[i] - t0) / step);
        lo = Math.min(lo, k);
        hi = Math.max(hi, k);
      }
      double[] buckets = new double[nb];
      if (lo <= hi) {
        java.util.Arrays.fill(buckets, lo, hi + 1, Double.NaN);
      }
      switch (f.fn()) {
        case "rate", "increase" -> {
          increase(time, start, v, s.temporality == 1, q.from(), t0, step, buckets);
          if (f.fn().equals("rate")) {
            for (int k = lo; k <= hi; k++) {
              buckets[k] = buckets[k] / (step / 1e9);
            }
          }
        }
        default -> {
          java.util.Arrays.fill(buckets, Double.NaN);
          reduce(f.fn(), time, v, t0, step, buckets);
        }
      }
      Group g = group(groups, f, s);
      g.add(buckets, f.agg(), lo, hi);
      for (int i = 0; i < n; i++) {
        for (SeriesResult.Exemplar x : pts.get(i).exemplars()) {
          g.exemplar((int) ((time[i] - t0) / step), x);
        }
      }
    }
    if (!derived.isEmpty()) {
      averages(derived, q, t0, nb, groups);
    }
    return results(groups, q, t0, raw.droppedSeries(), stats, refused);
  }

  /** The groups' values per step, capped as the document asks; {@code droppedSeries} before the cap. */
  static SeriesResult results(TreeMap<String, Group> groups, SeriesQuery q, long t0, long droppedSeries, Stats stats,
      List<Refused> refused) {
    SeriesFn f = q.fn();
    long step = f.step();
    List<SeriesResult.Series> out = new ArrayList<>();
    for (Group g : groups.values()) {
      if (out.size() >= q.maxSeries()) {
        droppedSeries++;
        continue;
      }
      out.add(g.result(f.agg(), t0, step, q.maxPoints()));
    }
    return new SeriesResult(out, droppedSeries, stats, refused);
  }

  /**
   * A function that has no meaning for the series' type is a 400 naming both: rate and increase
   * of a gauge or a non-monotonic sum; quantile of a gauge, a sum, or the sum half of a histogram
   * or summary asked for by that name ({@code named}: only the count half, or the histogram's own
   * name, carries the buckets).
   */
  static void check(SeriesFn f, Series s, boolean named) throws QueryException {
    boolean gauge = s.type.equals("gauge");
    boolean sum = s.type.equals("sum");
    switch (f.fn()) {
      case "rate", "increase" -> {
        if (gauge || !s.monotonic) {
          throw new QueryException("fn \"" + f.fn() + "\" has no meaning for " + (gauge ? "the gauge" : "the non-monotonic sum")
              + " \"" + s.name + "\" (it applies to monotonic sums and histogram or summary counts)");
        }
      }
      case "quantile" -> {
        if (gauge || sum) {
          throw new QueryException("fn \"quantile\" has no meaning for the " + (sum && !s.monotonic ? "non-monotonic sum" : s.type) + " \"" + s.name
              + "\" (it applies to histograms, exponential histograms and summaries)");
        }
        if (named && s.name.endsWith(".sum")) {
          throw new QueryException("fn \"quantile\" has no meaning for the sum half \"" + s.name + "\" of the "
              + s.type + " (name the " + s.type + " itself, or its .count half)");
        }
      }
      default -> { }
    }
  }

  /**
   * {@code avg} of histograms, exponential histograms and summaries: per step, the increase of the
   * sum half over the increase of the count half (the mean of the step's observations), with the
   * group's increases added before dividing, so a group's mean weighs every observation alike.
   * Both halves must be read: naming only one is a 400.
   */
  private static void averages(List<Series> derived, SeriesQuery q, long t0, int nb, TreeMap<String, Group> groups)
      throws QueryException {
    SeriesFn f = q.fn();
    Map<String, Series[]> pairs = new LinkedHashMap<>();
    for (Series s : derived) {
      boolean count = s.name.endsWith(".count");
      String base = s.name.substring(0, s.name.length() - (count ? ".count".length() : ".sum".length()));
      String key = base + '\u0000' + s.type + '\u0000' + s.unit + '\u0000' + AttrKey.of(s.resource) + '\u0000'
          + AttrKey.of(s.attributes);
      pairs.computeIfAbsent(key, k -> new Series[2])[count ? 0 : 1] = s;
    }
    for (Series[] p : pairs.values()) {
      if (p[0] == null || p[1] == null) {
        Series one = p[0] == null ? p[1] : p[0];
        throw new QueryException("fn \"avg\" of the " + one.type + " \"" + one.name + "\" is sum / count and needs both"
            + " halves: name the " + one.type + " itself, not one half");
      }
      double[] c = increases(p[0], q.from(), t0, f.step(), nb);
      double[] sm = increases(p[1], q.from(), t0, f.step(), nb);
      String base = p[0].name.substring(0, p[0].name.length() - ".count".length());
      Group g = group(groups, f, p[0], base, "avg");
      if (g.num == null) {
        g.num = new double[nb];
        g.den = new double[nb];
        g.n = new int[nb];
      }
      g.members++;
      for (int k = 0; k < nb; k++) {
        if (!Double.isNaN(c[k]) && !Double.isNaN(sm[k])) {
          g.num[k] += sm[k];
          g.den[k] += c[k];
          g.n[k]++;
        }
      }
    }
  }

  private static double[] increases(Series s, long from, long t0, long step, int nb) {
    Columns c = columns(s);
    double[] buckets = new double[nb];
    java.util.Arrays.fill(buckets, Double.NaN);
    increase(c.time(), c.start(), c.value(), s.temporality == 1, from, t0, step, buckets);
    return buckets;
  }

  /** A series' finished points, and the same as parallel columns: time, start time, value. */
  private record Columns(List<Series.Point> points, long[] time, long[] start, double[] value) {}

  private static Columns columns(Series s) {
    List<Series.Point> pts = s.finish();
    int n = pts.size();
    long[] time = new long[n];
    long[] start = new long[n];
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      Series.Point p = pts.get(i);
      time[i] = p.time();
      start[i] = p.start();
      v[i] = p.value();
    }
    return new Columns(pts, time, start, v);
  }

  /** Per-bucket increase (see the class comment); buckets without a point stay NaN. */
  static void increase(long[] time, long[] start, double[] v, boolean delta, long from, long t0, long step,
      double[] buckets) {
    for (int i = 0; i < time.length; i++) {
      double inc;
      if (Double.isNaN(v[i])) {
        continue;
      } else if (delta) {
        inc = v[i];
      } else if (i == 0 || Double.isNaN(v[i - 1])) {
        inc = start[i] != 0 && start[i] >= from ? v[i] : 0;
      } else if (v[i] < v[i - 1] || (start[i] != start[i - 1] && start[i] != 0)) {
        inc = v[i];
      } else {
        inc = v[i] - v[i - 1];
      }
      int k = (int) ((time[i] - t0) / step);
      buckets[k] = Double.isNaN(buckets[k]) ? inc : buckets[k] + inc;
    }
  }

  /** last, min, max or avg of the points in each bucket. */
  static void reduce(String fn, long[] time, double[] v, long t0, long step, double[] buckets) {
    int nb = buckets.length;
    int[] n = new int[nb];
    for (int i = 0; i < time.length; i++) {
      if (Double.isNaN(v[i])) {
        continue;
      }
      int k = (int) ((time[i] - t0) / step);
      double b = buckets[k];
      buckets[k] = switch (fn) {
        case "min" -> n[k] == 0 ? v[i] : Math.min(b, v[i]);
        case "max" -> n[k] == 0 ? v[i] : Math.max(b, v[i]);
        case "avg" -> n[k] == 0 ? v[i] : b + v[i];
        default -> v[i];   // last: points are oldest first
      };
      n[k]++;
    }
    if (fn.equals("avg")) {
      for (int k = 0; k < nb; k++) {
        buckets[k] = n[k] == 0 ? Double.NaN : buckets[k] / n[k];
      }
    }
  }

  static Group group(TreeMap<String, Group> groups, SeriesFn f, Series s) {
    return group(groups, f, s, s.name, "");
  }

  /** The group of {@code s}, output under {@code name}; {@code extra} splits groups further (histogram bounds). */
  static Group group(TreeMap<String, Group> groups, SeriesFn f, Series s, String name, String extra) {
    String head = name + '\u0000' + s.type + '\u0000' + s.unit + '\u0000' + extra;
    String key;
    List<Attribute> resource;
    List<Attribute> attributes;
    if (f.groupBy() == null) {
      resource = s.resource;
      attributes = s.attributes;
      key = head + '\u0000' + AttrKey.of(resource) + '\u0000' + AttrKey.of(attributes);
    } else {
      resource = List.of();
      attributes = new ArrayList<>(f.groupBy().size());
      for (String k : f.groupBy()) {
        Attribute a = find(s.attributes, k);
        if (a == null) {
          a = find(s.resource, k);
        }
        if (a != null) {
          attributes.add(a);
        }
      }
      key = head + '\u0000' + AttrKey.of(attributes);
    }
    Group g = groups.get(key);
    if (g == null) {
      g = new Group(name, s.type, s.unit, s.description, resource, attributes);
      g.entity = f.groupBy() == null ? s.entity : 0; // a group_by series has no one resource
      groups.put(key, g);
    }
    return g;
  }

  /** The attribute of {@code key} in a list, or null. */
  private static Attribute find(List<Attribute> attrs, String key) {
    for (Attribute a : attrs) {
      if (a.key().equals(key)) {
        return a;
      }
    }
    return null;
  }

  /** One output series: per bucket, the combination so far of its members' values. */
  static final class Group {
    final String name;
    final String type;
    final String unit;
    final String description;
    final List<Attribute> resource;
    final List<Attribute> attributes;
    long entity;
    double[] acc;
    int[] n;
    SeriesResult.Exemplar[] best;
    /** Quantiles: per step, the bucket counts merged across the group's series; the bounds they share. */
    double[][] merged;
    double[] bounds;
    /** Exponential-histogram quantiles: per step, the merged buckets. */
    ExpHist[] mergedExp;
    /** Stored series in the group (summary quantiles, histogram averages). */
    int members;
    /** Histogram averages: per step, the summed increases of the sums and of the counts. */
    double[] num;
    double[] den;

    Group(String name, String type, String unit, String description, List<Attribute> resource,
        List<Attribute> attributes) {
      this.name = name;
      this.type = type;
      this.unit = unit;
      this.description = description;
      this.resource = resource;
      this.attributes = attributes;
    }

    /** Adds the steps {@code [lo, hi]} of {@code b} (those outside hold nothing, NaN). */
    void add(double[] b, String agg, int lo, int hi) {
      if (acc == null) {
        acc = new double[b.length];
        n = new int[b.length];
        best = new SeriesResult.Exemplar[b.length];
      }
      for (int k = Math.max(lo, 0), end = Math.min(hi, b.length - 1); k <= end; k++) {
        double x = b[k];
        if (Double.isNaN(x)) {
          continue;
        }
        acc[k] = n[k] == 0 ? (agg.equals("count") ? 1 : x) : switch (agg) {
          case "min" -> Math.min(acc[k], x);
          case "max" -> Math.max(acc[k], x);
          case "count" -> acc[k] + 1;
          default -> acc[k] + x;   // sum, avg (divided at the end)
        };
        n[k]++;
      }
    }

    /** Keeps, per bucket, the exemplar with the largest value: the one a spike points at. */
    void exemplar(int k, SeriesResult.Exemplar x) {
      if (k < 0 || k >= best.length) {
        return;
      }
      if (best[k] == null || value(x) > value(best[k])) {
        best[k] = x;
      }
    }

    /**
     * The exemplar's value for choosing the largest; NaN and non-numbers rank lowest, so that the
     * choice is the first maximum of a total order and can be made over parts and combined
     * ({@link BlockPartial#merge}) with the answer of one pass.
     */
    static double value(SeriesResult.Exemplar x) {
      double v = x.kind() == SeriesResult.LONG ? x.l() : x.kind() == SeriesResult.DOUBLE ? x.d() : Double.NEGATIVE_INFINITY;
      return Double.isNaN(v) ? Double.NEGATIVE_INFINITY : v;
    }

    SeriesResult.Series result(String agg, long t0, long step, int maxPoints) {
      int have = 0;
      for (int k = 0; k < n.length; k++) {
        have += n[k] > 0 ? 1 : 0;
      }
      int skip = Math.max(0, have - maxPoints);
      List<SeriesResult.Point> pts = new ArrayList<>();
      List<SeriesResult.Exemplar> ex = new ArrayList<>();
      int seen = 0;
      for (int k = 0; k < n.length; k++) {
        if (n[k] == 0 || seen++ < skip) {
          continue;
        }
        double v = num != null ? num[k] / den[k] : agg.equals("avg") ? acc[k] / n[k] : acc[k];
        if (Double.isNaN(v) || Double.isInfinite(v)) {
          continue;   // a histogram average over a step with no observations
        }
        pts.add(new SeriesResult.Point(t0 + k * step, SeriesResult.DOUBLE, 0, v));
        if (best != null && best[k] != null) {
          ex.add(best[k]);
        }
      }
      return new SeriesResult.Series(name, type, unit, description, resource, attributes, pts, ex, skip, null, entity);
    }
  }
}
