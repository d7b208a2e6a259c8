package mira.query.scan;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mira.query.result.BusyException;

/**
 * The process-wide bound on concurrent queries: one slot per core, waited for at most
 * {@link #WAIT}. Without it a burst of queries would take every core and every carrier thread
 * and stall ingest behind reads. A query admitted from a virtual thread (an HTTP request) runs on
 * a platform query thread while the request's thread waits unmounted, so queries never occupy the
 * carriers the listeners need.
 */
public final class Admission {
  /** How long a query waits for a slot before it is refused as busy. */
  public static final Duration WAIT = Duration.ofSeconds(5);

  private static final Admission SHARED = new Admission(Runtime.getRuntime().availableProcessors(), WAIT);

  private final int slots;
  private final Semaphore permits;
  private final Duration wait;
  private final ThreadPoolExecutor pool;

  public Admission(int slots, Duration wait) {
    this.slots = slots;
    this.permits = new Semaphore(slots, true);
    this.wait = wait;
    AtomicInteger n = new AtomicInteger();
    // The semaphore bounds the queries in flight to the thread count; see FanOut for the queue.
    this.pool = new ThreadPoolExecutor(slots, slots, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        r -> Thread.ofPlatform().daemon().name("mira-query-" + n.incrementAndGet()).unstarted(r));
    this.pool.allowCoreThreadTimeOut(true);
  }

  public static Admission shared() {
    return SHARED;
  }

  /** A query body that may fail with a checked exception. */
  @FunctionalInterface
  public interface Work<T> {
    T run() throws Exception;
  }

  /**
   * Runs {@code work} in a query slot.
   *
   * @throws BusyException if no slot freed up within the wait
   * @throws Exception whatever {@code work} threw
   */
  public <T> T run(Work<T> work) throws Exception {
    boolean got;
    try {
      got = permits.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BusyException("interrupted while waiting for a query slot");
    }
    if (!got) {
      throw new BusyException("busy: all " + slots + " query slots stayed taken for " + wait.toSeconds()
          + " s; retry shortly");
    }
    if (!Thread.currentThread().isVirtual()) {
      try {
        return work.run();
      } finally {
        permits.release();
      }
    }
    return runOnQueryThread(work);
  }

  /**
   * Runs {@code work} (a slot held) on a query thread. The slot is returned by whoever ends the
   * work: the query thread when it finishes, or the caller if the work is abandoned before it
   * started. A caller interrupted while the query runs never returns the slot itself, so a query
   * that ignores the interrupt still counts against the bound until it ends.
   */
  private <T> T runOnQueryThread(Work<T> work) throws Exception {
    java.util.concurrent.atomic.AtomicBoolean claimed = new java.util.concurrent.atomic.AtomicBoolean();
    Callable<T> c = () -> {
      if (!claimed.compareAndSet(false, true)) {
        return null; // abandoned before it started; the caller returned the slot
      }
      try {
        return work.run();
      } finally {
        permits.release();
      }
    };
    Future<T> f;
    try {
      f = pool.submit(c);
    } catch (RuntimeException e) {
      permits.release();
      throw e;
    }
    try {
      return f.get();
    } catch (InterruptedException e) {
      f.cancel(true);
      if (claimed.compareAndSet(false, true)) {
        permits.release();
      }
      Thread.currentThread().interrupt();
      throw new BusyException("interrupted while the query ran");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception x) {
        throw x;
      }
      throw (Error) cause;
    }
  }
}
