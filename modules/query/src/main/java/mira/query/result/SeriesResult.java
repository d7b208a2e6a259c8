package mira.query.result;

import java.util.List;

/**
 * The answer of a series query ({@code POST /api/v1/series}), before rendering.
 *
 * @param series the series kept, in key order (name, type, unit, resource, attributes)
 * @param droppedSeries distinct series the {@code max_series} cap left out
 * @param stats what the scan cost (rows are data points)
 * @param refused damaged blocks that were skipped, by path
 */
public record SeriesResult(List<Series> series, long droppedSeries, Stats stats, List<Refused> refused) {
  public SeriesResult {
    series = List.copyOf(series);
    refused = List.copyOf(refused);
  }


  /** No value (a point without a value, a histogram without a sum). */
  public static final int NULL = 0;
  /** A signed 64-bit integer, {@link Point#l}. */
  public static final int LONG = 1;
  /** A double, {@link Point#d}. */
  public static final int DOUBLE = 2;
  /** An unsigned 64-bit integer (a histogram's count), {@link Point#l}. */
  public static final int UNSIGNED = 3;

  /**
   * One series.
   *
   * @param resource the resource attributes, keys sorted
   * @param attributes the point attributes, keys sorted (with {@code group_by}: the kept keys, in
   *     the order asked, and an empty resource)
   * @param points oldest first
   * @param exemplars of the kept points, in the points' order
   * @param droppedPoints points the {@code max_points} cap left out (the oldest)
   * @param bounds for a quantile of explicit-bucket histograms, the bucket bounds whose counts were
   *     merged across the group; null otherwise
   * @param entity the resource's entity key ({@link Resource#entity}); {@link Resource#NO_ENTITY}
   *     for a resource without identity and for series grouped with {@code group_by}
   * @param scale for a quantile of exponential histograms, the scale at which the group's buckets
   *     were merged (the coarsest of its points); null otherwise
   */
  public record Series(String name, String type, String unit, String description, List<Attribute> resource,
      List<Attribute> attributes, List<Point> points, List<Exemplar> exemplars, long droppedPoints, double[] bounds,
      long entity, Integer scale) {
    public Series {
      resource = List.copyOf(resource);
      attributes = List.copyOf(attributes);
      points = List.copyOf(points);
      exemplars = List.copyOf(exemplars);
    }

    public Series(String name, String type, String unit, String description, List<Attribute> resource,
        List<Attribute> attributes, List<Point> points, List<Exemplar> exemplars, long droppedPoints, double[] bounds,
        long entity) {
      this(name, type, unit, description, resource, attributes, points, exemplars, droppedPoints, bounds, entity, null);
    }

    public Series(String name, String type, String unit, String description, List<Attribute> resource,
        List<Attribute> attributes, List<Point> points, List<Exemplar> exemplars, long droppedPoints) {
      this(name, type, unit, description, resource, attributes, points, exemplars, droppedPoints, null,
          Resource.NO_ENTITY);
    }

    /** The entity key as rendered: 16 lowercase hex digits, or null for none. */
    public String entityHex() {
      return entity == Resource.NO_ENTITY ? null : Entities.hex(entity);
    }
  }

  /**
   * A value at a time.
   *
   * @param time ns since the epoch
   * @param kind {@link #NULL}, {@link #LONG}, {@link #UNSIGNED} or {@link #DOUBLE}: which of
   *     {@code l} and {@code d} holds the value
   */
  public record Point(long time, int kind, long l, double d) {}

  /**
   * An exemplar: a measurement that links a point to the trace that recorded it.
   *
   * @param time ns since the epoch
   * @param kind as {@link Point#kind}
   * @param traceId lowercase hex, empty if none
   * @param spanId lowercase hex, empty if none
   * @param attributes the filtered attributes
   */
  public record Exemplar(long time, int kind, long l, double d, String traceId, String spanId,
      List<Attribute> attributes) {
    public Exemplar {
      attributes = List.copyOf(attributes);
    }
  }
}
