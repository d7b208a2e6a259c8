package mira.server.launch;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.List;
import mira.block.BlockName;
import mira.block.cold.Compactor;
import mira.block.retention.Retention;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Sweeps expired blocks, then moves up to {@link Compactor#MAX_PER_SWEEP} hour-old blocks to the
 * cold tier, every {@link #INTERVAL} on its own thread. A sweep that fails is logged and
 * retried next interval; one that has not completed for three intervals is "stalled", which
 * {@code /api/v1/stats} reports and the log says once, so a disk filling up behind a dead sweeper is
 * visible before it is full.
 */
public final class RetentionSweeper implements AutoCloseable {
  public static final Duration INTERVAL = Duration.ofSeconds(60);
  private static final Logger LOG = System.getLogger(RetentionSweeper.class.getName());

  private final Path dataDir;
  private final Duration ttl;
  private final String nodeHex;
  private final BufferAllocator allocator = new RootAllocator();
  private final AtomicLong blocksCompacted = new AtomicLong();
  private final Thread thread;
  private final AtomicLong lastSweepMillis = new AtomicLong(System.currentTimeMillis());
  private final AtomicLong blocksRemoved = new AtomicLong();
  private final AtomicLong bytesRemoved = new AtomicLong();
  private final AtomicReference<String> lastError = new AtomicReference<>();
  private volatile boolean stallReported;

  /** @param node this node's name: staged cold-tier files carry its id */
  public RetentionSweeper(Path dataDir, Duration ttl, String node) {
    this.dataDir = dataDir;
    this.ttl = ttl;
    this.nodeHex = BlockName.nodeHex(BlockName.nodeId(node));
    this.thread = Thread.ofPlatform().daemon().name("retention").start(this::loop);
  }

  private void loop() {
    while (!Thread.currentThread().isInterrupted()) {
      sweepOnce();
      try {
        Thread.sleep(INTERVAL.toMillis());
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** One sweep now (also what the timer runs). */
  public void sweepOnce() {
    long cutoff = System.currentTimeMillis() * 1_000_000L - ttl.toNanos();
    try {
      Retention.Swept s = Retention.sweep(dataDir, cutoff);
      blocksRemoved.addAndGet(s.blocks());
      bytesRemoved.addAndGet(s.bytes());
      lastSweepMillis.set(System.currentTimeMillis());
      lastError.set(null);
      stallReported = false;
      if (s.blocks() > 0) {
        LOG.log(Level.INFO, "retention removed " + s.blocks() + " blocks (" + s.bytes() + " bytes) older than " + ttl);
      }
      List<Path> cold = Compactor.sweep(dataDir, nodeHex, System.currentTimeMillis() * 1_000_000L, allocator);
      blocksCompacted.addAndGet(cold.size());
    } catch (Exception e) {
      lastError.set(e.toString());
      LOG.log(Level.WARNING, "retention sweep failed (retrying in " + INTERVAL.toSeconds() + " s): " + e);
    }
  }

  /** True if no sweep has completed for three intervals. */
  public boolean stalled() {
    boolean stalled = System.currentTimeMillis() - lastSweepMillis.get() > 3 * INTERVAL.toMillis();
    if (stalled && !stallReported) {
      stallReported = true;
      LOG.log(Level.WARNING, "retention has not completed a sweep for " + 3 * INTERVAL.toSeconds()
          + " s; expired data is not being removed" + (lastError.get() == null ? "" : " (" + lastError.get() + ")"));
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

  @Override
  public void close() {
    thread.interrupt();
    try {
      thread.join(30_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    allocator.close();
  }
}
