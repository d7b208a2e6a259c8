package mira.query.scan;

import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The process-wide budget of helper threads for scanning blocks in parallel. A query asks for
 * helpers and takes what is free at that instant, never waiting: on an idle node one query fans
 * out over every core, on a busy one each query scans serially on its own thread, and neither
 * needs configuring. Helpers are platform threads (a block scan is CPU work that must not occupy
 * the virtual-thread carriers the listeners run on); idle ones exit after 30 s.
 */
public final class ScanThreads {
  private static final ScanThreads SHARED = new ScanThreads(Math.max(0, Runtime.getRuntime().availableProcessors() - 1));

  private final int size;
  private final Semaphore permits;
  private final ThreadPoolExecutor pool;

  /** A budget of {@code helpers} threads (0: always serial). */
  public ScanThreads(int helpers) {
    this.size = helpers;
    this.permits = new Semaphore(helpers);
    AtomicInteger n = new AtomicInteger();
    // Permits bound the tasks in flight to the thread count, so the queue only ever holds a task
    // for the moment a helper that has just finished takes to come back for it.
    this.pool = new ThreadPoolExecutor(Math.max(1, helpers), Math.max(1, helpers), 30, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), r -> Thread.ofPlatform().daemon().name("mira-scan-" + n.incrementAndGet()).unstarted(r));
    this.pool.allowCoreThreadTimeOut(true);
  }

  /** The budget shared by the process: one helper fewer than there are cores. */
  public static ScanThreads shared() {
    return SHARED;
  }

  public int size() {
    return size;
  }

  /** Takes up to {@code want} helpers without waiting; returns how many were taken (maybe 0). */
  int tryTake(int want) {
    while (want > 0) {
      int free = permits.availablePermits();
      if (free <= 0) {
        return 0;
      }
      int take = Math.min(want, free);
      if (permits.tryAcquire(take)) {
        return take;
      }
    }
    return 0;
  }

  /** Runs {@code task} on a helper; the caller holds a permit for it. */
  Future<?> start(Runnable task) {
    return pool.submit(task);
  }

  void give(int n) {
    if (n > 0) {
      permits.release(n);
    }
  }
}
