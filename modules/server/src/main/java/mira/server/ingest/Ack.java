package mira.server.ingest;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import mira.server.ingest.IngestSink.Outcome;

/** The answer an export is waiting for: set once by its flusher, read once by its request thread. */
final class Ack {
  private final CountDownLatch done = new CountDownLatch(1);
  private volatile Outcome outcome;

  void complete(Outcome o) {
    if (outcome == null) {
      outcome = o;
      done.countDown();
    }
  }

  /** Waits for the outcome; null if {@code timeoutNanos} passed first. */
  Outcome await(long timeoutNanos) throws InterruptedException {
    return done.await(timeoutNanos, TimeUnit.NANOSECONDS) ? outcome : null;
  }
}
