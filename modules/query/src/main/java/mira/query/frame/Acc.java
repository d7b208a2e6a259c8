package mira.query.frame;

import java.util.ArrayList;
import java.util.List;

/**
 * Counts, errors and durations of a service-map node or edge: sorted arrays of whole block pieces
 * (the columnar map) and single spans (both maps), with the exact nearest-rank quantile over all.
 */
final class Acc {
  long n;
  long errors;
  final List<long[]> sorted = new ArrayList<>();
  long[] single = new long[0];
  int singles;

  void add(long count, long errs, long[] durations) {
    n += count;
    errors += errs;
    if (durations.length > 0) {
      sorted.add(durations);
    }
  }

  void add(long duration, boolean error) {
    if (singles == single.length) {
      single = java.util.Arrays.copyOf(single, Math.max(8, singles * 2));
    }
    single[singles++] = duration;
    n++;
    if (error) {
      errors++;
    }
  }

  /** The nearest-rank quantile in milliseconds; 0 with no spans. */
  double quantile(double q) {
    if (n == 0) {
      return 0;
    }
    if (singles > 0) {
      long[] s = java.util.Arrays.copyOf(single, singles);
      java.util.Arrays.sort(s);
      sorted.add(s);
      single = new long[0];
      singles = 0;
    }
    long rank = (long) Math.max(0, Math.ceil(q * n) - 1);
    if (sorted.size() == 1) {
      return sorted.get(0)[(int) rank] / 1e6;
    }
    // The answer lies between the least and the greatest of the arrays' own quantiles.
    int k = sorted.size();
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    for (long[] d : sorted) {
      long own = d[(int) Math.max(0, Math.ceil(q * d.length) - 1)];
      lo = Math.min(lo, own);
      hi = Math.max(hi, own);
    }
    // Bisect the value for the least v with more than rank durations at most v; each array's
    // count is searched only between the counts at the current bounds.
    int[] from = new int[k];
    int[] to = new int[k];
    for (int i = 0; i < k; i++) {
      long[] d = sorted.get(i);
      from[i] = upper(d, 0, d.length, lo - 1);
      to[i] = upper(d, from[i], d.length, hi);
    }
    int[] at = new int[k];
    while (lo < hi) {
      long mid = (lo & hi) + ((lo ^ hi) >> 1);
      long le = 0;
      for (int i = 0; i < k; i++) {
        at[i] = upper(sorted.get(i), from[i], to[i], mid);
        le += at[i];
      }
      if (le > rank) {
        hi = mid;
        System.arraycopy(at, 0, to, 0, k);
      } else {
        lo = mid + 1;
        System.arraycopy(at, 0, from, 0, k);
      }
    }
    return lo / 1e6;
  }

  /** How many of {@code d} (sorted) are at most {@code v}, knowing the count lies in {@code [a, b]}. */
  private static int upper(long[] d, int a, int b, long v) {
    while (a < b) {
      int m = (a + b) >>> 1;
      if (d[m] <= v) {
        a = m + 1;
      } else {
        b = m;
      }
    }
    return a;
  }
}
