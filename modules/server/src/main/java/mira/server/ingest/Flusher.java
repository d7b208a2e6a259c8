package mira.server.ingest;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import mira.block.Decoders;
import mira.block.publish.Publisher;
import mira.block.table.Batch;
import mira.proto.wire.Signal;
import mira.server.ingest.IngestSink.Accepted;
import mira.server.ingest.IngestSink.Permanent;
import mira.server.ingest.IngestSink.Retry;

/**
 * One shard of one signal: owns an open block, appends queued exports to it, seals it on size,
 * age, dictionary headroom or shutdown, publishes it and answers every export it holds.
 *
 * <p>States: empty (waiting for work) → accumulating (the age clock starts with the block's first
 * export) → sealing → empty. A failed publish answers the block's exports with "retry" and starts
 * a new block, so one bad moment of the disk never wedges the shard.
 */
final class Flusher implements Runnable {
  private static final Logger LOG = System.getLogger(Flusher.class.getName());
  /** Jobs taken from the queue per turn. */
  private static final int DRAIN = 64;

  private final Signal signal;
  private final int shard;
  private final int shards;
  private final ArrayBlockingQueue<Job> queue;
  private final Publisher publisher;
  private final Stats stats;
  private final long targetBytes;
  private final long maxAgeNanos;
  private final Duration retryAfter;
  private final long firstSeq;
  private volatile boolean stopping;
  /** Put in the queue by {@link #stop()} to end a wait early; carries no export. */
  private static final Job WAKE = new Job(null, 0, null);

  private Batch open;
  /** Whether {@link #open} holds rows, for /api/v1/stats (written by this shard only). */
  private volatile boolean holding;
  private final List<Job> waiting = new ArrayList<>();
  private long openedAt;
  private long sealed;

  Flusher(Signal signal, int shard, int shards, int queueDepth, Publisher publisher, Stats stats,
      long targetBytes, Duration maxAge, Duration retryAfter, long firstSeq) {
    this.signal = signal;
    this.shard = shard;
    this.shards = shards;
    this.queue = new ArrayBlockingQueue<>(queueDepth);
    this.publisher = publisher;
    this.stats = stats;
    this.targetBytes = targetBytes;
    this.maxAgeNanos = maxAge.toNanos();
    this.retryAfter = retryAfter;
    this.firstSeq = firstSeq;
    this.open = Decoders.empty(signal);
  }

  ArrayBlockingQueue<Job> queue() {
    return queue;
  }

  /**
   * Asks the flusher to publish what it holds and return once its queue is empty. It is woken if
   * it is waiting, so the open block is sealed now rather than when it would have aged out.
   */
  void stop() {
    stopping = true;
    // Not Thread.interrupt(): an interrupt during a publish's FileChannel I/O closes the channel
    // and fails the block. If the queue is full the flusher is not waiting anyway.
    queue.offer(WAKE);
  }

  @Override
  public void run() {
    List<Job> batch = new ArrayList<>(DRAIN);
    while (!stopping || !queue.isEmpty()) {
      long wait = open.isEmpty() ? TimeUnit.MILLISECONDS.toNanos(200)
          : Math.max(0, openedAt + maxAgeNanos - System.nanoTime());
      Job first;
      try {
        first = stopping ? queue.poll() : queue.poll(wait, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        // Nothing interrupts a flusher on purpose; treat it as a request to stop.
        stopping = true;
        continue;
      }
      if (first != null) {
        batch.add(first);
        queue.drainTo(batch, DRAIN - 1);
        for (Job j : batch) {
          if (j != WAKE) {
            append(j);
          }
        }
        batch.clear();
      }
      if (!open.isEmpty() && (open.byteSize() >= targetBytes || System.nanoTime() - openedAt >= maxAgeNanos)) {
        seal();
      }
    }
    if (!open.isEmpty()) {
      seal();
    }
  }

  private void append(Job j) {
    if (open.isEmpty()) {
      openedAt = System.nanoTime();
    }
    if (!open.tryAppend(j.batch())) {
      // A dictionary or the resource id space is full: seal what we have, start afresh.
      seal();
      openedAt = System.nanoTime();
      if (!open.tryAppend(j.batch())) {
        // Cannot happen for a batch the decoder accepted; refuse it rather than loop.
        stats.failed(signal, j.records());
        j.ack().complete(new Permanent("export does not fit an empty " + signal.dir() + " block"));
        return;
      }
    }
    Decoders.recycle(j.batch());
    waiting.add(j);
    holding = true;
  }

  private void seal() {
    Batch block = open;
    long seq = firstSeq + shard + (long) shards * sealed++;
    long records = block.records();
    try {
      publisher.publish(block, seq, 0);
      stats.published(signal, block.byteSize());
      for (Job j : waiting) {
        j.ack().complete(new Accepted(j.records()));
      }
      stats.accepted(signal, records, waiting.size());
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, signal.dir() + " shard " + shard + ": publishing block " + seq + " failed: " + e);
      stats.publishFailed(signal, records);
      failWaiting("storing the export failed (" + e.getMessage() + "); retry");
    }
    waiting.clear();
    // The next block reuses this one's arrays: no growth by copying once a shard is warm.
    block.clear();
    open = block;
    holding = false;
  }

  /** True while this shard has an open block with rows in it. */
  boolean holdsOpenBlock() {
    return holding;
  }

  /**
   * Answers "retry" to exports that reached the queue after the flusher finished (a submit racing
   * the shutdown). Called once the flusher thread has ended.
   */
  void failQueued() {
    for (Job j; (j = queue.poll()) != null; ) {
      if (j != WAKE) {
        j.ack().complete(new Retry("shutting down", retryAfter));
      }
    }
  }

  private void failWaiting(String why) {
    for (Job j : waiting) {
      j.ack().complete(new Retry(why, retryAfter));
    }
    waiting.clear();
  }
}
