package mira.alert;

import java.io.IOException;
import mira.query.LocalQueries;
import mira.query.doc.SeriesQuery;
import mira.query.result.BusyException;
import mira.query.result.QueryException;
import mira.query.result.SearchResult;
import mira.query.result.SeriesResult;

/**
 * One evaluation of one rule over the window [{@code now - over}, {@code now}): a count rule is
 * one exact count with no row read, a ratio rule two, a metric rule one series step.
 */
final class Evaluation {
  private Evaluation() {}

  /**
   * What an evaluation found.
   *
   * @param value the number compared with the line: the count, the ratio, or the series value;
   *     NaN when there is none (a ratio over no records, a metric with no point in the window),
   *     which breaches neither above nor below
   * @param count records matching the query (count, ratio), or series read (metric)
   * @param ofCount records matching {@code of} (ratio), else -1
   * @param from the window's first ns
   * @param to the window's last ns (inclusive)
   * @param refused damaged blocks left out of the counts (the value is then a lower bound)
   */
  record Outcome(double value, long count, long ofCount, long from, long to, int refused) {}

  static Outcome run(Rule r, LocalQueries queries, long now)
      throws BusyException, IOException, QueryException, RulesException {
    long from = now - r.over();
    long to = now - 1;
    return switch (r.kind()) {
      case COUNT -> {
        SearchResult c = queries.count(r.signal(), from, to, r.where());
        yield new Outcome(c.stats().rowsMatched(), c.stats().rowsMatched(), -1, from, to, c.refused().size());
      }
      case RATIO -> {
        SearchResult c = queries.count(r.signal(), from, to, r.where());
        SearchResult o = queries.count(r.ofSignal(), from, to, r.of());
        long n = c.stats().rowsMatched();
        long d = o.stats().rowsMatched();
        yield new Outcome(ratio(n, d), n, d, from, to, c.refused().size() + o.refused().size());
      }
      case METRIC -> {
        SeriesQuery q = RulesFile.seriesQuery(r.series(), now, r.over(), "rule \"" + r.name() + "\"");
        SeriesResult s = queries.series(q);
        double v = Double.NaN;
        for (SeriesResult.Series x : s.series()) {
          if (x.points().isEmpty()) {
            continue;
          }
          SeriesResult.Point p = x.points().getLast();
          double d = switch (p.kind()) {
            case SeriesResult.LONG -> p.l();
            case SeriesResult.UNSIGNED -> unsigned(p.l());
            case SeriesResult.DOUBLE -> p.d();
            default -> Double.NaN;
          };
          if (Double.isNaN(d)) {
            continue;
          }
          // The series furthest past the line decides: the highest for above, the lowest for below.
          if (Double.isNaN(v) || (r.above() ? d > v : d < v)) {
            v = d;
          }
        }
        yield new Outcome(v, s.series().size(), -1, q.from(), q.to(), s.refused().size());
      }
    };
  }

  /** {@code n / d}, NaN over nothing (which breaches no line). */
  static double ratio(long n, long d) {
    return d == 0 ? Double.NaN : (double) n / d;
  }

  private static double unsigned(long l) {
    return l >= 0 ? l : (l >>> 1) * 2.0 + (l & 1);
  }
}
