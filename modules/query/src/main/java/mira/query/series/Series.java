package mira.query.series;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import mira.query.result.Attribute;
import mira.query.result.SeriesResult;
import mira.query.doc.Cursor;

/**
 * One series being collected: its identity and its newest points, at most twice the cap at any
 * moment. Once it holds {@code 2 * maxPoints} points it is compacted in place to the newest
 * {@code maxPoints}, and the rest are counted as dropped, so memory is bounded while scanning.
 */
final class Series {
  /**
   * A data point: its place in the total order, its value (kinds of {@link SeriesResult}) and its
   * exemplars; for a quantile, on a histogram's count half, its explicit buckets ({@code counts},
   * {@code bounds}), its exponential buckets ({@code exp}) or its summary quantiles, else null.
   */
  record Point(long time, int node, long seq, int id, int kind, long l, double d, long start,
      SeriesResult.Exemplar[] exemplars, long[] counts, double[] bounds, ExpHist exp, Shapes.Summary summary) {
    Point(long time, int node, long seq, int id, int kind, long l, double d, SeriesResult.Exemplar[] exemplars) {
      this(time, node, seq, id, kind, l, d, 0, exemplars, null, null, null, null);
    }

    Point(long time, int node, long seq, int id, int kind, long l, double d, long start,
        SeriesResult.Exemplar[] exemplars, long[] counts, double[] bounds) {
      this(time, node, seq, id, kind, l, d, start, exemplars, counts, bounds, null, null);
    }

    /** The value as a double (NaN if none); unsigned counts read as unsigned. */
    double value() {
      return switch (kind) {
        case LONG -> l;
        case UNSIGNED -> l >= 0 ? l : (double) (l >>> 1) * 2.0 + (l & 1);
        case DOUBLE -> d;
        default -> Double.NaN;
      };
    }
  }

  static final SeriesResult.Exemplar[] NO_EXEMPLARS = new SeriesResult.Exemplar[0];

  static final int NULL = SeriesResult.NULL;
  static final int LONG = SeriesResult.LONG;
  static final int DOUBLE = SeriesResult.DOUBLE;
  static final int UNSIGNED = SeriesResult.UNSIGNED;

  /** Newest first: (time, node, seq, point id) descending. */
  static final Comparator<Point> NEWEST_FIRST = (a, b) ->
      Cursor.compare(b.time(), b.node(), b.seq(), b.id(), a.time(), a.node(), a.seq(), a.id());

  final String name;
  final String type;
  final String unit;
  final String description;
  final List<Attribute> resource;
  final List<Attribute> attributes;
  /** The resource's entity key (0: none). */
  long entity;
  /** aggregation_temporality of the metric (0 unspecified, 1 delta, 2 cumulative). */
  int temporality;
  /** Whether the metric is a monotonic sum (histogram and summary halves count as monotonic). */
  boolean monotonic;
  private final int maxPoints;
  private List<Point> points = new ArrayList<>();
  private long dropped;

  Series(String name, String type, String unit, String description, List<Attribute> resource, List<Attribute> attributes,
      int maxPoints) {
    this.name = name;
    this.type = type;
    this.unit = unit;
    this.description = description;
    this.resource = resource;
    this.attributes = attributes;
    this.maxPoints = maxPoints;
  }

  void add(Point p) {
    points.add(p);
    if (points.size() >= 2 * maxPoints) {
      compact();
    }
  }

  /** Takes over another collection of the same series (from another block). */
  void absorb(Series o) {
    dropped += o.dropped;
    for (Point p : o.points) {
      add(p);
    }
  }

  /** Counts {@code n} more points as dropped (another node's, over its cap). */
  void addDropped(long n) {
    dropped += n;
  }

  private void compact() {
    if (points.size() <= maxPoints) {
      return;
    }
    points.sort(NEWEST_FIRST);
    dropped += points.size() - maxPoints;
    points = new ArrayList<>(points.subList(0, maxPoints));
  }

  /** The kept points, oldest first (the cap applied). */
  List<Point> finish() {
    compact();
    List<Point> out = new ArrayList<>(points);
    out.sort(NEWEST_FIRST.reversed());
    return out;
  }

  /** The typed series: the kept points oldest first, their exemplars in the same order. */
  SeriesResult.Series result() {
    List<Point> pts = finish();
    List<SeriesResult.Point> out = new ArrayList<>(pts.size());
    List<SeriesResult.Exemplar> ex = new ArrayList<>();
    for (Point p : pts) {
      out.add(new SeriesResult.Point(p.time(), p.kind(), p.l(), p.d()));
      for (SeriesResult.Exemplar x : p.exemplars()) {
        ex.add(x);
      }
    }
    return new SeriesResult.Series(name, type, unit, description, resource, attributes, out, ex, dropped, null,
        entity);
  }

  /** Points held right now (before the final cap). */
  int held() {
    return points.size();
  }

  long dropped() {
    return dropped;
  }
}
