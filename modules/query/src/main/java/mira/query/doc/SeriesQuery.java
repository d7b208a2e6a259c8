package mira.query.doc;

import java.util.List;

/**
 * A parsed {@code POST /api/v1/series} document.
 *
 * @param name the metric name, or a histogram's or summary's {@code <name>.count} /
 *     {@code <name>.sum}; null for every metric in the window
 * @param from window start, ns, inclusive
 * @param to window end, ns, inclusive
 * @param where attribute terms (resource, scope, metric metadata, data point) and entity terms,
 *     all of which a point must satisfy
 * @param maxSeries how many series at most; the rest are dropped and counted
 * @param maxPoints how many points per series at most (the newest); the rest are dropped and counted
 * @param fn step, function and grouping; null for raw points (caps then apply after grouping)
 */
public record SeriesQuery(String name, long from, long to, List<Term> where, int maxSeries, int maxPoints,
    SeriesFn fn) {
  public SeriesQuery {
    where = List.copyOf(where);
  }

  /** Raw points, no function. */
  public SeriesQuery(String name, long from, long to, List<Term> where, int maxSeries, int maxPoints) {
    this(name, from, to, where, maxSeries, maxPoints, null);
  }
}
