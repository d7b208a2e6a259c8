package mira.bench.load;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bounds of one run, shared by its writers: when it started, when it stops starting exports,
 * how many exports remain, and how far along it is (for the incident window). Thread-safe.
 */
final class Run {
  final Options options;
  final long startNanos;
  private final long endNanos;
  private final AtomicLong claimed = new AtomicLong();

  Run(Options options, long startNanos) {
    this.options = options;
    this.startNanos = startNanos;
    // A run bounded by its export count alone still stops starting exports after MAX_FOR.
    this.endNanos = startNanos + (options.runFor == null ? Options.MAX_FOR : options.runFor).toNanos();
  }

  /** Takes the right to start one more export; false once the duration or the count is spent. */
  boolean claim() {
    if (System.nanoTime() >= endNanos) return false;
    if (options.exports == 0) return true;
    return claimed.getAndIncrement() < options.exports;
  }

  /** 0 at the start, 1 at the end: the larger of the time fraction and the export fraction. */
  double progress() {
    double p = 0;
    if (options.runFor != null) p = (System.nanoTime() - startNanos) / (double) options.runFor.toNanos();
    if (options.exports > 0) p = Math.max(p, claimed.get() / (double) options.exports);
    return Math.min(1, p);
  }

  /** Whether an export may be retried after waiting {@code millis}: not past the run's end. */
  boolean mayRetryAfter(long millis) {
    return System.nanoTime() + millis * 1_000_000 < endNanos;
  }
}
