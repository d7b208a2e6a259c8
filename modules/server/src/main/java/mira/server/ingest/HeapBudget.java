package mira.server.ingest;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap the ingest pipeline may hold at once, in bytes: export bodies between the receiver and
 * the log, decoded exports waiting in the shards' queues, and the arrays of the shards' open blocks.
 * An export is admitted only while there is room for it ({@link #tryTake}); past the budget it is
 * shed with a retry hint, so overload becomes backpressure rather than heap growth. Open blocks
 * are charged by what their arrays hold plus the room their largest column needs to double
 * ({@link #adjust}, which may overdraw: the rows are already there), after every export appended;
 * a shard seals early and lets its arrays go while the budget is {@link #pressed}.
 *
 * <p>Thread-safe: one atomic counter, taken by request threads and given back by flushers.
 */
final class HeapBudget {
  /** Share of the maximum heap given to ingest by default; the rest is young collections and reads. */
  static final double HEAP_SHARE = 0.5;

  private final long limit;
  private final AtomicLong held = new AtomicLong();

  HeapBudget(long limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("heap budget must be positive: " + limit);
    }
    this.limit = limit;
  }

  /** {@link #HEAP_SHARE} of {@code Runtime.maxMemory()}. */
  static long defaultLimit() {
    return (long) (Runtime.getRuntime().maxMemory() * HEAP_SHARE);
  }

  /**
   * Takes {@code bytes} if they fit. When nothing is held, any amount fits: an export larger than
   * the budget (within ingest.max_request_bytes) is then admitted alone rather than refused forever.
   */
  boolean tryTake(long bytes) {
    return tryTake(bytes, 0);
  }

  /**
   * As {@link #tryTake(long)} for a caller that already holds {@code own} bytes of the budget: when
   * nothing else is held, the amount fits whatever its size.
   */
  boolean tryTake(long bytes, long own) {
    while (true) {
      long h = held.get();
      if (h > own && h + bytes > limit) {
        return false;
      }
      if (held.compareAndSet(h, h + bytes)) {
        return true;
      }
    }
  }

  /** Gives back bytes taken with {@link #tryTake}. */
  void give(long bytes) {
    held.addAndGet(-bytes);
  }

  /** Adds {@code delta} (positive or negative) unconditionally: memory that is already held. */
  void adjust(long delta) {
    held.addAndGet(delta);
  }

  /**
   * True while more than three quarters of the budget is held: shards then seal their open blocks
   * early and let their arrays go, so room is made before admission has to refuse anything.
   */
  boolean pressed() {
    return held.get() > limit - limit / 4;
  }

  long held() {
    return held.get();
  }

  long limit() {
    return limit;
  }
}
