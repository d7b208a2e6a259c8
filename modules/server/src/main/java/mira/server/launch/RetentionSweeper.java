package mira.server.launch;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import mira.block.retention.Retention;

/**
 * Sweeps expired blocks every {@link #INTERVAL} on its own thread. A sweep that fails is logged and
 * retried next interval; one that has not completed for three intervals is "stalled", which
 * {@code /api/v1/stats} reports and the log says once, so a disk filling up behind a dead sweeper is
 * visible before it is full.
 */
public final class RetentionSweeper implements AutoCloseable {
  public static final Duration INTERVAL = Duration.ofSeconds(60);
  private static final Logger LOG = System.getLogger(RetentionSweeper.class.getName());

  private final Path dataDir;
  private final Duration ttl;
  private final Thread thread;
  private final AtomicLong lastSweepMillis = new AtomicLong(System.currentTimeMillis());
  private final AtomicLong blocksRemoved = new AtomicLong();
  private final AtomicLong bytesRemoved = new AtomicLong();
  private final AtomicReference<String> lastError = new AtomicReference<>();
  private volatile boolean stallReported;

  public RetentionSweeper(Path dataDir, Duration ttl) {
    this.dataDir = dataDir;
    this.ttl = ttl;
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

  @Override
  public void close() {
    thread.interrupt();
  }
}
