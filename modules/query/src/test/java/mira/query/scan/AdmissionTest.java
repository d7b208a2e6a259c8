package mira.query.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import mira.query.result.BusyException;
import org.junit.jupiter.api.Test;

class AdmissionTest {
  @Test
  void pastTheSlotsAQueryWaitsABoundedTimeThenIsBusy() throws Exception {
    Admission a = new Admission(1, Duration.ofMillis(200));
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread holder = Thread.ofPlatform().start(() -> {
      try {
        a.run(() -> {
          running.countDown();
          release.await();
          return null;
        });
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    running.await();
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> a.run(() -> "never")).isInstanceOf(BusyException.class).hasMessageContaining("busy");
    assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(Duration.ofMillis(150).toNanos());
    release.countDown();
    holder.join();
    assertThat(a.run(() -> "ran")).isEqualTo("ran");
  }

  @Test
  void aQueryFromAVirtualThreadRunsOnAPlatformThread() throws Exception {
    Admission a = new Admission(2, Duration.ofSeconds(1));
    AtomicBoolean virtualInside = new AtomicBoolean(true);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread v = Thread.ofVirtual().start(() -> {
      try {
        a.run(() -> {
          virtualInside.set(Thread.currentThread().isVirtual());
          return null;
        });
      } catch (Exception e) {
        failure.set(e);
      }
    });
    v.join();
    assertThat(failure.get()).isNull();
    assertThat(virtualInside).isFalse();
  }

  @Test
  void theWorksExceptionReachesTheCallerOnEitherKindOfThread() throws Exception {
    Admission a = new Admission(1, Duration.ofSeconds(1));
    assertThatThrownBy(() -> a.run(() -> {
      throw new java.io.IOException("boom");
    })).isInstanceOf(java.io.IOException.class).hasMessage("boom");
    AtomicReference<Throwable> fromVirtual = new AtomicReference<>();
    Thread.ofVirtual().start(() -> {
      try {
        a.run(() -> {
          throw new java.io.IOException("boom");
        });
      } catch (Exception e) {
        fromVirtual.set(e);
      }
    }).join();
    assertThat(fromVirtual.get()).isInstanceOf(java.io.IOException.class).hasMessage("boom");
  }

  @Test
  void aQueryThatKeepsRunningAfterItsCallerWasInterruptedKeepsItsSlot() throws Exception {
    Admission a = new Admission(1, Duration.ofMillis(200));
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<Throwable> callerGot = new AtomicReference<>();
    Thread caller = Thread.ofVirtual().start(() -> {
      try {
        a.run(() -> {
          running.countDown();
          // A query stuck where an interrupt does not reach (uninterruptible I/O).
          boolean interrupted = false;
          while (true) {
            try {
              release.await();
              break;
            } catch (InterruptedException e) {
              interrupted = true;
            }
          }
          return interrupted;
        });
      } catch (Exception e) {
        callerGot.set(e);
      }
    });
    running.await();
    caller.interrupt();
    caller.join();
    assertThat(callerGot.get()).isInstanceOf(BusyException.class);

    assertThatThrownBy(() -> a.run(() -> "second")).as("the first query still runs and holds the only slot")
        .isInstanceOf(BusyException.class);

    release.countDown();
    String ran = null;
    for (int i = 0; i < 50 && ran == null; i++) {
      try {
        ran = a.run(() -> "ran");
      } catch (BusyException e) {
        // The first query is finishing; its slot is returned when it ends.
      }
    }
    assertThat(ran).isEqualTo("ran");
  }
}
