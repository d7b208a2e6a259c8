package mira.server.retention;

import mira.block.catalog.ColdFormat;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.List;
import mira.block.catalog.BlockName;
import mira.block.cold.Compactor;
import mira.block.retention.Retention;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Sweeps expired blocks, then moves up to {@link Compactor#MAX_PER_SWEEP} hour-old blocks to the
 * cold tier, every {@link #INTERVAL} on its own thread. A sweep that fails is logged and
 * retried next interval; one that has not completed for three intervals is "stalled", which
 * {@code /api/v1/stats} reports and the log says once, so a disk filling up behind a dead sweeper is
 * visible before it is full. A second thread watches for the stall, so the log says it even if no
 * one reads the stats and even if the sweeping thread itself is stuck.
 */
public final class RetentionSweeper implements AutoCloseable {
  public static final Duration INTERVAL = Duration.ofSeconds(60);
  private static final Logger LOG = System.getLogger(RetentionSweeper.class.getName());

  private final Path dataDir;
  private final Duration ttl;
  private final ColdFormat format;
  private final String nodeHex;
  private final BufferAllocator allocator = new RootAllocator();
  private final AtomicLong blocksCompacted = new AtomicLong();
  private final Duration interval;
  private final LongSupplier clock;
  private final Thread thread;
  private final Thread watch;
  private final AtomicLong lastSweepMillis;
  private final AtomicLong blocksRemoved = new AtomicLong();
  private final AtomicLong bytesRemoved = new AtomicLong();
  private final AtomicReference<String> lastError = new AtomicReference<>();
  private final AtomicBoolean stallReported = new AtomicBoolean();
  /** Set by {@link #close}: the sweep stops after the block it is compacting, and the loop ends. */
  private final java.util.concurrent.CountDownLatch closing = new java.util.concurrent.CountDownLatch(1);

  /**
   * @param node this node's name: staged cold-tier files carry its id
   * @param format how blocks are written into the cold tier
   */
  public RetentionSweeper(Path dataDir, Duration ttl, String node, ColdFormat format) {
    this(dataDir, ttl, node, format, INTERVAL, System::currentTimeMillis);
  }

  /** With another interval and wall clock (milliseconds): for tests. */
  RetentionSweeper(Path dataDir, Duration ttl, String node, ColdFormat format, Duration interval, LongSupplier clock) {
    this.dataDir = dataDir;
    this.ttl = ttl;
    this.format = format;
    this.nodeHex = BlockName.nodeHex(BlockName.nodeId(node));
    this.interval = interval;
    this.clock = clock;
    this.lastSweepMillis = new AtomicLong(clock.getAsLong());
    this.thread = Thread.ofPlatform().daemon().name("retention").start(this::loop);
    this.watch = Thread.ofPlatform().daemon().name("retention-watch").start(this::watchLoop);
  }

  private void loop() {
    while (!Thread.currentThread().isInterrupted() && closing.getCount() > 0) {
      sweepOnce();
      try {
        if (closing.await(interval.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
          return;
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void watchLoop() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(interval.toMillis());
      } catch (InterruptedException e) {
        return;
      }
      stalled();
    }
  }

  /** One sweep now (also what the timer runs). */
  public void sweepOnce() {
    long cutoff = clock.getAsLong() * 1_000_000L - ttl.toNanos();
    try {
      Retention.Swept s = Retention.sweep(dataDir, cutoff);
      blocksRemoved.addAndGet(s.blocks());
      bytesRemoved.addAndGet(s.bytes());
      lastSweepMillis.set(clock.getAsLong());
      lastError.set(null);
      stallReported.set(false);
      if (s.blocks() > 0) {
        LOG.log(Level.INFO, "retention removed " + s.blocks() + " blocks (" + s.bytes() + " bytes) older than " + ttl);
      }
      List<Path> cold = Compactor.sweep(dataDir, nodeHex, clock.getAsLong() * 1_000_000L, format, allocator,
          mira.fs.Fs.REAL, () -> closing.getCount() == 0);
      blocksCompacted.addAndGet(cold.size());
    } catch (Exception e) {
      lastError.set(e.toString());
      LOG.log(Level.WARNING, "retention sweep failed (retrying in " + interval.toSeconds() + " s): " + e);
    }
  }

  /** True if no sweep has completed for three intervals. */
  public boolean stalled() {
    boolean stalled = clock.getAsLong() - lastSweepMillis.get() > 3 * interval.toMillis();
    if (stalled && stallReported.compareAndSet(false, true)) {
      long ms = 3 * interval.toMillis();
      LOG.log(Level.WARNING, "retention has not completed a sweep for " + (ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms")
          + "; expired data is not being removed" + (lastError.get() == null ? "" : " (" + lastError.get() + ")"));
    }
    return stalled;
  }

  public Duration ttl() {
    return ttl;
  }

  public long lastSweepMillis() {
    return lastSweepMillis.get();
  }

  public long blocksRemoved() {
    return blocksRemoved.get();
  }

  public long bytesRemoved() {
    return bytesRemoved.get();
  }

  public String lastError() {
    return lastError.get();
  }

  /** Blocks moved to the cold tier by this process. */
  public long blocksCompacted() {
    return blocksCompacted.get();
  }

  /**
   * Stops the sweeps. A compaction under way finishes its block (a second or so for a full one)
   * rather than being interrupted: an interrupt closes the files it reads and writes part-way, and
   * the buffers Arrow had read for it were then never released. Only a sweep still running after
   * 30 s is interrupted. Buffers still held at the end are logged, not thrown: the process is
   * stopping, and the rest of the node (the ingest shards' last seal) must still be closed.
   */
  @Override
  public void close() {
    closing.countDown();
    watch.interrupt();
    try {
      watch.join(5_000);
      thread.join(30_000);
      if (thread.isAlive()) {
        thread.interrupt();
        thread.join(5_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      allocator.close();
    } catch (IllegalStateException e) {
      LOG.log(Level.WARNING, "retention: buffers still held at shutdown: " + e.getMessage().lines().findFirst().orElse(""));
    }
  }
}
