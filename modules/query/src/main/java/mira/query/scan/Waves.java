package mira.query.scan;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import mira.block.catalog.BlockRef;

/**
 * Scans blocks newest first in widening waves — 1, 2, 4, 8, then 16 at a time — so the commonest
 * query (the newest rows) reads one block and stops, while a query that has to read many gets
 * them in parallel. Each wave runs on the calling thread plus whatever helpers {@link ScanThreads}
 * has free at that moment; with none free the wave is scanned serially.
 *
 * <p>Between waves, and before each block, the {@link Gate} may stop the scan: once the result
 * is full, a block whose newest row cannot beat the worst kept row is never opened.
 */
public final class Waves {
  /** The widest wave. */
  public static final int MAX_WIDTH = 16;

  private Waves() {}

  /** Scans one block; must be thread-safe. A refused block is the task's business, not an error. */
  @FunctionalInterface
  public interface Task {
    void scan(BlockRef block) throws IOException;
  }

  /** Whether a block (and, the list being newest first, every later one) can be skipped. */
  @FunctionalInterface
  public interface Gate {
    boolean skip(BlockRef block);
  }

  /**
   * Runs {@code task} over {@code blocks} (newest first).
   *
   * @throws IOException the first I/O failure of any task (other blocks of its wave still finish)
   */
  public static void run(List<BlockRef> blocks, Gate gate, Task task, ScanThreads fanOut) throws IOException {
    int i = 0;
    int width = 1;
    while (i < blocks.size()) {
      if (gate.skip(blocks.get(i))) {
        return;
      }
      int end = Math.min(blocks.size(), i + width);
      wave(blocks.subList(i, end), gate, task, fanOut);
      i = end;
      width = Math.min(MAX_WIDTH, width * 2);
    }
  }

  private static void wave(List<BlockRef> wave, Gate gate, Task task, ScanThreads fanOut) throws IOException {
    AtomicInteger next = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Runnable worker = () -> {
      for (int k; (k = next.getAndIncrement()) < wave.size(); ) {
        if (failure.get() != null) {
          return;
        }
        BlockRef b = wave.get(k);
        if (gate.skip(b)) {
          continue;
        }
        try {
          task.scan(b);
        } catch (IOException | RuntimeException | Error e) {
          failure.compareAndSet(null, e);
        }
      }
    };
    int helpers = wave.size() > 1 ? fanOut.tryTake(wave.size() - 1) : 0;
    Future<?>[] started = new Future<?>[helpers];
    try {
      for (int h = 0; h < helpers; h++) {
        started[h] = fanOut.start(worker);
      }
      worker.run();
      for (Future<?> f : started) {
        await(f);
      }
    } finally {
      fanOut.give(helpers);
    }
    Throwable t = failure.get();
    if (t instanceof IOException e) {
      throw e;
    }
    if (t instanceof RuntimeException e) {
      throw e;
    }
    if (t instanceof Error e) {
      throw e;
    }
  }

  private static void await(Future<?> f) {
    boolean interrupted = false;
    while (true) {
      try {
        f.get();
        break;
      } catch (InterruptedException e) {
        // The helper borrows this query's state: it must finish before the query returns.
        interrupted = true;
      } catch (ExecutionException e) {
        break; // the worker records its own failures; nothing else can escape it
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
