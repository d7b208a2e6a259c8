package mira.tui;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * A series drawn in braille: each cell holds 2 × 4 dots, so a chart of {@code c} columns and
 * {@code r} rows has {@code 2c × 4r} points of resolution. Consecutive values are joined by a line
 * unless a missing value (NaN, a point with no value) or a gap in time longer than {@code join}
 * lies between them. The scale is printed: the largest value on the top row, the smallest on the
 * bottom one, and the window's ends under the time axis. A flat series is drawn across the middle,
 * the labels a tenth of its value above and below it (1 for a flat zero); a single point is one dot.
 */
final class Chart {
  private Chart() {}

  private static final DateTimeFormatter HMS = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("MM-dd HH:mm").withZone(ZoneOffset.UTC);
  /** Dot bits of a braille cell, by [column][row] within the cell (Unicode's numbering). */
  private static final int[][] DOT = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};

  /**
   * The chart as {@code h} lines of at most {@code w} columns (the last one the time axis).
   *
   * @param times ns since the epoch, ascending
   * @param values the value at each time; NaN for none
   * @param from the window's start, ns
   * @param to the window's end, ns
   * @param join the longest time between two points that are still joined by a line, ns; 0 joins
   *     every pair of neighbours with values
   */
  static List<String> draw(long[] times, double[] values, long from, long to, long join, int w, int h) {
    List<String> out = new ArrayList<>(h);
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (double v : values) {
      if (Double.isFinite(v)) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
    if (lo > hi) {
      out.add(Text.style(Text.DIM, "  no values in this window"));
      return out;
    }
    boolean flat = lo == hi;
    if (flat) {
      double d = lo == 0 ? 1 : Math.abs(lo) * 0.1;
      lo -= d;
      hi += d;
    }
    String top = number(hi);
    String bottom = number(lo);
    int gutter = Math.max(top.length(), bottom.length());
    int rows = Math.max(1, h - 1);
    int cols = Math.max(4, w - gutter - 1);
    int dotsX = cols * 2;
    int dotsY = rows * 4;
    int[][] cells = new int[rows][cols];
    long span = Math.max(1, to - from);
    int px = -1;
    int py = -1;
    long pt = 0;
    for (int i = 0; i < times.length; i++) {
      double v = values[i];
      if (!Double.isFinite(v)) {
        px = -1;
        continue;
      }
      int x = (int) Math.clamp(Math.round((double) (times[i] - from) * (dotsX - 1) / span), 0, dotsX - 1);
      int y = (int) Math.clamp(Math.round((v - lo) * (dotsY - 1) / (hi - lo)), 0, dotsY - 1);
      if (px >= 0 && (join <= 0 || times[i] - pt <= join)) {
        line(cells, px, py, x, y, dotsY);
      } else {
        dot(cells, x, y, dotsY);
      }
      px = x;
      py = y;
      pt = times[i];
    }
    for (int r = 0; r < rows; r++) {
      String label = r == 0 ? top : r == rows - 1 ? bottom : "";
      StringBuilder b = new StringBuilder(w);
      b.append(Text.style(Text.DIM, " ".repeat(gutter - label.length()) + label + (label.isEmpty() ? "│" : "┤")));
      for (int c = 0; c < cols; c++) {
        b.append(cells[r][c] == 0 ? ' ' : (char) (0x2800 + cells[r][c]));
      }
      out.add(b.toString());
    }
    DateTimeFormatter f = to - from > 86_400_000_000_000L ? DAY : HMS;
    String left = f.format(instant(from));
    String right = f.format(instant(to));
    int room = cols - left.length() - right.length();
    out.add(Text.style(Text.DIM, " ".repeat(gutter) + "└" + left + (room > 0 ? "─".repeat(room) : " ") + right));
    return out;
  }

  private static void dot(int[][] cells, int x, int y, int dotsY) {
    int fromTop = dotsY - 1 - y;
    cells[fromTop / 4][x / 2] |= DOT[x % 2][fromTop % 4];
  }

  /** The dots from (x0, y0) to (x1, y1), both ends included, by linear steps along the longer axis. */
  private static void line(int[][] cells, int x0, int y0, int x1, int y1, int dotsY) {
    int n = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0));
    for (int k = 0; k <= n; k++) {
      int x = n == 0 ? x0 : x0 + Math.round((float) (x1 - x0) * k / n);
      int y = n == 0 ? y0 : y0 + Math.round((float) (y1 - y0) * k / n);
      dot(cells, x, y, dotsY);
    }
  }

  /** A value as a label: integers whole, others with about four significant digits. */
  static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    double a = Math.abs(v);
    if (a >= 1e6 || a < 1e-3) {
      return String.format(java.util.Locale.ROOT, "%.3g", v);
    }
    String s = String.format(java.util.Locale.ROOT, a >= 100 ? "%.1f" : a >= 1 ? "%.3f" : "%.4f", v);
    s = s.replaceAll("0+$", "");
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }

  private static Instant instant(long ns) {
    return View.instant(ns);
  }
}
