package mira.query.result;

import java.util.List;

/**
 * The stored points a series function reads, as one node holds them, before any function is
 * applied: what a replica asks its peers for when a series document has a function, so that the
 * function is computed once over the union of every node's points. A counter whose points a load
 * balancer spread over several nodes has its increases taken between consecutive points of the
 * union, which no per-node answer can give (docs/api.md, "Replicas").
 *
 * @param series each stored series with the points in the window, oldest first
 * @param exactName whether the series are those named exactly (false: a histogram's or summary's
 *     {@code .count} / {@code .sum} half was read because nothing has the exact name on this node)
 * @param droppedSeries distinct series over the hard series cap on this node
 * @param stats what the gathering cost
 * @param refused damaged blocks that were skipped
 */
public record SeriesPoints(List<Stored> series, boolean exactName, long droppedSeries, Stats stats,
    List<Refused> refused) {
  public SeriesPoints {
    series = List.copyOf(series);
    refused = List.copyOf(refused);
  }

  /**
   * One stored series.
   *
   * @param entity the resource's entity key, {@link Resource#NO_ENTITY} for none
   * @param temporality the metric's aggregation temporality (0 unspecified, 1 delta, 2 cumulative)
   * @param monotonic whether it counts up (a monotonic sum, or a histogram's or summary's half)
   * @param droppedPoints the oldest points over the hard point cap on this node
   */
  public record Stored(String name, String type, String unit, String description, List<Attribute> resource,
      List<Attribute> attributes, long entity, int temporality, boolean monotonic, long droppedPoints,
      List<Point> points) {
    public Stored {
      resource = List.copyOf(resource);
      attributes = List.copyOf(attributes);
      points = List.copyOf(points);
    }
  }

  /**
   * One data point with its place in the total order of points ({@code time, node, seq, id}) and
   * what a function reads of it. Arrays are not copied: a point is built once and only read.
   *
   * @param kind as {@link SeriesResult.Point#kind}
   * @param start its {@code start_time_unix_nano} (0: none), which tells a restarted counter
   * @param counts a histogram's explicit bucket counts (unsigned), or null
   * @param bounds their bounds, or null
   * @param exp an exponential histogram's buckets, or null
   * @param quantiles a summary's quantiles, or null
   * @param values the summary's values at those quantiles, or null
   */
  public record Point(long time, int node, long seq, int id, int kind, long l, double d, long start,
      List<SeriesResult.Exemplar> exemplars, long[] counts, double[] bounds, Exp exp, double[] quantiles,
      double[] values) {
    public Point {
      exemplars = List.copyOf(exemplars);
    }
  }

  /**
   * An exponential histogram's buckets: at {@code scale}, the zero bucket's count and each side's
   * consecutive counts from its offset (unsigned counts as doubles).
   */
  public record Exp(int scale, double zero, int posOffset, double[] pos, int negOffset, double[] neg) {}
}
