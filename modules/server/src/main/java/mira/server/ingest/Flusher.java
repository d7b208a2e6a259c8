package mira.server.ingest;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.TimeUnit;
import mira.block.Decoders;
import mira.block.catalog.BlockName;
import mira.block.publish.Publisher;
import mira.block.publish.UndurableBlockException;
import mira.block.catalog.BlockRef;
import mira.block.read.Snapshot;
import mira.block.table.Batch;
import mira.proto.wire.Signal;
import mira.wal.Wal;
import mira.server.ingest.IngestSink.Accepted;
import mira.server.ingest.IngestSink.Permanent;
import mira.server.ingest.IngestSink.Retry;

/**
 * One shard of one signal: owns an open block, appends queued exports to it, seals it on size,
 * age, dictionary headroom or shutdown, publishes it and answers every export it holds.
 *
 * <p>States: empty (waiting for work) → accumulating (the age clock starts with the block's first
 * export) → sealing → empty. Without a write-ahead log a failed publish answers the block's exports
 * with "retry" and starts a new block, so one bad moment of the disk never wedges the shard. With
 * the log the exports were already acknowledged, so the block is kept and its publish retried
 * (every {@link #PUBLISH_RETRY}) until it lands; its frames stay pending in the log meanwhile.
 */
final class Flusher implements Runnable {
  private static final Logger LOG = System.getLogger(Flusher.class.getName());
  /** Jobs taken from the queue per turn. */
  private static final int DRAIN = 64;
  /**
   * While the heap budget is pressed an open block is sealed once it holds this much (or a
   * sixteenth of the budget, if that is less), before its size or age is reached: smaller blocks
   * rather than a heap that grows.
   */
  static final long EARLY_SEAL_BYTES = 1L << 20;
  /** Wait between attempts to publish a block that failed, when the log holds its exports. */
  static final long PUBLISH_RETRY = TimeUnit.SECONDS.toNanos(1);

  private final java.util.function.LongSupplier clock;
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
  private final Semaphore slots;
  private final Wal wal;
  /** Shared by the signal's shards; see {@link #seal()}. */
  private final ReentrantLock sealLock;
  private volatile boolean stopping;
  /** Put in the queue by {@link #wake()} to end a wait early; carries no export. */
  private static final Job WAKE = new Job(null, 0, -1, null);
  /**
   * True while a {@link #WAKE} is in the queue. At most one is ever queued, so the queue's one
   * spare slot is enough for it and every admission ticket ({@link #slots}) is a free place: a
   * permit holder's {@code queue.add} cannot throw however many readers ask for snapshots.
   */
  private final java.util.concurrent.atomic.AtomicBoolean wakeQueued = new java.util.concurrent.atomic.AtomicBoolean();

  private Batch open;
  /** The heap the pipeline may hold; this shard charges it what {@link #open}'s arrays hold. */
  private final HeapBudget budget;
  /** What {@link #open}'s arrays are charged to {@link #budget} at present. */
  private long openCharged;
  /** See {@link #EARLY_SEAL_BYTES}. */
  private final long earlySealBytes;
  /** Whether {@link #open} holds rows, for /api/v1/stats (written by this shard only). */
  private volatile boolean holding;
  private final List<Job> waiting = new ArrayList<>();
  private long openedAt;
  private long sealed;
  /** Log sequences of the exports in the open block. */
  private long[] seqs = new long[64];
  private int seqCount;
  /** No publish is attempted before this (after a failure, with the log on). */
  private long retryAt;
  /**
   * Blocks renamed into place whose directory fsyncs failed: visible, never to be published again,
   * their frames (with the log on) retired only once {@link Publisher#makeDurable} succeeds.
   */
  private final List<Undurable> undurable = new ArrayList<>();
  private long durableRetryAt;

  /** A published block not yet proven durable, and the log sequences it holds. */
  private record Undurable(java.nio.file.Path block, long[] seqs) {}
  /**
   * Exports ever queued ({@link #enqueue}) and ever taken off the queue (by this shard's thread).
   * The queue is first in, first out, so once {@code taken} reaches the {@code queued} count read
   * at some instant, every export queued before that instant is in the open block or published.
   */
  private final java.util.concurrent.atomic.AtomicLong queued = new java.util.concurrent.atomic.AtomicLong();
  private volatile long taken;
  /** Read-your-writes: snapshot requests, each answered once the exports queued before it are taken. */
  private final ConcurrentLinkedQueue<SnapshotRequest> snapshotRequests = new ConcurrentLinkedQueue<>();
  /**
   * The block being sealed, while its publish runs (null otherwise), so a read need not wait for
   * the publish: the block is not written to meanwhile, and {@link #viewLock} keeps it from being
   * cleared for the next block while a reader copies it.
   */
  private Sealing sealing;
  private final ReentrantLock viewLock = new ReentrantLock();

  /**
   * {@link #taken} as of the end of this shard's last turn that left no rows open and nothing under
   * publish; -1 from the moment the shard takes a job off the queue until a turn ends that way. A
   * read that finds it equal to the {@link #queued} count it read first needs no snapshot from this
   * shard ({@link #idleAndEmpty}).
   */
  private volatile long emptyAt = -1;

  /** A block under publish and how many exports had been taken when its seal began. */
  private record Sealing(Batch block, long taken, long seq) {}

  /** A read waiting for a snapshot that holds every export queued before {@code want}. */
  record SnapshotRequest(long want, long ticket, CompletableFuture<Snapshot> answer) {}

  /**
   * Snapshot requests ever made. A turn reads this before it reads the clock and answers only the
   * requests numbered up to it, so an answer always comes after a seal check that saw the clock as
   * it was when the request was made (a request made while a turn is under way waits for the next).
   */
  private final java.util.concurrent.atomic.AtomicLong asked = new java.util.concurrent.atomic.AtomicLong();
  /** The last snapshot answered, and the row count it was taken at (reused while nothing changed). */
  private volatile Snapshot lastSnapshot;
  private int lastSnapshotRows = -1;

  /**
   * @param wal the write-ahead log, or null when exports are acknowledged after their publish
   */
  Flusher(Signal signal, int shard, int shards, int queueDepth, Publisher publisher, Stats stats,
      long targetBytes, Duration maxAge, Duration retryAfter, long firstSeq, Wal wal, ReentrantLock sealLock) {
    this(signal, shard, shards, queueDepth, publisher, stats, targetBytes, maxAge, retryAfter, firstSeq, wal, sealLock,
        System::nanoTime, new HeapBudget(Long.MAX_VALUE));
  }

  /** As above, charging the open block's arrays to {@code budget} (shared by every shard). */
  Flusher(Signal signal, int shard, int shards, int queueDepth, Publisher publisher, Stats stats,
      long targetBytes, Duration maxAge, Duration retryAfter, long firstSeq, Wal wal, ReentrantLock sealLock,
      HeapBudget budget) {
    this(signal, shard, shards, queueDepth, publisher, stats, targetBytes, maxAge, retryAfter, firstSeq, wal, sealLock,
        System::nanoTime, budget);
  }

  /**
   * As above, reading time from {@code clock} (nanoseconds, monotonic): the block age and the retry
   * waits. Tests drive it by hand, so age-based sealing is tested without sleeping through an age.
   */
  Flusher(Signal signal, int shard, int shards, int queueDepth, Publisher publisher, Stats stats,
      long targetBytes, Duration maxAge, Duration retryAfter, long firstSeq, Wal wal, ReentrantLock sealLock,
      java.util.function.LongSupplier clock) {
    this(signal, shard, shards, queueDepth, publisher, stats, targetBytes, maxAge, retryAfter, firstSeq, wal, sealLock,
        clock, new HeapBudget(Long.MAX_VALUE));
  }

  private Flusher(Signal signal, int shard, int shards, int queueDepth, Publisher publisher, Stats stats,
      long targetBytes, Duration maxAge, Duration retryAfter, long firstSeq, Wal wal, ReentrantLock sealLock,
      java.util.function.LongSupplier clock, HeapBudget budget) {
    this.clock = clock;
    this.budget = budget;
    this.earlySealBytes = Math.min(EARLY_SEAL_BYTES, budget.limit() / 16);
    this.signal = signal;
    this.shard = shard;
    this.shards = shards;
    // One slot more than admission hands out, for the single wake-up job (see wakeQueued).
    this.queue = new ArrayBlockingQueue<>(queueDepth + 1);
    this.slots = new Semaphore(queueDepth);
    this.wal = wal;
    this.sealLock = sealLock;
    this.publisher = publisher;
    this.stats = stats;
    // A block is sealed at a quarter of the budget if that is less than its target: its arrays,
    // up to twice its size, and its largest column's doubling then fit the budget (a 128 MiB heap
    // seals at 16 MiB, 64 MiB at 8 MiB; the 256 MiB default keeps about the 32 MiB target).
    this.targetBytes = Math.min(targetBytes, budget.limit() / 4);
    this.maxAgeNanos = maxAge.toNanos();
    this.retryAfter = retryAfter;
    this.firstSeq = firstSeq;
    this.open = Decoders.empty(signal);
  }

  ArrayBlockingQueue<Job> queue() {
    return queue;
  }

  /**
   * Queues an admitted export (the caller holds one of {@link #slots}). Counted first, so a
   * snapshot requested after this returns waits for the export (see {@link #requestSnapshot}).
   */
  void enqueue(Job j) {
    queued.incrementAndGet();
    queue.add(j);
  }

  /** Admission tickets: one per queue slot, taken before a job is queued, returned when it is taken off. */
  Semaphore slots() {
    return slots;
  }

  /**
   * Asks the flusher to publish what it holds and return once its queue is empty. It is woken if
   * it is waiting, so the open block is sealed now rather than when it would have aged out.
   */
  void stop() {
    stopping = true;
    // Not Thread.interrupt(): an interrupt during a publish's FileChannel I/O closes the channel
    // and fails the block.
    wake();
  }

  /**
   * Ends the flusher's wait early. Queues a wake-up only if none is queued already; the one that is
   * queued is taken off before the turn that answers snapshots, so a request added before this call
   * is answered by that turn.
   */
  private void wake() {
    if (wakeQueued.compareAndSet(false, true) && !queue.offer(WAKE)) {
      // Cannot happen (the spare slot is reserved for this job); keep the flag honest regardless.
      wakeQueued.set(false);
    }
  }

  @Override
  public void run() {
    List<Job> batch = new ArrayList<>(DRAIN);
    while (!stopping || !queue.isEmpty()) {
      long wait = open.isEmpty() ? TimeUnit.MILLISECONDS.toNanos(200)
          : Math.max(0, openedAt + maxAgeNanos - clock.getAsLong());
      Job first;
      try {
        first = stopping ? queue.poll() : queue.poll(wait, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        // Nothing interrupts a flusher on purpose; treat it as a request to stop.
        stopping = true;
        continue;
      }
      if (first != null) {
        emptyAt = -1;
        batch.add(first);
        queue.drainTo(batch, DRAIN - 1);
        for (Job j : batch) {
          if (j == WAKE) {
            wakeQueued.set(false);
          } else {
            slots.release();
            append(j);
            budget.give(j.heapBytes());
            taken++;
            // After every export rather than once per drain: a drain of DRAIN exports could grow
            // the block by several doublings before the budget saw any of them.
            chargeOpen();
            if (full() && clock.getAsLong() >= retryAt) {
              seal();
            }
          }
        }
        batch.clear();
      }
      long askedBefore = asked.get();
      long now = clock.getAsLong();
      if (!open.isEmpty() && now >= retryAt && (full() || now - openedAt >= maxAgeNanos)) {
        seal();
      }
      if (!undurable.isEmpty() && now >= durableRetryAt) {
        makeDurable();
      }
      answerSnapshots(askedBefore);
      emptyAt = open.isEmpty() && sealing == null ? taken : -1;
    }
    emptyAt = -1;
    answerSnapshots(Long.MAX_VALUE);
    if (!undurable.isEmpty()) {
      // Their frames stay pending otherwise, and are replayed at the next start unless a block's
      // watermark (read back from the directory) shows them stored.
      makeDurable();
    }
    // At shutdown a block whose publish keeps failing is retried until the budget runs out; its
    // exports stay in the log and are replayed at the next start.
    while (!open.isEmpty() && !seal()) {
      if (wal == null || Thread.currentThread().isInterrupted()) {
        break;
      }
      try {
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(PUBLISH_RETRY));
      } catch (InterruptedException e) {
        break;
      }
    }
  }

  private void append(Job j) {
    if (open.isEmpty()) {
      openedAt = clock.getAsLong();
    }
    if (!open.tryAppend(j.batch())) {
      // A dictionary or the resource id space is full: seal what we have, start afresh.
      if (!sealUntilPublished()) {
        // Stopping with the log on and the block still unpublished: the export was acknowledged
        // and its frame stays pending, so the next start replays it. Never refused.
        LOG.log(Level.WARNING, signal.dir() + " shard " + shard + ": logged export " + j.seq()
            + " left in the write-ahead log for the next start (its block could not be published)");
        Decoders.recycle(j.batch());
        return;
      }
      openedAt = clock.getAsLong();
      if (!open.tryAppend(j.batch())) {
        // Cannot happen for a batch the decoder accepted; refuse it rather than loop.
        stats.failed(signal, j.records());
        if (j.ack() != null) {
          j.ack().complete(new Permanent("export does not fit an empty " + signal.dir() + " block"));
        }
        if (wal != null && j.seq() >= 0) {
          // It would not fit at the next start either; retire it rather than hold the log forever.
          wal.published(signal.ordinal(), new long[] {j.seq()});
        }
        return;
      }
    }
    Decoders.recycle(j.batch());
    if (j.ack() != null) {
      waiting.add(j);
    }
    if (j.seq() >= 0) {
      if (seqCount == seqs.length) {
        seqs = java.util.Arrays.copyOf(seqs, seqs.length * 2);
      }
      seqs[seqCount++] = j.seq();
    }
    holding = true;
  }

  /**
   * Seals the open block, and with the log on keeps retrying (every {@link #PUBLISH_RETRY}) until
   * the publish lands: the export waiting for room was acknowledged and must not be refused. False
   * only when the flusher is asked to stop first.
   */
  private boolean sealUntilPublished() {
    while (!seal()) {
      if (stopping) {
        return false;
      }
      try {
        Thread.sleep(Math.max(1, TimeUnit.NANOSECONDS.toMillis(retryAt - clock.getAsLong())));
      } catch (InterruptedException e) {
        stopping = true;
        return false;
      }
    }
    return true;
  }

  /** Retries the directory fsyncs of published blocks; retires their frames once they succeed. */
  private void makeDurable() {
    for (java.util.Iterator<Undurable> it = undurable.iterator(); it.hasNext(); ) {
      Undurable u = it.next();
      try {
        publisher.makeDurable(u.block());
      } catch (IOException e) {
        LOG.log(Level.WARNING, signal.dir() + " shard " + shard + ": block " + u.block().getFileName()
            + " is published but its directory fsync keeps failing: " + e.getMessage());
        durableRetryAt = clock.getAsLong() + PUBLISH_RETRY;
        return;
      }
      if (wal != null) {
        wal.published(signal.ordinal(), u.seqs());
      }
      it.remove();
    }
  }

  /**
   * Publishes the open block; true if it was published (or dropped without a log).
   *
   * <p>A signal's shards seal one at a time (the watermark, the publish and the retirement of its
   * frames under one lock). Otherwise two shards sealing at once would each see the other's frames
   * as pending and both name a low watermark, and the next start would replay frames that are in
   * blocks already; serialised, the block sealed last always claims everything before it.
   */
  private boolean seal() {
    sealLock.lock();
    try {
      return sealLocked();
    } finally {
      sealLock.unlock();
    }
  }

  private boolean sealLocked() {
    Batch block = open;
    long seq = nextSeq();
    sealed++;
    long records = block.records();
    long[] held = java.util.Arrays.copyOf(seqs, seqCount);
    int channel = signal.ordinal();
    // Asked before the publish, so a sibling sealing at the same instant still counts these frames.
    long walHi = wal == null ? 0 : wal.watermarkFor(channel, held);
    boolean durable = true;
    showSealing(new Sealing(block, taken, seq));
    try {
      publisher.publish(block, seq, walHi);
    } catch (UndurableBlockException e) {
      // Visible already: publishing it again would store its rows twice. Treated as published;
      // with the log its frames are retired once the fsync is made good (see makeDurable).
      LOG.log(Level.WARNING, signal.dir() + " shard " + shard + ": " + e.getMessage() + "; retrying the fsync");
      undurable.add(new Undurable(e.block(), held));
      durableRetryAt = clock.getAsLong() + PUBLISH_RETRY;
      durable = false;
    } catch (IOException | RuntimeException e) {
      showSealing(null);
      stats.publishFailed(signal, records);
      if (wal != null) {
        LOG.log(Level.WARNING, signal.dir() + " shard " + shard + ": publishing block " + seq
            + " failed, retrying in 1 s (its exports are safe in the write-ahead log): " + e);
        retryAt = clock.getAsLong() + PUBLISH_RETRY;
        return false;
      }
      LOG.log(Level.WARNING, signal.dir() + " shard " + shard + ": publishing block " + seq + " failed: " + e);
      failWaiting("storing the export failed (" + e.getMessage() + "); retry");
      reset(block);
      return true;
    }
    // Visible in the catalogue from here on (a read lists it after taking its snapshots).
    showSealing(null);
    stats.published(signal, block.byteSize());
    if (wal != null) {
      if (durable) {
        wal.published(channel, held);
      }
    } else {
      // Counted before the answers go out, so a client that was told "accepted" finds it counted.
      stats.accepted(signal, records, waiting.size());
      for (Job j : waiting) {
        j.ack().complete(new Accepted(j.records()));
      }
    }
    waiting.clear();
    reset(block);
    return true;
  }

  /**
   * Starts the next block in this one's arrays: no growth by copying once a shard is warm. While
   * the heap budget is pressed the arrays are let go instead and the next block starts small.
   */
  private void reset(Batch block) {
    if (budget.pressed()) {
      open = block.newEmpty();
    } else {
      block.clear();
      open = block;
    }
    chargeOpen();
    seqCount = 0;
    retryAt = 0;
    holding = false;
  }

  /** Whether the open block is to be sealed for its size: the target, or less while the budget is pressed. */
  private boolean full() {
    long size = open.byteSize();
    return size >= targetBytes || (budget.pressed() && size >= earlySealBytes);
  }

  /**
   * Brings the open block's charge to what its arrays hold now plus what its next growth holds at
   * once: a column grows by copying into an array twice its size, old and new both live until the
   * copy is done, so the largest column's doubling is charged before it happens. Charging only
   * what the arrays hold let a 32 MiB block's doubling overrun a 128 MiB heap (OutOfMemoryError
   * in VarColumn.reserve).
   */
  private void chargeOpen() {
    long now = open.capacityBytes() + 2 * open.largestColumnBytes();
    if (now != openCharged) {
      budget.adjust(now - openCharged);
      openCharged = now;
    }
  }

  private void showSealing(Sealing s) {
    viewLock.lock();
    try {
      sealing = s;
    } finally {
      viewLock.unlock();
    }
  }

  /**
   * True when every export queued before this call is published and the shard holds no rows, so a
   * read can skip {@link #requestSnapshot} (a round trip to this shard's thread, which on a busy
   * machine waits for a core). {@code queued} is read first: if the shard last ended a turn empty
   * with exactly that many taken, each of them was taken (first in, first out) and published, and
   * an export queued after the read was not acknowledged before it. The shard clears the mark
   * before it appends anything.
   */
  boolean idleAndEmpty() {
    long q = queued.get();
    return emptyAt == q;
  }

  /**
   * Asks for a copy of the open block holding every export queued before this call (every
   * acknowledged one). It is answered on this shard's next turn after those exports are taken off
   * the queue; the answer is null when the block holds nothing.
   */
  SnapshotRequest requestSnapshot() {
    SnapshotRequest r = new SnapshotRequest(queued.get(), asked.incrementAndGet(), new CompletableFuture<>());
    snapshotRequests.add(r);
    wake();
    return r;
  }

  /**
   * While this shard publishes a block that holds everything {@code r} waits for, a copy of that
   * block made on the caller's thread (and {@code r} withdrawn); otherwise null, and the caller
   * keeps waiting for the answer. The copy is what the shard would answer: nothing is appended
   * during a publish, and once the block is visible in the catalogue a read drops its copy.
   */
  Snapshot sealingSnapshot(SnapshotRequest r) {
    viewLock.lock();
    try {
      Sealing s = sealing;
      if (s == null || s.taken() < r.want() || r.answer().isDone()) {
        return null;
      }
      snapshotRequests.remove(r);
      BlockName name = new BlockName(s.block().minTime(), s.block().maxTime(), publisher.node(), s.seq(), 0);
      return new Snapshot(openRef(name), s.block().snapshot());
    } finally {
      viewLock.unlock();
    }
  }

  /** The snapshot answered last (a query that cannot wait for a busy shard reads this one). */
  Snapshot lastSnapshot() {
    return lastSnapshot;
  }

  private BlockRef openRef(BlockName name) {
    return new BlockRef(signal, name, publisher.signalDir().resolve(".open").resolve(name.dirName()));
  }

  private void answerSnapshots(long upTo) {
    if (snapshotRequests.isEmpty()) {
      return;
    }
    long now = taken;
    Snapshot s = null;
    boolean made = false;
    for (java.util.Iterator<SnapshotRequest> it = snapshotRequests.iterator(); it.hasNext(); ) {
      SnapshotRequest r = it.next();
      if (r.want() > now || r.ticket() > upTo) {
        continue;
      }
      if (!made) {
        s = current();
        made = true;
      }
      it.remove();
      r.answer().complete(s);
    }
  }

  /** A copy of the open block (the last one again while nothing changed), or null when it is empty. */
  private Snapshot current() {
    Snapshot s = null;
    if (!open.isEmpty()) {
      if (lastSnapshot != null && lastSnapshotRows == open.rows() && lastSnapshot.ref().name().seq() == nextSeq()) {
        s = lastSnapshot;
      } else {
        BlockName name = new BlockName(open.minTime(), open.maxTime(), publisher.node(), nextSeq(), 0);
        s = new Snapshot(openRef(name), open.snapshot());
        lastSnapshotRows = open.rows();
      }
    }
    lastSnapshot = s;
    return s;
  }

  /** The sequence the open block will be published under. */
  private long nextSeq() {
    return firstSeq + shard + (long) shards * sealed;
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
      if (j != WAKE && j.ack() != null) {
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
