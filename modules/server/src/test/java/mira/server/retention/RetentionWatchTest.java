package mira.server.retention;

import mira.block.catalog.ColdFormat;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongSupplier;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sweep that hangs is reported in the log once, without anyone reading the stats. */
class RetentionWatchTest {
  @TempDir Path data;

  @Test
  void aStuckSweepIsLoggedOnceByTheWatchAlone() throws Exception {
    List<String> warnings = new CopyOnWriteArrayList<>();
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord r) {
        if (r.getLevel() == java.util.logging.Level.WARNING) {
          warnings.add(r.getMessage());
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    Logger jul = Logger.getLogger(RetentionSweeper.class.getName());
    jul.addHandler(capture);
    CountDownLatch stuck = new CountDownLatch(1);
    // The sweeping thread blocks the first time it reads the clock (inside its first sweep), until
    // the sweeper is closed; the watch thread reads it freely.
    LongSupplier clock = () -> {
      if (Thread.currentThread().getName().equals("retention") && stuck.getCount() > 0) {
        stuck.countDown();
        try {
          Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return System.currentTimeMillis();
    };
    try (RetentionSweeper s = new RetentionSweeper(data, Duration.ofHours(1), "watch", mira.block.catalog.ColdFormat.MIRA, Duration.ofMillis(50), clock)) {
      stuck.await();
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (warnings.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(warnings).hasSize(1);
      assertThat(warnings.get(0)).contains("retention has not completed a sweep for 150 ms");
      Thread.sleep(300); // six more watch intervals: said once, not every time
      assertThat(warnings).hasSize(1);
      assertThat(s.stalled()).isTrue();
      assertThat(warnings).as("reading the state again does not repeat the warning").hasSize(1);
    } finally {
      jul.removeHandler(capture);
    }
  }
}
