package mira.query.series;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import mira.query.doc.Cursor;

/**
 * One series being collected: its identity and its newest points, at most twice the cap at any
 * moment. Once it holds {@code 2 * maxPoints} points it is compacted in place to the newest
 * {@code maxPoints}, and the rest are counted as dropped, so memory is bounded while scanning.
 */
final class Series {
  /** A data point: its place in the total order, its value and the JSON of its exemplars. */
  record Point(long time, int node, long seq, int id, int kind, long l, double d, byte[][] exemplars) {}

  static final int NULL = 0;
  static final int LONG = 1;
  static final int DOUBLE = 2;
  static final int UNSIGNED = 3;

  /** Newest first: (time, node, seq, point id) descending. */
  static final Comparator<Point> NEWEST_FIRST = (a, b) ->
      Cursor.compare(b.time(), b.node(), b.seq(), b.id(), a.time(), a.node(), a.seq(), a.id());

  final String name;
  final String type;
  final String unit;
  final String description;
  final byte[] resource;
  final byte[] attributes;
  private final int maxPoints;
  private List<Point> points = new ArrayList<>();
  private long dropped;

  Series(String name, String type, String unit, String description, byte[] resource, byte[] attributes, int maxPoints) {
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

  /** Points held right now (before the final cap). */
  int held() {
    return points.size();
  }

  long dropped() {
    return dropped;
  }
}
