package mira.alert;

import java.io.IOException;
import mira.query.doc.SeriesQuery;
import mira.query.result.BusyException;
import mira.query.result.QueryException;
import mira.query.result.SearchResult;
import mira.query.result.SeriesResult;

/**
 * One evaluation of one rule over the window [{@code now - over}, {@code now}): a count rule is
 * one exact count with no row read, a ratio rule two, a metric rule one series step; on a replica
 * with peers each is the whole cluster's, and an outcome says when a node did not answer.
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
   * @param partial null when every node answered; else which did not (the value is then the
   *     others' alone), as {@link Reads.Read#partial}
   */
  record Outcome(double value, long count, long ofCount, long from, long to, int refused, String partial) {
    /** Every node answered. */
    Outcome(double value, long count, long ofCount, long from, long to, int refused) {
      this(value, count, ofCount, from, to, refused, null);
    }
  }

  static Outcome run(Rule r, Reads reads, long now)
      throws BusyException, IOException, QueryException, RulesException {
    long from = now - r.over();
    long to = now - 1;
    return switch (r.kind()) {
      case COUNT -> {
        Reads.Read<SearchResult> read = reads.count(r.signal(), from, to, r.where());
        SearchResult c = read.result();
        yield new Outcome(c.stats().rowsMatched(), c.stats().rowsMatched(), -1, from, to, c.refused().size(),
            read.partial());
      }
      case RATIO -> {
        Reads.Read<SearchResult> cr = reads.count(r.signal(), from, to, r.where());
        Reads.Read<SearchResult> or = reads.count(r.ofSignal(), from, to, r.of());
        SearchResult c = cr.result();
        SearchResult o = or.result();
        long n = c.stats().rowsMatched();
        long d = o.stats().rowsMatched();
        yield new Outcome(ratio(n, d), n, d, from, to, c.refused().size() + o.refused().size(),
            cr.partial() != null ? cr.partial() : or.partial());
      }
      case METRIC -> {
        SeriesQuery q = RulesFile.seriesQuery(r.series(), now, r.over(), "rule \"" + r.name() + "\"");
        Reads.Read<SeriesResult> read = reads.series(q);
        SeriesResult s = read.result();
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
        yield new Outcome(v, s.series().size(), -1, q.from(), q.to(), s.refused().size(), read.partial());
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
