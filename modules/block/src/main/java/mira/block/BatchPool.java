package mira.block;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import mira.block.table.Batch;

/**
 * A small bounded pool of emptied batches. Bounded both in count and in the memory a pooled batch
 * may keep, so one huge export cannot pin its arrays for the life of the process.
 */
final class BatchPool {
  static final int MAX_BATCHES = 4;
  static final long MAX_BATCH_CAPACITY = 8L << 20;

  private final ConcurrentLinkedQueue<Batch> batches = new ConcurrentLinkedQueue<>();
  private final AtomicInteger size = new AtomicInteger();

  Batch poll() {
    Batch b = batches.poll();
    if (b != null) {
      size.decrementAndGet();
    }
    return b;
  }

  void offer(Batch b) {
    if (b.capacityBytes() > MAX_BATCH_CAPACITY) {
      return;
    }
    if (size.incrementAndGet() > MAX_BATCHES) {
      size.decrementAndGet();
      return;
    }
    b.clear();
    batches.offer(b);
  }
}
