package mira.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import mira.block.Decoders;
import mira.block.publish.Publisher;
import mira.block.read.Snapshot;
import mira.block.table.Batch;
import mira.proto.wire.Signal;
import mira.server.ingest.IngestSink.Accepted;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wake-ups (snapshot requests, stop) never take a job slot: every admission ticket is a place in
 * the queue, however many readers ask for the open block meanwhile.
 */
class FlusherWakeTest {
  @TempDir Path data;

  @Test
  void snapshotRequestsNeverTakeTheQueueSlotOfAnAdmittedExport() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      Publisher p = new Publisher(data, Signal.LOGS, "n1", a);
      Flusher f = new Flusher(Signal.LOGS, 0, 1, 1, p, new Stats(), Ingest.TARGET_BLOCK_BYTES,
          Ingest.MAX_BLOCK_AGE, Ingest.RETRY_AFTER, p.resumeSequence(), null, new ReentrantLock());
      // The flusher is not running yet, so nothing is drained: the worst case of a busy shard
      // while queries keep asking for its open block.
      CompletableFuture<Snapshot> first = f.requestSnapshot().answer();
      CompletableFuture<Snapshot> second = f.requestSnapshot().answer();
      CompletableFuture<Snapshot> third = f.requestSnapshot().answer();

      assertThat(f.slots().tryAcquire()).isTrue();
      byte[] body = IngestTest.logs(3, "held");
      Batch b = Decoders.decode(Signal.LOGS, body, 0, body.length, System.currentTimeMillis() * 1_000_000L);
      Job job = new Job(b, b.records(), -1, new Ack());
      assertThatCode(() -> f.enqueue(job)).doesNotThrowAnyException();
      CompletableFuture<Snapshot> after = f.requestSnapshot().answer();

      Thread t = Thread.ofPlatform().name("flusher-test").start(f);
      try {
        // Every request is answered; the one made after the export was queued holds it.
        for (CompletableFuture<Snapshot> s : java.util.List.of(first, second, third)) {
          s.get(30, TimeUnit.SECONDS);
        }
        Snapshot snap = after.get(30, TimeUnit.SECONDS);
        assertThat(snap).isNotNull();
        assertThat(snap.batch().records()).isEqualTo(3);
        assertThat(job.ack().await(TimeUnit.SECONDS.toNanos(30))).isInstanceOf(Accepted.class);
      } finally {
        f.stop();
        t.join();
      }
    }
  }
}
