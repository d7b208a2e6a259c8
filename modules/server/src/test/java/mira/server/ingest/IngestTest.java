package mira.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import mira.block.catalog.BlockName;
import mira.proto.wire.Signal;
import mira.server.ingest.IngestSink.Accepted;
import mira.server.ingest.IngestSink.Invalid;
import mira.server.ingest.IngestSink.Outcome;
import mira.server.ingest.IngestSink.Retry;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IngestTest {
  @TempDir Path data;
  private final AtomicReference<Throwable> fatal = new AtomicReference<>();

  @AfterEach
  void noFlusherDied() {
    assertThat(fatal.get()).isNull();
  }

  @Test
  void aFlusherThatDiesReachesTheFatalHandlerNamingIt() throws Exception {
    java.util.concurrent.CompletableFuture<String> died = new java.util.concurrent.CompletableFuture<>();
    try (Ingest in = Ingest.start(data, "n1", 1, 16, (t, e) -> died.complete(t.getName() + ": " + e), Duration.ofSeconds(1))) {
      byte[] body = logs(3, "before");
      assertThat(in.submit(Signal.LOGS, body, body.length)).isInstanceOf(Accepted.class);
      // A job without a batch cannot come from the receivers; here it stands for any defect that
      // throws inside the flusher's loop.
      Flusher f = in.flushers(Signal.LOGS)[0];
      assertThat(f.slots().tryAcquire()).isTrue();
      f.enqueue(new Job(null, 1, -1, null));
      assertThat(died.get(30, java.util.concurrent.TimeUnit.SECONDS))
          .startsWith("flusher-logs-0: ").contains("NullPointerException");
    }
  }

  private Ingest start(int shards, int queue, Duration admitWait) throws Exception {
    return Ingest.start(data, "n1", shards, queue, (t, e) -> fatal.set(e), admitWait);
  }

  static byte[] logs(int records, String tag) {
    ScopeLogs.Builder sl = ScopeLogs.newBuilder();
    for (int i = 0; i < records; i++) {
      sl.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(System.currentTimeMillis() * 1_000_000L + i)
          .setBody(AnyValue.newBuilder().setStringValue(tag + " " + i)));
    }
    return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(sl)).build().toByteArray();
  }

  /** Rows in logs.arrow over every published logs block, read with Arrow's own reader. */
  long storedLogRows() throws Exception {
    long rows = 0;
    Path dir = data.resolve("logs");
    try (Stream<Path> s = Files.walk(dir); RootAllocator a = new RootAllocator()) {
      for (Path p : s.filter(p -> p.getFileName().toString().equals("logs.arrow")).toList()) {
        if (p.toString().contains(".staging")) {
          continue;
        }
        try (FileChannel ch = FileChannel.open(p); ArrowFileReader r = new ArrowFileReader(ch, a)) {
          while (r.loadNextBatch()) {
            rows += r.getVectorSchemaRoot().getRowCount();
          }
        }
      }
    }
    return rows;
  }

  List<BlockName> blocks() throws Exception {
    try (Stream<Path> s = Files.walk(data.resolve("logs"), 2)) {
      return s.map(p -> BlockName.parse(p.getFileName().toString())).flatMap(java.util.Optional::stream).toList();
    }
  }

  @Test
  void anAcceptedExportIsInAPublishedBlock() throws Exception {
    try (Ingest in = start(1, 16, Ingest.ADMIT_WAIT)) {
      byte[] b = logs(5, "hello");
      Outcome o = in.submit(Signal.LOGS, b, b.length);
      assertThat(o).isEqualTo(new Accepted(5));
      assertThat(storedLogRows()).as("acknowledged means published").isEqualTo(5);
      assertThat(in.stats().of(Signal.LOGS).recordsAccepted.sum()).isEqualTo(5);
    }
  }

  @Test
  void aQuietShardWithEverythingPublishedIsNotAskedForASnapshot() throws Exception {
    try (Ingest in = start(1, 16, Ingest.ADMIT_WAIT)) {
      byte[] b = logs(5, "quiet");
      assertThat(in.submit(Signal.LOGS, b, b.length)).isEqualTo(new Accepted(5));
      Flusher f = in.flushers(Signal.LOGS)[0];
      // Acknowledged means published here (no log); the shard marks itself at the end of that turn.
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (!f.idleAndEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      assertThat(f.idleAndEmpty()).as("nothing open, nothing queued").isTrue();
      assertThat(in.snapshot(Signal.LOGS)).isEmpty();
      assertThat(storedLogRows()).isEqualTo(5);
    }
  }

  @Test
  void aShardHoldingAcknowledgedRowsIsAskedForThem() throws Exception {
    // With the log on an export is acknowledged once logged; an hour's block age keeps it open.
    try (Ingest in = Ingest.start(data, new Ingest.Options("n1", 1, 16, true, 16 << 20, Ingest.ADMIT_WAIT)
        .withBlockAge(Duration.ofHours(1)), (t, e) -> fatal.set(e))) {
      byte[] b = logs(5, "open");
      assertThat(in.submit(Signal.LOGS, b, b.length)).isEqualTo(new Accepted(5));
      assertThat(in.flushers(Signal.LOGS)[0].idleAndEmpty()).isFalse();
      assertThat(in.snapshot(Signal.LOGS)).hasSize(1);
    }
  }

  @Test
  void aMalformedExportIsInvalidAndStoresNothing() throws Exception {
    try (Ingest in = start(1, 16, Ingest.ADMIT_WAIT)) {
      byte[] b = logs(3, "x");
      Outcome o = in.submit(Signal.LOGS, b, b.length - 2);
      assertThat(o).isInstanceOf(Invalid.class);
      assertThat(((Invalid) o).message()).startsWith("invalid ExportLogsServiceRequest: ").contains("remain");
      byte[] good = logs(2, "y");
      assertThat(in.submit(Signal.LOGS, good, good.length)).isEqualTo(new Accepted(2));
      assertThat(storedLogRows()).isEqualTo(2);
    }
  }

  @Test
  void sequencesResumeAboveEverythingPublishedAfterARestart() throws Exception {
    byte[] b = logs(1, "a");
    try (Ingest in = start(2, 16, Ingest.ADMIT_WAIT)) {
      in.submit(Signal.LOGS, b, b.length);
      in.submit(Signal.LOGS, b, b.length);
    }
    long before = blocks().stream().mapToLong(BlockName::seq).max().orElseThrow();
    try (Ingest in = start(2, 16, Ingest.ADMIT_WAIT)) {
      in.submit(Signal.LOGS, b, b.length);
    }
    List<BlockName> all = blocks();
    assertThat(all).hasSize(3);
    assertThat(all.stream().mapToLong(BlockName::seq).max().orElseThrow()).isGreaterThan(before);
    assertThat(all.stream().map(BlockName::seq).distinct()).hasSize(3);
    assertThat(storedLogRows()).isEqualTo(3);
  }

  @Test
  void concurrentExportsShareBlocks() throws Exception {
    try (Ingest in = start(1, 64, Ingest.ADMIT_WAIT); ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<Outcome>> fs = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        byte[] b = logs(10, "c" + i);
        fs.add(ex.submit(() -> in.submit(Signal.LOGS, b, b.length)));
      }
      for (Future<Outcome> f : fs) {
        assertThat(f.get()).isEqualTo(new Accepted(10));
      }
      assertThat(storedLogRows()).isEqualTo(400);
      assertThat(blocks().size()).as("exports arriving together are sealed together").isLessThan(10);
    }
  }

  static byte[] manyKeys(String prefix, int keys) {
    LogRecord.Builder r = LogRecord.newBuilder().setTimeUnixNano(System.currentTimeMillis() * 1_000_000L)
        .setBody(AnyValue.newBuilder().setStringValue(prefix));
    for (int i = 0; i < keys; i++) {
      r.addAttributes(io.opentelemetry.proto.common.v1.KeyValue.newBuilder().setKey(prefix + i)
          .setValue(AnyValue.newBuilder().setIntValue(i)));
    }
    return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
        .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(r))).build().toByteArray();
  }

  @Test
  void anExportThatWouldOverflowADictionarySealsTheBlockFirst() throws Exception {
    try (Ingest in = start(1, 16, Ingest.ADMIT_WAIT); ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
      byte[] a = manyKeys("a", 40_000);
      byte[] b = manyKeys("b", 40_000);
      Future<Outcome> fa = ex.submit(() -> in.submit(Signal.LOGS, a, a.length));
      Future<Outcome> fb = ex.submit(() -> in.submit(Signal.LOGS, b, b.length));
      assertThat(fa.get()).isEqualTo(new Accepted(1));
      assertThat(fb.get()).isEqualTo(new Accepted(1));
      assertThat(blocks()).as("80,000 distinct keys cannot share one UInt16 dictionary").hasSize(2);
      assertThat(storedLogRows()).isEqualTo(2);
    }
  }

  @Test
  void shutdownPublishesWhatIsOpenAndAnswersItsExports() throws Exception {
    Ingest in = start(1, 16, Ingest.ADMIT_WAIT);
    try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
      byte[] b = logs(3, "closing");
      Future<Outcome> f = ex.submit(() -> in.submit(Signal.LOGS, b, b.length));
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
      while (in.openBlocks(Signal.LOGS) == 0 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(in.openBlocks(Signal.LOGS)).as("the export is in an open block").isEqualTo(1);
      long t0 = System.nanoTime();
      in.close();
      assertThat(f.get()).isEqualTo(new Accepted(3));
      assertThat(java.time.Duration.ofNanos(System.nanoTime() - t0))
          .as("sealed at shutdown, not at the 2 s block age").isLessThan(Ingest.MAX_BLOCK_AGE);
      assertThat(storedLogRows()).isEqualTo(3);
      Outcome after = in.submit(Signal.LOGS, b, b.length);
      assertThat(after).isInstanceOf(Retry.class);
    }
  }

  @Test
  void overloadShedsWithRetryAndStoredEqualsAcknowledged() throws Exception {
    long acked = 0;
    int retried = 0;
    try (Ingest in = start(1, 1, Duration.ofMillis(1)); ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<Outcome>> fs = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        byte[] b = logs(20, "o" + i);
        fs.add(ex.submit(() -> in.submit(Signal.LOGS, b, b.length)));
      }
      for (Future<Outcome> f : fs) {
        Outcome o = f.get();
        if (o instanceof Accepted a) {
          acked += a.records();
        } else {
          assertThat(o).isInstanceOf(Retry.class);
          assertThat(((Retry) o).after()).isPositive();
          retried++;
        }
      }
    }
    assertThat(acked).isPositive();
    assertThat(storedLogRows()).as("stored == acknowledged").isEqualTo(acked);
    assertThat(acked / 20 + retried).isEqualTo(300);
  }
}
