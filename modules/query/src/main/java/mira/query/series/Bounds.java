package mira.query.series;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One array per distinct list of histogram bucket bounds, shared by the partials of every block:
 * a query folding tens of thousands of pieces checks that a series keeps its layout, and equal
 * layouts are then the same array ({@link Arrays#equals} returns on the reference).
 */
final class Bounds {
  /** Layouts kept; past it an array is used as it comes (still correct, only compared in full). */
  private static final int MAX = 4096;
  private static final ConcurrentHashMap<Layout, double[]> SHARED = new ConcurrentHashMap<>();

  private Bounds() {}

  /** The shared array equal to {@code bounds} (null for null). */
  static double[] canonical(double[] bounds) {
    if (bounds == null) {
      return null;
    }
    Layout k = new Layout(bounds);
    double[] had = SHARED.get(k);
    if (had != null) {
      return had;
    }
    if (SHARED.size() >= MAX) {
      return bounds;
    }
    had = SHARED.putIfAbsent(k, bounds);
    return had == null ? bounds : had;
  }

  /** Array identity replaced by content, for the map. */
  private record Layout(double[] b) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Layout l && Arrays.equals(b, l.b);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(b);
    }
  }
}
