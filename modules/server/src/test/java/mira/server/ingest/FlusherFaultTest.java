package mira.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import mira.block.Decoders;
import mira.fs.Fs;
import mira.block.publish.Publisher;
import mira.block.table.Batch;
import mira.proto.wire.Signal;
import mira.server.ingest.IngestSink.Accepted;
import mira.server.ingest.IngestSink.Outcome;
import mira.wal.Wal;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A flusher whose publishes fail at chosen calls: nothing acknowledged is lost or stored twice. */
class FlusherFaultTest {
  @TempDir Path data;

  /** Real directory operations, except that the listed fsyncs of a directory (1-based) throw. */
  static final class FailingFsyncs implements Fs {
    private final List<Integer> failAt;
    final AtomicInteger fsyncs = new AtomicInteger();
    volatile int renames;

    FailingFsyncs(Integer... failAt) {
      this.failAt = List.of(failAt);
    }

    @Override
    public void fsyncDir(Path dir) throws IOException {
      if (failAt.contains(fsyncs.incrementAndGet())) {
        throw new IOException("injected: EIO on fsync #" + fsyncs.get() + " of " + dir.getFileName());
      }
      Fs.super.fsyncDir(dir);
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
      Fs.super.rename(from, to);
      renames++;
    }
  }

  private Flusher flusher(Publisher p, Wal wal) throws IOException {
    return new Flusher(Signal.LOGS, 0, 1, 8, p, new Stats(), Ingest.TARGET_BLOCK_BYTES,
        Ingest.MAX_BLOCK_AGE, Ingest.RETRY_AFTER, p.resumeSequence(), wal, new ReentrantLock());
  }

  private long publishedBlocks() throws IOException {
    try (Stream<Path> s = Files.walk(data.resolve("logs"))) {
      return s.filter(p -> p.getFileName().toString().startsWith("p=") ? false : p.getParent().getFileName().toString().startsWith("p="))
          .count();
    }
  }

  private static Batch decode(byte[] body) throws Exception {
    return Decoders.decode(Signal.LOGS, body, 0, body.length, System.currentTimeMillis() * 1_000_000L);
  }

  /** Waits (bounded, not asserted on time) until the log has retired every frame of channel 0. */
  private static void awaitRetired(Wal wal) throws InterruptedException {
    for (int i = 0; i < 600 && wal.pendingCount(0) > 0; i++) {
      Thread.sleep(100);
    }
  }

  @Test
  void aBlockVisibleBeforeItsDirectoryFsyncFailedIsAcknowledgedAndNotPublishedAgain() throws Exception {
    // fsync #1 is the staging directory, #2 the partition after the rename.
    FailingFsyncs files = new FailingFsyncs(2);
    try (RootAllocator a = new RootAllocator()) {
      // Made beforehand, so the fsyncs counted are the publishes' (the publisher syncs directories it creates).
      Files.createDirectories(data.resolve(Signal.LOGS.dir()).resolve(Publisher.STAGING));
      Publisher p = new Publisher(data, Signal.LOGS, "n1", a, files);
      Flusher f = flusher(p, null);
      assertThat(f.slots().tryAcquire()).isTrue();
      Job job = new Job(decode(IngestTest.logs(4, "once")), 4, -1, new Ack());
      f.enqueue(job);
      Thread t = Thread.ofPlatform().start(f);
      Outcome o;
      try {
        o = job.ack().await(TimeUnit.SECONDS.toNanos(60));
      } finally {
        f.stop();
        t.join();
      }
      assertThat(o).as("the rows are visible: a retry by the client would store them twice").isInstanceOf(Accepted.class);
      assertThat(files.renames).isEqualTo(1);
      assertThat(publishedBlocks()).isEqualTo(1);
    }
  }

  @Test
  void withTheLogABlockVisibleBeforeItsFsyncFailedIsPublishedOnceAndItsFramesRetiredWhenDurable() throws Exception {
    FailingFsyncs files = new FailingFsyncs(2);
    try (RootAllocator a = new RootAllocator();
        Wal wal = Wal.open(data.resolve("wal"), 3, 1 << 20, new long[3], (c, s, b) -> true).wal()) {
      // Made beforehand, so the fsyncs counted are the publishes' (the publisher syncs directories it creates).
      Files.createDirectories(data.resolve(Signal.LOGS.dir()).resolve(Publisher.STAGING));
      Publisher p = new Publisher(data, Signal.LOGS, "n1", a, files);
      Flusher f = flusher(p, wal);
      Thread t = Thread.ofPlatform().start(f);
      try {
        byte[] body = IngestTest.logs(4, "logged");
        Batch b = decode(body);
        f.slots().acquire();
        wal.append(0, body, 0, body.length, seq -> f.enqueue(new Job(b, 4, seq, null)));
        awaitRetired(wal);
      } finally {
        f.stop();
        t.join();
      }
      assertThat(wal.pendingCount(0)).as("retired once the block's rename was made durable").isZero();
      assertThat(files.renames).as("published once").isEqualTo(1);
      assertThat(publishedBlocks()).isEqualTo(1);
    }
  }

  /** An export of {@code n} resources, each distinct, one record apiece. */
  private static byte[] resources(int n, String tag) {
    ExportLogsServiceRequest.Builder r = ExportLogsServiceRequest.newBuilder();
    long t0 = System.currentTimeMillis() * 1_000_000L;
    for (int i = 0; i < n; i++) {
      r.addResourceLogs(ResourceLogs.newBuilder()
          .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
              .setValue(AnyValue.newBuilder().setStringValue(tag + i))))
          .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder().setTimeUnixNano(t0 + i)
              .setBody(AnyValue.newBuilder().setStringValue("r")))));
    }
    return r.build().toByteArray();
  }

  @Test
  void withTheLogAnAcknowledgedExportThatFindsTheBlockFullIsKeptWhileTheSealFails() throws Exception {
    // fsync #1 is the first publish's staging directory: the seal forced by a full block fails.
    FailingFsyncs files = new FailingFsyncs(1);
    try (RootAllocator a = new RootAllocator();
        Wal wal = Wal.open(data.resolve("wal"), 3, 16 << 20, new long[3], (c, s, b) -> true).wal()) {
      // Made beforehand, so the fsyncs counted are the publishes' (the publisher syncs directories it creates).
      Files.createDirectories(data.resolve(Signal.LOGS.dir()).resolve(Publisher.STAGING));
      Publisher p = new Publisher(data, Signal.LOGS, "n1", a, files);
      Flusher f = flusher(p, wal);
      // The first export fills the block's resource id space; the second needs one more id.
      Batch full = decode(resources(mira.block.table.Batch.MAX_RESOURCES, "a"));
      byte[] one = resources(1, "b");
      Batch more = decode(one);
      f.slots().acquire(2);
      f.enqueue(new Job(full, full.records(), -1, null));
      long seq = wal.append(0, one, 0, one.length, s -> f.enqueue(new Job(more, 1, s, null)));
      Thread t = Thread.ofPlatform().start(f);
      try {
        awaitRetired(wal);
      } finally {
        f.stop();
        t.join();
      }
      assertThat(wal.pendingCount(0)).as("export " + seq + " is in a block, not pending forever").isZero();
      assertThat(files.renames).as("the full block, then the one holding the acknowledged export").isEqualTo(2);
    }
  }
}
