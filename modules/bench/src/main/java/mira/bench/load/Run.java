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

  /** The measured run. */
  Run(Options options, long startNanos) {
    this.options = options;
    this.warmup = false;
    this.startNanos = startNanos;
    // A run bounded by its export count alone still stops starting exports after MAX_FOR.
    this.endNanos = startNanos + (options.runFor == null ? Options.MAX_FOR : options.runFor).toNanos();
    this.exports = options.exports;
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
  }

  /** Takes the right to start one more export; false once the duration or the count is spent. */
  boolean claim() {
    if (System.nanoTime() >= endNanos) return false;
    if (exports == 0) return true;
    return claimed.getAndIncrement() < exports;
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
