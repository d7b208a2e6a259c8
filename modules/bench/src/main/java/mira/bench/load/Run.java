package mira.bench.load;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bounds of one run, shared by its writers: when it started, when it stops starting exports,
 * how many exports remain, and how far along it is (for the incident window). Thread-safe.
 */
final class Run {
  final Options options;
  /** A warm-up run: its exports are not counted and the incident stays off. */
  final boolean warmup;
  final long startNanos;
  private final long endNanos;
  private final AtomicLong claimed = new AtomicLong();

  private final long exports;
  /** With {@code --rate}: nanoseconds between the scheduled starts of consecutive exports. */
  private final long intervalNanos;

  /** The measured run. */
  Run(Options options, long startNanos) {
    this.options = options;
    this.warmup = false;
    this.startNanos = startNanos;
    // A run bounded by its export count alone still stops starting exports after MAX_FOR.
    this.endNanos = startNanos + (options.runFor == null ? Options.MAX_FOR : options.runFor).toNanos();
    this.exports = options.exports;
    this.intervalNanos = interval(options);
  }

  private static long interval(Options o) {
    return o.rate == 0 ? 0 : Math.max(1, Math.round(o.batch * 1e9 / o.rate));
  }

  /** The warm-up before it: {@code --warmup} long, however many exports that takes. */
  static Run warmup(Options options, long startNanos) {
    return new Run(options, startNanos, options.warmup.toNanos());
  }

  private Run(Options options, long startNanos, long forNanos) {
    this.options = options;
    this.warmup = true;
    this.startNanos = startNanos;
    this.endNanos = startNanos + forNanos;
    this.exports = 0;
    this.intervalNanos = interval(options);
  }

  /**
   * Takes the right to start one more export; false once the duration or the count is spent. Paced
   * by {@code --rate}, export k starts no earlier than k intervals after the start: a writer waits
   * here for its turn, and when every writer is busy the schedule slips (the report's achieved rate
   * then falls short of the one asked for, which says the server did not keep up).
   */
  boolean claim() {
    if (System.nanoTime() >= endNanos) return false;
    long k = claimed.getAndIncrement();
    if (exports > 0 && k >= exports) return false;
    if (intervalNanos > 0) {
      long at = startNanos + k * intervalNanos;
      if (at >= endNanos) return false;
      long wait;
      while ((wait = at - System.nanoTime()) > 0) {
        java.util.concurrent.locks.LockSupport.parkNanos(wait);
      }
    }
    return true;
  }

  /** 0 at the start, 1 at the end: the larger of the time fraction and the export fraction. */
  double progress() {
    if (warmup) return 0;
    double p = 0;
    if (options.runFor != null) p = (System.nanoTime() - startNanos) / (double) options.runFor.toNanos();
    if (exports > 0) p = Math.max(p, claimed.get() / (double) exports);
    return Math.min(1, p);
  }

  /** Whether an export may be retried after waiting {@code millis}: not past the run's end. */
  boolean mayRetryAfter(long millis) {
    return System.nanoTime() + millis * 1_000_000 < endNanos;
  }
}
