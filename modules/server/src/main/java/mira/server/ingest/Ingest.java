package mira.server.ingest;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mira.block.Decoders;
import mira.block.publish.Publisher;
import mira.block.read.OpenBlocks;
import mira.block.read.Snapshot;
import mira.block.table.Batch;
import mira.block.table.TooLargeException;
import mira.proto.wire.Signal;
import mira.proto.wire.WireException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import mira.wal.Replayed;
import mira.wal.Wal;

/**
 * The ingest pipeline: decodes an export on the caller's thread, admits it to one of its signal's
 * shards and waits for the shard to publish the block holding it.
 *
 * <p>Admission tries every shard's queue in order without waiting (first fit, so a quiet node
 * fills one block at a time rather than one per shard), and only when all are full waits up to
 * {@link #ADMIT_WAIT} on one shard chosen by a turn counter. Only that timeout sheds, with a retry
 * hint: the request is already decoded, so parking it is cheaper than making the client resend.
 */
public final class Ingest implements IngestSink, OpenBlocks, AutoCloseable {
  private static final Logger LOG = System.getLogger(Ingest.class.getName());

  /** Seal a block once its Arrow tables reach this size. A constant, not a setting. */
  public static final long TARGET_BLOCK_BYTES = 32L << 20;
  /** Seal a block this long after its first export arrived. A constant, not a setting. */
  public static final Duration MAX_BLOCK_AGE = Duration.ofSeconds(2);
  /** How long an export may wait for room in a queue before it is shed. */
  public static final Duration ADMIT_WAIT = Duration.ofSeconds(5);
  /** The retry hint given to shed exports and failed publishes. */
  public static final Duration RETRY_AFTER = Duration.ofMillis(250);
  /** How often the log is fsynced: what a power cut can take at most. */
  public static final Duration WAL_SYNC = Duration.ofMillis(200);

  private final Map<Signal, Flusher[]> shards = new EnumMap<>(Signal.class);
  private final Map<Signal, AtomicInteger> turns = new EnumMap<>(Signal.class);
  private final List<Thread> threads = new ArrayList<>();
  private final Stats stats = new Stats();
  private final BufferAllocator allocator;
  private final Thread.UncaughtExceptionHandler onFatal;
  private final Duration admitWait;
  private volatile boolean closed;

  private final HeapBudget budget;

  private Ingest(BufferAllocator allocator, Thread.UncaughtExceptionHandler onFatal, Duration admitWait, HeapBudget budget) {
    this.allocator = allocator;
    this.onFatal = onFatal;
    this.admitWait = admitWait;
    this.budget = budget;
  }

  /**
   * How the pipeline runs.
   *
   * @param node this node's name (blocks and the log are per node)
   * @param shards flushers per signal
   * @param queueTotal queue slots per signal, split across its shards (rounded up)
   * @param wal acknowledge from the write-ahead log (true) or after the publish (false)
   * @param maxRequestBytes the largest export body, which is also the largest log frame
   * @param admitWait how long an export may wait for a queue slot before it is shed
   * @param blockAge an open block is sealed once its first export is this old
   */
  public record Options(String node, int shards, int queueTotal, boolean wal, int maxRequestBytes, Duration admitWait,
      Duration blockAge, long heapBudget) {
    /** With the production block age, {@link #MAX_BLOCK_AGE}, and half the maximum heap as the budget. */
    public Options(String node, int shards, int queueTotal, boolean wal, int maxRequestBytes, Duration admitWait) {
      this(node, shards, queueTotal, wal, maxRequestBytes, admitWait, MAX_BLOCK_AGE, HeapBudget.defaultLimit());
    }

    public Options withAdmitWait(Duration d) {
      return new Options(node, shards, queueTotal, wal, maxRequestBytes, d, blockAge, heapBudget);
    }

    public Options withWal(boolean on) {
      return new Options(node, shards, queueTotal, on, maxRequestBytes, admitWait, blockAge, heapBudget);
    }

    /** Seals blocks at {@code age} instead (tests: many seals in a short run; no setting exposes it). */
    public Options withBlockAge(Duration age) {
      return new Options(node, shards, queueTotal, wal, maxRequestBytes, admitWait, age, heapBudget);
    }

    /**
     * Holds at most {@code bytes} of heap in export bodies, queued exports and open blocks (tests;
     * the server uses {@link HeapBudget#HEAP_SHARE} of the maximum heap, and no setting exposes it).
     */
    public Options withHeapBudget(long bytes) {
      return new Options(node, shards, queueTotal, wal, maxRequestBytes, admitWait, blockAge, bytes);
    }
  }

  /** Without the write-ahead log (acknowledge after publish), the default admission wait. */
  public static Ingest start(Path dataDir, String node, int shardsPerSignal, int queueTotal,
      Thread.UncaughtExceptionHandler onFatal) throws IOException {
    return start(dataDir, new Options(node, shardsPerSignal, queueTotal, false, 16 << 20, ADMIT_WAIT), onFatal);
  }

  /** Without the write-ahead log, with a chosen admission wait (tests). */
  public static Ingest start(Path dataDir, String node, int shardsPerSignal, int queueTotal,
      Thread.UncaughtExceptionHandler onFatal, Duration admitWait) throws IOException {
    return start(dataDir, new Options(node, shardsPerSignal, queueTotal, false, 16 << 20, admitWait), onFatal);
  }

  /**
   * Prepares every signal's directory (sweeping this node's stale staging directories, reading where
   * its sequence numbers and its log watermarks resume), starts the flushers and, with the log on,
   * replays every logged export not yet in a published block — all before returning, so before any
   * listener binds.
   *
   * @param onFatal called if a flusher dies: the process must not carry on with a signal that can
   *     no longer store anything behind a green probe
   */
  public static Ingest start(Path dataDir, Options o, Thread.UncaughtExceptionHandler onFatal) throws IOException {
    return start(dataDir, o, mira.fs.Fs.REAL, onFatal);
  }

  /** As {@link #start(Path, Options, Thread.UncaughtExceptionHandler)}, writing the log and blocks through {@code files} (tests). */
  static Ingest start(Path dataDir, Options o, mira.fs.Fs files, Thread.UncaughtExceptionHandler onFatal)
      throws IOException {
    Ingest in = new Ingest(new RootAllocator(), onFatal, o.admitWait(), new HeapBudget(o.heapBudget()));
    int depth = Math.max(1, (o.queueTotal() + o.shards() - 1) / o.shards());
    Publisher[] publishers = new Publisher[Signal.values().length];
    Wal.Recovering recovering = null;
    long[] watermarks = new long[publishers.length];
    for (Signal s : Signal.values()) {
      Publisher p = new Publisher(dataDir, s, o.node(), in.allocator, files);
      int swept = p.sweepStaging();
      if (swept > 0) {
        LOG.log(Level.INFO, s.dir() + ": removed " + swept + " staging directories left by an earlier run");
      }
      publishers[s.ordinal()] = p;
      watermarks[s.ordinal()] = p.walWatermark();
    }
    if (o.wal()) {
      Path walDir = dataDir.resolve("wal").resolve(mira.block.catalog.BlockName.nodeHex(mira.block.catalog.BlockName.nodeId(o.node())));
      recovering = Wal.recover(walDir, publishers.length, o.maxRequestBytes(), watermarks, files);
      in.wal = recovering.wal();
    }
    for (Signal s : Signal.values()) {
      Publisher p = publishers[s.ordinal()];
      long resume = p.resumeSequence();
      Flusher[] fs = new Flusher[o.shards()];
      java.util.concurrent.locks.ReentrantLock sealLock = new java.util.concurrent.locks.ReentrantLock();
      for (int k = 0; k < fs.length; k++) {
        fs[k] = new Flusher(s, k, fs.length, depth, p, in.stats, TARGET_BLOCK_BYTES, o.blockAge(), RETRY_AFTER,
            resume, in.wal, sealLock, in.budget);
        Thread t = Thread.ofPlatform().name("flusher-" + s.dir() + "-" + k).uncaughtExceptionHandler(onFatal).unstarted(fs[k]);
        in.threads.add(t);
      }
      in.shards.put(s, fs);
      in.turns.put(s, new AtomicInteger());
    }
    for (Thread t : in.threads) {
      t.start();
    }
    if (in.wal != null) {
      try {
        in.replayed = recovering.replay(in::requeueReplayed);
      } catch (IOException | RuntimeException e) {
        in.close();
        throw e;
      }
      in.logReplayed();
      in.maintenance = Thread.ofPlatform().daemon().name("wal-sync").start(in::maintain);
    }
    return in;
  }

  private Wal wal;
  private Replayed replayed;
  private Thread maintenance;

  /**
   * Decodes one logged export found at open and queues it on its shard, with the flushers already
   * running: replay waits for a queue slot and for room in the heap budget as a request would (but
   * never sheds), so a log of any size replays in bounded memory.
   */
  private boolean requeueReplayed(int channel, long seq, byte[] body) {
    Signal s = Signal.values()[channel];
    Batch b;
    try {
      b = Decoders.decode(s, body, 0, body.length, System.currentTimeMillis() * 1_000_000L);
    } catch (WireException | TooLargeException | RuntimeException e) {
      LOG.log(Level.WARNING, s.dir() + ": logged export " + seq + " does not decode and is dropped: " + e.getMessage());
      return false;
    }
    long held = b.capacityBytes();
    while (!budget.tryTake(held)) {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        // Startup is not interruptible in parts: finish queueing what the log holds.
      }
    }
    Flusher[] fs = shards.get(s);
    Flusher f = fs[(int) Math.floorMod(seq, (long) fs.length)];
    f.slots().acquireUninterruptibly();
    f.enqueue(new Job(b, b.records(), seq, null, held));
    return true;
  }

  private void logReplayed() {
    if (replayed.replayed() > 0 || replayed.damaged() > 0 || replayed.rejected() > 0) {
      LOG.log(Level.INFO, "write-ahead log: replayed " + replayed.replayed() + " exports, " + replayed.skipped()
          + " already published, " + replayed.rejected() + " undecodable and dropped");
    }
    for (String note : replayed.notes()) {
      LOG.log(Level.WARNING, "write-ahead log: " + note);
    }
  }

  /**
   * Syncs the log every {@link #WAL_SYNC} and then deletes the segments whose frames are all in
   * blocks: at most one sync period after a publish, so the log holds little more than what open
   * blocks have not sealed yet (reclaiming costs a scan of the pending sets when nothing is freed).
   */
  private void maintain() {
    while (!closed) {
      try {
        Thread.sleep(WAL_SYNC.toMillis());
        boolean wasFailed = wal.failure() != null;
        wal.sync();
        if (wasFailed && wal.failure() == null) {
          LOG.log(Level.INFO, "write-ahead log: every export held before the failed fsync is in a block; "
              + "acknowledging again on a new segment");
        }
      } catch (InterruptedException e) {
        return;
      } catch (IOException e) {
        LOG.log(Level.ERROR, "write-ahead log fsync failed: " + e.getMessage() + "; exports are refused (retry) "
            + "until every export the log held is stored in a block, then the log starts a new segment");
      }
      try {
        wal.reclaim();
      } catch (IOException e) {
        // Segments that could not be deleted stay until a later reclaim; nothing is lost.
        LOG.log(Level.WARNING, "write-ahead log: deleting published segments failed: " + e.getMessage());
      }
    }
  }

  /** What opening the write-ahead log replayed (null without a log). */
  public Replayed replayed() {
    return replayed;
  }

  /** Why the write-ahead log refuses appends (a failed fsync), or null. */
  public String walFailure() {
    return wal == null ? null : wal.failure();
  }

  /** Bytes held by the write-ahead log (0 without one). */
  public long walBytes() {
    return wal == null ? 0 : wal.bytes();
  }

  @Override
  public void refusedAtReceiver(Signal signal, int httpStatus) {
    stats.refusedAtReceiver(signal, httpStatus);
  }

  public Stats stats() {
    return stats;
  }

  /**
   * How long a read waits for a shard's snapshot before using its previous one. A shard answers on
   * its next turn, or at once from the block it is publishing, so only a shard stuck in one turn
   * (a single export's append, on a machine starved of CPU) makes a read wait this long.
   */
  static final Duration SNAPSHOT_WAIT = Duration.ofSeconds(5);
  /** How often a waiting read looks for a block under publish that already holds what it needs. */
  private static final long SEALING_POLL = TimeUnit.MILLISECONDS.toNanos(2);

  /**
   * Read-your-writes: a copy of each of the signal's open blocks that holds rows. Every export
   * acknowledged before this call is in a published block (listed by the caller after this
   * returns) or in one of these; a shard that cannot answer within {@link #SNAPSHOT_WAIT} is
   * represented by its previous snapshot, and that is counted in the stats as a stale read.
   */
  @Override
  public List<Snapshot> snapshot(Signal signal) {
    Flusher[] fs = shards.get(signal);
    if (fs == null || closed) {
      return List.of();
    }
    List<Flusher.SnapshotRequest> asks = new ArrayList<>(fs.length);
    for (Flusher f : fs) {
      // An idle shard with nothing open has nothing to copy: not waking it saves a round trip
      // between threads on every read of a quiet node (docs/performance.md, "Answers over HTTP").
      asks.add(f.idleAndEmpty() ? null : f.requestSnapshot());
    }
    List<Snapshot> out = new ArrayList<>(fs.length);
    long deadline = System.nanoTime() + SNAPSHOT_WAIT.toNanos();
    for (int i = 0; i < fs.length; i++) {
      if (asks.get(i) == null) {
        continue;
      }
      Snapshot s = await(signal, fs[i], asks.get(i), deadline);
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }

  private Snapshot await(Signal signal, Flusher f, Flusher.SnapshotRequest ask, long deadline) {
    try {
      while (true) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        try {
          return ask.answer().get(Math.min(left, SEALING_POLL), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
          // The shard may be publishing: its sealed block then holds what this read needs.
          Snapshot s = f.sealingSnapshot(ask);
          if (s != null) {
            return s;
          }
        }
      }
    } catch (java.util.concurrent.ExecutionException e) {
      // Never completed exceptionally; fall through to the previous snapshot.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    stats.staleSnapshot(signal);
    return f.lastSnapshot();
  }

  /** A signal's shards (tests reach a flusher's queue through it). */
  Flusher[] flushers(Signal signal) {
    return shards.get(signal);
  }

  /** How many of a signal's shards hold an open block with rows in it right now. */
  public int openBlocks(Signal signal) {
    int n = 0;
    Flusher[] fs = shards.get(signal);
    if (fs != null) {
      for (Flusher f : fs) {
        if (f.holdsOpenBlock()) {
          n++;
        }
      }
    }
    return n;
  }

  @Override
  public Outcome submit(Signal signal, byte[] body, int length) {
    Flusher[] fs = shards.get(signal);
    if (fs == null) {
      return new Permanent(signal.dir() + " are not stored by this build yet");
    }
    if (closed) {
      return new Retry("shutting down", RETRY_AFTER);
    }
    // The body is charged from here until this returns (the caller drops it then); the decoded
    // export from its decoding until its flusher has appended it.
    if (!budget.tryTake(length)) {
      return shedForMemory(signal, -1);
    }
    try {
      return submitCharged(signal, fs, body, length);
    } finally {
      budget.give(length);
    }
  }

  private Outcome submitCharged(Signal signal, Flusher[] fs, byte[] body, int length) {
    Batch batch;
    try {
      batch = Decoders.decode(signal, body, 0, length, System.currentTimeMillis() * 1_000_000L);
    } catch (WireException e) {
      stats.invalid(signal);
      return new Invalid("invalid " + exportName(signal) + ": " + e.getMessage());
    } catch (TooLargeException e) {
      stats.invalid(signal);
      return new Permanent("export can never be stored: " + e.getMessage());
    }
    if (batch.isEmpty()) {
      stats.accepted(signal, 0, 1);
      return new Accepted(0);
    }
    long records = batch.records();
    long held = batch.capacityBytes();
    if (!budget.tryTake(held, length)) {
      Decoders.recycle(batch);
      return shedForMemory(signal, records);
    }
    boolean queued = false;
    try {
      Flusher f = admit(signal, fs);
      if (f == null) {
        stats.shed(signal, records);
        Decoders.recycle(batch);
        return new Retry("overloaded: every " + signal.dir() + " queue stayed full for " + admitWait.toSeconds() + " s",
            RETRY_AFTER);
      }
      if (wal != null) {
        // The export is acknowledged once its frame is written; it is queued inside the log's lock
        // so it is pending before any block can compute a watermark past it.
        try {
          wal.append(signal.ordinal(), body, 0, length, seq -> f.enqueue(new Job(batch, records, seq, null, held)));
          queued = true;
        } catch (IOException e) {
          f.slots().release();
          Decoders.recycle(batch);
          stats.publishFailed(signal, 0);
          return new Retry(e.getMessage() + "; retry", RETRY_AFTER);
        }
        stats.accepted(signal, records, 1);
        return new Accepted(records);
      }
      Job job = new Job(batch, records, -1, new Ack(), held);
      queued = true;
      f.enqueue(job);
      // The flusher answers within a block age plus a publish; this bound only guards against a
      // flusher that died without answering (which also stops the process).
      Outcome o = job.ack().await(TimeUnit.MINUTES.toNanos(2));
      return o != null ? o : new Retry("storing the export timed out", RETRY_AFTER);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Retry("interrupted", RETRY_AFTER);
    } finally {
      if (!queued) {
        // Once queued, the flusher gives it back after appending the rows.
        budget.give(held);
      }
    }
  }

  @Override
  public Retry reserve(Signal signal, long bytes) {
    return budget.tryTake(bytes) ? null : shedForMemory(signal, -1);
  }

  @Override
  public void release(long bytes) {
    budget.give(bytes);
  }

  /** Sheds an export because the heap budget is spent; {@code records} is -1 before decoding. */
  private Retry shedForMemory(Signal signal, long records) {
    stats.shed(signal, Math.max(0, records));
    stats.shedForMemory(signal);
    return new Retry("overloaded: ingest holds " + size(budget.held()) + " of its " + size(budget.limit())
        + " heap budget", RETRY_AFTER);
  }

  private static String size(long bytes) {
    return bytes >= 10L << 20 ? (bytes >> 20) + " MiB" : (bytes >> 10) + " KiB";
  }

  /** Bytes of heap ingest holds now (bodies, queued exports, open blocks) and its budget. */
  public long heapHeld() {
    return budget.held();
  }

  /** The heap budget of ingest, in bytes. */
  public long heapBudget() {
    return budget.limit();
  }

  /** Takes a queue slot: first fit without waiting, then a bounded wait on one shard; null if shed. */
  private Flusher admit(Signal signal, Flusher[] fs) throws InterruptedException {
    for (Flusher f : fs) {
      if (f.slots().tryAcquire()) {
        return f;
      }
    }
    Flusher f = fs[Math.floorMod(turns.get(signal).getAndIncrement(), fs.length)];
    return f.slots().tryAcquire(admitWait.toNanos(), TimeUnit.NANOSECONDS) ? f : null;
  }

  private static String exportName(Signal s) {
    return switch (s) {
      case LOGS -> "ExportLogsServiceRequest";
      case TRACES -> "ExportTraceServiceRequest";
      case METRICS -> "ExportMetricsServiceRequest";
    };
  }

  /**
   * Stops admitting, lets every flusher publish what it holds and waits for them, at most
   * {@code timeout}.
   */
  public synchronized void close(Duration timeout) {
    if (closed) {
      return;
    }
    closed = true;
    for (Flusher[] fs : shards.values()) {
      for (Flusher f : fs) {
        f.stop();
      }
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Thread t : threads) {
      try {
        t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      if (t.isAlive()) {
        LOG.log(Level.WARNING, t.getName() + " did not finish within " + timeout);
      }
    }
    for (Flusher[] fs : shards.values()) {
      for (Flusher f : fs) {
        f.failQueued();
      }
    }
    if (maintenance != null) {
      maintenance.interrupt();
    }
    if (wal != null) {
      try {
        wal.reclaim();
        wal.close();
      } catch (IOException e) {
        LOG.log(Level.WARNING, "closing the write-ahead log: " + e.getMessage());
      }
    }
    allocator.close();
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(15));
  }
}
