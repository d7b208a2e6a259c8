package mira.bench.peer;

import java.util.Arrays;

/** Latency samples in nanoseconds, every one kept; percentiles by nearest rank. Not thread-safe. */
final class Samples {
  private long[] nanos = new long[32];
  private int n;

  void add(long v) {
    if (n == nanos.length) {
      nanos = Arrays.copyOf(nanos, n * 2);
    }
    nanos[n++] = v;
  }

  int count() {
    return n;
  }

  /**
   * The nearest-rank percentile {@code q} (0 < q ≤ 1): the smallest sample with at least
   * {@code q} of all samples at or below it; -1 if there are none. With 20 samples p99 is the
   * largest.
   */
  long percentile(double q) {
    if (n == 0) {
      return -1;
    }
    long[] s = Arrays.copyOf(nanos, n);
    Arrays.sort(s);
    int rank = (int) Math.ceil(q * n);
    return s[Math.max(0, Math.min(n, rank) - 1)];
  }
}
