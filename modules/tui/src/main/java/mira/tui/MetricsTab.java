package mira.tui;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import mira.query.result.Attribute;
import mira.query.result.MetricList;
import mira.query.result.SeriesResult;

/**
 * The metrics tab: the metrics with a point in the window (name, type, unit), and the series of
 * the selected one drawn as a {@link Chart}, one series at a time. The series document is the
 * API's: no function gives the raw points; a function ({@code s} cycles them) buckets them by a
 * step chosen from the chart's width, {@code p} cycles the quantile, {@code b} sets group_by.
 */
final class MetricsTab {
  /** The functions {@code s} cycles through; null is the raw points. */
  static final List<String> FNS = java.util.Arrays.asList(null, "rate", "increase", "avg", "min", "max", "last", "quantile");
  static final List<Double> QUANTILES = List.of(0.5, 0.9, 0.95, 0.99);
  /** Bucket widths a step is rounded up to. */
  static final long[] STEPS_S = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400};

  List<MetricList.Metric> metrics = List.of();
  int selected;
  int top;
  SeriesResult series;
  int seriesIndex;
  int fn;
  int quantile = 3;
  /** group_by keys; empty for none. */
  List<String> groupBy = List.of();
  /** The step of the last series query, or null for raw points. */
  String step;

  MetricList.Metric current() {
    return metrics.isEmpty() ? null : metrics.get(selected);
  }

  String fnName() {
    return FNS.get(fn);
  }

  void cycleFn() {
    fn = (fn + 1) % FNS.size();
  }

  void cycleQuantile() {
    quantile = (quantile + 1) % QUANTILES.size();
    fn = FNS.indexOf("quantile");
  }

  void move(int delta) {
    if (!metrics.isEmpty()) {
      selected = Math.clamp((long) selected + delta, 0, metrics.size() - 1);
      seriesIndex = 0;
    }
  }

  void cycleSeries(int delta) {
    if (series != null && !series.series().isEmpty()) {
      seriesIndex = Math.floorMod(seriesIndex + delta, series.series().size());
    }
  }

  /** The step for a window of {@code windowNs} drawn over {@code dots} points: the window / dots, rounded up to a usual width. */
  static String step(long windowNs, int dots) {
    long want = Math.max(1, windowNs / Math.max(1, dots) / 1_000_000_000L);
    for (long s : STEPS_S) {
      if (s >= want) {
        return spell(s);
      }
    }
    return spell(86400);
  }

  private static String spell(long s) {
    return s % 86400 == 0 ? s / 86400 + "d" : s % 3600 == 0 ? s / 3600 + "h" : s % 60 == 0 ? s / 60 + "m" : s + "s";
  }

  /** The series document for the selected metric: {@code from}/{@code to} time strings, {@code q} filter text. */
  byte[] document(String from, String to, String q, long windowNs, int chartDots) {
    StringBuilder d = new StringBuilder("{\"name\":").append(View.quote(current().name())).append(",\"from\":")
        .append(View.quote(from)).append(",\"to\":").append(View.quote(to)).append(",\"max_series\":50,\"max_points\":2000");
    if (!q.isBlank()) {
      d.append(",\"q\":").append(View.quote(q));
    }
    step = null;
    if (fnName() != null) {
      step = step(windowNs, chartDots);
      d.append(",\"step\":\"").append(step).append("\",\"fn\":\"").append(fnName()).append('"');
      if (fnName().equals("quantile")) {
        d.append(",\"quantile\":").append(QUANTILES.get(quantile));
      }
      if (!groupBy.isEmpty()) {
        d.append(",\"group_by\":[");
        for (int i = 0; i < groupBy.size(); i++) {
          d.append(i == 0 ? "" : ",").append(View.quote(groupBy.get(i)));
        }
        d.append(']');
      }
    }
    return d.append('}').toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The tab's body: the metric list on top, the chart of the selected series under it. */
  List<String> draw(int w, int h, long from, long to) {
    List<String> out = new ArrayList<>(h);
    if (metrics.isEmpty()) {
      out.add(Text.style(Text.DIM, "  no metrics with a point in this window"));
      return out;
    }
    int listH = Math.clamp(metrics.size(), 1, Math.max(1, h / 3));
    if (selected < top) {
      top = selected;
    } else if (selected >= top + listH) {
      top = selected - listH + 1;
    }
    for (int i = top; i < Math.min(metrics.size(), top + listH); i++) {
      MetricList.Metric m = metrics.get(i);
      String line = Text.fit(Text.safe(m.name()), Math.max(10, w - 34)) + " " + Text.fit(Text.style(Text.CYAN, m.type()), 22)
          + " " + Text.fit(Text.safe(m.unit()), 10);
      out.add(i == selected ? Text.REVERSE + Text.fit(View.stripStyles(line), w) + Text.RESET : line);
    }
    out.add(Text.style(Text.DIM, Text.fit("── " + settings() + " ", w)));
    int chartH = h - out.size() - 1;
    if (series == null || chartH < 2) {
      return out;
    }
    if (series.series().isEmpty()) {
      out.add(Text.style(Text.DIM, "  no series of " + Text.safe(current().name()) + " in this window"));
      return out;
    }
    SeriesResult.Series s = series.series().get(Math.min(seriesIndex, series.series().size() - 1));
    out.add(Text.style(Text.BOLD, Text.safe(label(s))) + Text.style(Text.DIM, "  " + (seriesIndex + 1) + "/"
        + series.series().size() + (series.series().size() > 1 ? " ([ ] other series)" : "") + "  " + Text.safe(s.unit())));
    long[] times = new long[s.points().size()];
    double[] values = new double[times.length];
    for (int i = 0; i < times.length; i++) {
      SeriesResult.Point p = s.points().get(i);
      times[i] = p.time();
      values[i] = value(p);
    }
    long join = step == null ? rawJoin(times) : (long) (1.5 * mira.query.doc.Times.duration(step));
    out.addAll(Chart.draw(times, values, from, to, join, w, chartH));
    return out;
  }

  String settings() {
    String f = fnName() == null ? "raw points (s: function)" : "fn " + fnName()
        + (fnName().equals("quantile") ? " " + QUANTILES.get(quantile) : "") + "  step " + step;
    String g = groupBy.isEmpty() ? "" : "  group_by " + String.join(",", groupBy) + (fnName() == null ? " (needs a function)" : "");
    return f + g;
  }

  static String label(SeriesResult.Series s) {
    StringBuilder b = new StringBuilder(s.name());
    List<Attribute> shown = new ArrayList<>(s.attributes());
    for (Attribute a : s.resource()) {
      if (a.key().equals("service.name")) {
        shown.addFirst(a);
      }
    }
    if (!shown.isEmpty()) {
      b.append(" {");
      for (int i = 0; i < shown.size(); i++) {
        b.append(i == 0 ? "" : ", ").append(shown.get(i).key()).append('=').append(View.body(shown.get(i).value()));
      }
      b.append('}');
    }
    return b.toString();
  }

  /**
   * How far apart raw points may be and still be joined: three times their median spacing, so a
   * reporter that stopped for a while leaves a gap rather than a straight line across it; 0 (join
   * all) with fewer than three points.
   */
  static long rawJoin(long[] times) {
    if (times.length < 3) {
      return 0;
    }
    long[] d = new long[times.length - 1];
    for (int i = 1; i < times.length; i++) {
      d[i - 1] = times[i] - times[i - 1];
    }
    java.util.Arrays.sort(d);
    return 3 * Math.max(1, d[d.length / 2]);
  }

  static double value(SeriesResult.Point p) {
    return switch (p.kind()) {
      case SeriesResult.LONG -> p.l();
      case SeriesResult.UNSIGNED -> p.l() >= 0 ? p.l() : p.l() + 0x1p64;
      case SeriesResult.DOUBLE -> p.d();
      default -> Double.NaN;
    };
  }
}
