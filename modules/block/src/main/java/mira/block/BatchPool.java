package mira.block;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import mira.block.column.Capacities;
import mira.block.table.Batch;
import mira.proto.wire.Signal;

/**
 * A small bounded pool of emptied batches of one signal. Bounded both in count and in the memory a
 * pooled batch may keep, so one huge export cannot pin its arrays for the life of the process.
 *
 * <p>When the pool is empty (more exports in flight than it holds, as while a flusher seals and its
 * queue fills), a new batch is made with the array lengths of the last batch handed back, so
 * decoding into it allocates each array once rather than growing it from 64 values by doubling
 * (about 2.5 times the final bytes, and most of what a span export allocated after its request
 * body). Both apply only to an export whose body is large enough to fill them: a small export
 * after a large one gets a fresh small batch, since the heap budget charges a decoded export its
 * whole capacity (a 5-record export decoded into the arrays of a 60,000-record one was refused for
 * a budget it hardly used). Thread-safe: any request thread takes, any flusher gives back.
 */
final class BatchPool {
  static final int MAX_BATCHES = 4;
  static final long MAX_BATCH_CAPACITY = 8L << 20;

  /** A pooled batch, or the shape of the last one, serves a body whose bytes times this reach its capacity. */
  static final long CAPACITY_PER_BODY_BYTE = 8;
  /** ... and any body at all up to this capacity (an empty batch's arrays hold tens of KiB). */
  static final long SMALL_CAPACITY = 256L << 10;

  private final Signal signal;
  private final ConcurrentLinkedQueue<Batch> batches = new ConcurrentLinkedQueue<>();
  private final AtomicInteger size = new AtomicInteger();
  /** The array lengths of the last batch handed back that was small enough to pool, or null. */
  private volatile Shape shape;

  private record Shape(Capacities capacities, long bytes) {}

  BatchPool(Signal signal) {
    this.signal = signal;
  }

  /** A pooled batch, or a new one sized like the last batch given back, for a body of any size. */
  Batch take() {
    return take(Integer.MAX_VALUE);
  }

  /**
   * A batch to decode a body of {@code bodyBytes} into: a pooled one, or a new one sized like the
   * last batch given back, when that capacity is in proportion to the body; else a new empty one.
   */
  Batch take(int bodyBytes) {
    long fits = Math.max(SMALL_CAPACITY, CAPACITY_PER_BODY_BYTE * bodyBytes);
    Batch b = batches.poll();
    if (b != null) {
      if (b.capacityBytes() <= fits) {
        size.decrementAndGet();
        return b;
      }
      // Kept for a larger export; this one is decoded into a fresh batch.
      batches.offer(b);
    }
    b = Decoders.empty(signal);
    Shape like = shape;
    if (like != null && like.bytes() <= fits) {
      b.reserve(like.capacities());
    }
    return b;
  }

  void offer(Batch b) {
    if (b.capacityBytes() > MAX_BATCH_CAPACITY) {
      return;
    }
    // Recorded even when the batch is kept: a few hundred ints per export, against megabytes.
    shape = new Shape(b.capacities(), b.capacityBytes());
    if (size.incrementAndGet() > MAX_BATCHES) {
      size.decrementAndGet();
      return;
    }
    b.clear();
    batches.offer(b);
  }
}
