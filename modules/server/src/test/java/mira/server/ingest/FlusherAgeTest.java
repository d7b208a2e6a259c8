package mira.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
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
 * Age-based sealing on a clock the test moves: an open block is sealed on the first turn at which
 * its first export is {@code maxAge} old, not a nanosecond before, with no sleep in the test. (A
 * turn is forced with a snapshot request, which wakes the shard and is answered after the seal
 * check of the same turn.)
 */
class FlusherAgeTest {
  @TempDir Path data;

  private long published() throws Exception {
    try (Stream<Path> s = Files.walk(data.resolve(Signal.LOGS.dir()))) {
      return s.filter(p -> p.getFileName().toString().equals("logs.arrow") && !p.toString().contains(Publisher.STAGING))
          .count();
    }
  }

  private static Snapshot turn(Flusher f) throws Exception {
    return f.requestSnapshot().answer().get(30, TimeUnit.SECONDS);
  }

  @Test
  void aBlockIsSealedExactlyWhenItsFirstExportReachesTheAge() throws Exception {
    Duration age = Duration.ofSeconds(2);
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    try (RootAllocator a = new RootAllocator()) {
      Publisher p = new Publisher(data, Signal.LOGS, "n1", a);
      Flusher f = new Flusher(Signal.LOGS, 0, 1, 4, p, new Stats(), Ingest.TARGET_BLOCK_BYTES, age,
          Ingest.RETRY_AFTER, p.resumeSequence(), null, new ReentrantLock(), clock::get);
      byte[] body = IngestTest.logs(3, "aged");
      Batch b = Decoders.decode(Signal.LOGS, body, 0, body.length, System.currentTimeMillis() * 1_000_000L);
      Job job = new Job(b, b.records(), -1, new Ack());
      assertThat(f.slots().tryAcquire()).isTrue();
      f.enqueue(job);
      Thread t = Thread.ofPlatform().name("flusher-age-test").start(f);
      try {
        assertThat(turn(f).batch().records()).as("taken into the open block").isEqualTo(3);
        clock.addAndGet(age.toNanos() - 1);
        assertThat(turn(f)).as("one nanosecond short of the age: still open").isNotNull();
        assertThat(job.ack().await(0)).as("not answered yet").isNull();
        assertThat(published()).isZero();
        clock.addAndGet(1);
        assertThat(turn(f)).as("sealed in this turn, so nothing is open").isNull();
        assertThat(job.ack().await(TimeUnit.SECONDS.toNanos(30))).isEqualTo(new Accepted(3));
        assertThat(published()).isEqualTo(1);
      } finally {
        f.stop();
        t.join();
      }
    }
  }
}
