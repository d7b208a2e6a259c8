package mira.bench.load;

import java.util.Arrays;

/**
 * Latency samples in microseconds, every one kept (a run makes thousands of exports, not
 * billions), and percentiles by nearest rank over the sorted samples. Not thread-safe: one per
 * thread, merged at the end.
 */
final class Latencies {
  private long[] micros = new long[256];
  private int n;

  void add(long nanos) {
    if (n == micros.length) micros = Arrays.copyOf(micros, n * 2);
    micros[n++] = nanos / 1000;
  }

  void addAll(Latencies other) {
    for (int i = 0; i < other.n; i++) {
      if (n == micros.length) micros = Arrays.copyOf(micros, n * 2);
      micros[n++] = other.micros[i];
    }
  }

  int count() {
    return n;
  }

  /** The samples, sorted ascending (a copy). */
  long[] sorted() {
    long[] s = Arrays.copyOf(micros, n);
    Arrays.sort(s);
    return s;
  }

  /**
   * The nearest-rank percentile {@code q} (0 < q ≤ 1) of ascending {@code sorted}: the smallest
   * sample with at least {@code q} of all samples at or below it; -1 if there are none.
   */
  static long percentile(long[] sorted, double q) {
    if (sorted.length == 0) return -1;
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
  }
}
