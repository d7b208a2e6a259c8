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
 * body). Thread-safe: any request thread takes, any flusher gives back.
 */
final class BatchPool {
  static final int MAX_BATCHES = 4;
  static final long MAX_BATCH_CAPACITY = 8L << 20;

  private final Signal signal;
  private final ConcurrentLinkedQueue<Batch> batches = new ConcurrentLinkedQueue<>();
  private final AtomicInteger size = new AtomicInteger();
  /** The array lengths of the last batch handed back that was small enough to pool, or null. */
  private volatile Capacities shape;

  BatchPool(Signal signal) {
    this.signal = signal;
  }

  /** A pooled batch, or a new one sized like the last batch given back. */
  Batch take() {
    Batch b = batches.poll();
    if (b != null) {
      size.decrementAndGet();
      return b;
    }
    b = Decoders.empty(signal);
    Capacities like = shape;
    if (like != null) {
      b.reserve(like);
    }
    return b;
  }

  void offer(Batch b) {
    if (b.capacityBytes() > MAX_BATCH_CAPACITY) {
      return;
    }
    // Recorded even when the batch is kept: a few hundred ints per export, against megabytes.
    shape = b.capacities();
    if (size.incrementAndGet() > MAX_BATCHES) {
      size.decrementAndGet();
      return;
    }
    b.clear();
    batches.offer(b);
  }
}
