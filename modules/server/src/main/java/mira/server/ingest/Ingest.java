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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mira.block.Decoders;
import mira.block.publish.Publisher;
import mira.block.table.Batch;
import mira.block.table.TooLargeException;
import mira.proto.wire.Signal;
import mira.proto.wire.WireException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The ingest pipeline: decodes an export on the caller's thread, admits it to one of its signal's
 * shards and waits for the shard to publish the block holding it.
 *
 * <p>Admission tries every shard's queue in order without waiting (first fit, so a quiet node
 * fills one block at a time rather than one per shard), and only when all are full waits up to
 * {@link #ADMIT_WAIT} on one shard chosen by a turn counter. Only that timeout sheds, with a retry
 * hint: the request is already decoded, so parking it is cheaper than making the client resend.
 */
public final class Ingest implements IngestSink, AutoCloseable {
  private static final Logger LOG = System.getLogger(Ingest.class.getName());

  /** Seal a block once its Arrow tables reach this size. A constant, not a setting. */
  public static final long TARGET_BLOCK_BYTES = 32L << 20;
  /** Seal a block this long after its first export arrived. A constant, not a setting. */
  public static final Duration MAX_BLOCK_AGE = Duration.ofSeconds(2);
  /** How long an export may wait for room in a queue before it is shed. */
  public static final Duration ADMIT_WAIT = Duration.ofSeconds(5);
  /** The retry hint given to shed exports and failed publishes. */
  public static final Duration RETRY_AFTER = Duration.ofMillis(250);

  private final Map<Signal, Flusher[]> shards = new EnumMap<>(Signal.class);
  private final Map<Signal, AtomicInteger> turns = new EnumMap<>(Signal.class);
  private final List<Thread> threads = new ArrayList<>();
  private final Stats stats = new Stats();
  private final BufferAllocator allocator;
  private final Thread.UncaughtExceptionHandler onFatal;
  private final Duration admitWait;
  private volatile boolean closed;

  private Ingest(BufferAllocator allocator, Thread.UncaughtExceptionHandler onFatal, Duration admitWait) {
    this.allocator = allocator;
    this.onFatal = onFatal;
    this.admitWait = admitWait;
  }

  /**
   * Prepares every signal's directory (sweeping this node's stale staging directories and reading
   * where its sequence numbers resume) and starts the flushers.
   *
   * @param shardsPerSignal flushers per signal
   * @param queueTotal queue slots per signal, split across its shards (rounded up)
   * @param onFatal called if a flusher dies: the process must not carry on with a signal that can
   *     no longer store anything behind a green probe
   */
  public static Ingest start(Path dataDir, String node, int shardsPerSignal, int queueTotal,
      Thread.UncaughtExceptionHandler onFatal) throws IOException {
    return start(dataDir, node, shardsPerSignal, queueTotal, onFatal, ADMIT_WAIT);
  }

  /** As {@link #start(Path, String, int, int, Thread.UncaughtExceptionHandler)} with a chosen admission wait (tests). */
  public static Ingest start(Path dataDir, String node, int shardsPerSignal, int queueTotal,
      Thread.UncaughtExceptionHandler onFatal, Duration admitWait) throws IOException {
    Ingest in = new Ingest(new RootAllocator(), onFatal, admitWait);
    int depth = Math.max(1, (queueTotal + shardsPerSignal - 1) / shardsPerSignal);
    for (Signal s : Signal.values()) {
      Publisher p = new Publisher(dataDir, s, node, in.allocator);
      int swept = p.sweepStaging();
      if (swept > 0) {
        LOG.log(Level.INFO, s.dir() + ": removed " + swept + " staging directories left by an earlier run");
      }
      long resume = p.resumeSequence();
      Flusher[] fs = new Flusher[shardsPerSignal];
      for (int k = 0; k < fs.length; k++) {
        fs[k] = new Flusher(s, k, fs.length, depth, p, in.stats, TARGET_BLOCK_BYTES, MAX_BLOCK_AGE, RETRY_AFTER, resume);
        Thread t = Thread.ofPlatform().name("flusher-" + s.dir() + "-" + k).uncaughtExceptionHandler(onFatal).unstarted(fs[k]);
        in.threads.add(t);
      }
      in.shards.put(s, fs);
      in.turns.put(s, new AtomicInteger());
    }
    for (Thread t : in.threads) {
      t.start();
    }
    return in;
  }

  public Stats stats() {
    return stats;
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
    Job job = new Job(batch, batch.records(), new Ack());
    try {
      if (!admit(signal, fs, job)) {
        stats.shed(signal, batch.records());
        return new Retry("overloaded: every " + signal.dir() + " queue stayed full for " + admitWait.toSeconds() + " s",
            RETRY_AFTER);
      }
      // The flusher answers within a block age plus a publish; this bound only guards against a
      // flusher that died without answering (which also stops the process).
      Outcome o = job.ack().await(TimeUnit.MINUTES.toNanos(2));
      return o != null ? o : new Retry("storing the export timed out", RETRY_AFTER);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Retry("interrupted", RETRY_AFTER);
    }
  }

  private boolean admit(Signal signal, Flusher[] fs, Job job) throws InterruptedException {
    for (Flusher f : fs) {
      if (f.queue().offer(job)) {
        return true;
      }
    }
    int turn = Math.floorMod(turns.get(signal).getAndIncrement(), fs.length);
    ArrayBlockingQueue<Job> q = fs[turn].queue();
    return q.offer(job, admitWait.toNanos(), TimeUnit.NANOSECONDS);
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
    allocator.close();
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(15));
  }
}
