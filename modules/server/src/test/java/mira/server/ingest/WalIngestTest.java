package mira.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import mira.block.catalog.BlockName;
import mira.proto.wire.Signal;
import mira.server.ingest.IngestSink.Accepted;
import mira.server.ingest.IngestSink.Outcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pipeline with the write-ahead log on: acknowledged at the append, published later, replayed after a stop. */
class WalIngestTest {
  @TempDir Path data;
  private final AtomicReference<Throwable> fatal = new AtomicReference<>();

  @AfterEach
  void noFlusherDied() {
    assertThat(fatal.get()).isNull();
  }

  private Ingest start() throws Exception {
    return Ingest.start(data, new Ingest.Options("n1", 2, 64, true, 16 << 20, Ingest.ADMIT_WAIT), (t, e) -> fatal.set(e));
  }

  private IngestTest rows() {
    IngestTest t = new IngestTest();
    t.data = data;
    return t;
  }

  @Test
  void anExportIsAcknowledgedBeforeItsBlockIsPublishedAndPublishedSoonAfter() throws Exception {
    try (Ingest in = start()) {
      byte[] b = IngestTest.logs(4, "wal");
      long t0 = System.nanoTime();
      Outcome o = in.submit(Signal.LOGS, b, b.length);
      Duration ack = Duration.ofNanos(System.nanoTime() - t0);
      assertThat(o).isEqualTo(new Accepted(4));
      assertThat(ack).as("the ack does not wait for the 2 s block age").isLessThan(Ingest.MAX_BLOCK_AGE);
      assertThat(in.walBytes()).isPositive();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (rows().storedLogRows() < 4 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(rows().storedLogRows()).isEqualTo(4);
    }
  }

  @Test
  void aCleanStopPublishesEverythingAndTheNextStartReplaysNothing() throws Exception {
    try (Ingest in = start()) {
      for (int i = 0; i < 5; i++) {
        byte[] b = IngestTest.logs(3, "clean" + i);
        assertThat(in.submit(Signal.LOGS, b, b.length)).isEqualTo(new Accepted(3));
      }
    }
    assertThat(rows().storedLogRows()).isEqualTo(15);
    try (Ingest in = start()) {
      assertThat(in.replayed().replayed()).isZero();
      assertThat(in.replayed().skipped()).as("the frames are below the blocks' watermark").isEqualTo(5);
    }
    try (Ingest in = start()) {
      assertThat(in.replayed().replayed()).isZero();
    }
    assertThat(rows().storedLogRows()).as("nothing stored twice").isEqualTo(15);
  }

  @Test
  void framesNotInAnyBlockAreReplayedAtTheNextStart() throws Exception {
    // Simulate a crash: exports acknowledged from the log, then the process dies before any block
    // is published (here: the log is copied away before the clean stop publishes them).
    Path saved = Files.createTempDirectory("wal-copy");
    try (Ingest in = start()) {
      for (int i = 0; i < 3; i++) {
        byte[] b = IngestTest.logs(2, "crash" + i);
        assertThat(in.submit(Signal.LOGS, b, b.length)).isEqualTo(new Accepted(2));
      }
      copy(data.resolve("wal"), saved);
    }
    // Throw away what the clean stop published, put the log back as it was at the "crash".
    deleteTree(data.resolve("logs"));
    deleteTree(data.resolve("wal"));
    copy(saved, data.resolve("wal"));
    try (Ingest in = start()) {
      assertThat(in.replayed().replayed()).isEqualTo(3);
    }
    assertThat(rows().storedLogRows()).isEqualTo(6);
    List<BlockName> blocks = rows().blocks();
    assertThat(blocks).isNotEmpty();
    assertThat(blocks.stream().mapToLong(BlockName::walHi).max().orElseThrow())
        .as("the replayed frames' blocks claim them").isGreaterThanOrEqualTo(3);
    try (Ingest in = start()) {
      assertThat(in.replayed().replayed()).as("converged: nothing replays twice").isZero();
    }
    assertThat(rows().storedLogRows()).isEqualTo(6);
  }

  static void copy(Path from, Path to) throws Exception {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  static void deleteTree(Path root) throws Exception {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
