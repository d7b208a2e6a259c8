package mira.block.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import mira.block.catalog.BlockName;
import mira.block.Decoders;
import mira.block.table.Batch;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Publishing on a data directory that other writers share (architecture: Publishing). */
class PublisherTest {
  private static final long T0 = 1_767_225_600_000_000_000L; // 2026-01-01T00:00:00Z

  @TempDir Path data;

  private static Batch batch(String body) throws Exception {
    byte[] req = ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(ScopeLogs.newBuilder()
            .addLogRecords(LogRecord.newBuilder().setTimeUnixNano(T0 + 1).setBody(AnyValue.newBuilder().setStringValue(body)))
            .addLogRecords(LogRecord.newBuilder().setTimeUnixNano(T0 + 2).setBody(AnyValue.newBuilder().setStringValue(body)))))
        .build().toByteArray();
    return Decoders.decode(Signal.LOGS, req, 0, req.length, T0);
  }

  private static Batch attributed(AnyValue value) throws Exception {
    byte[] req = ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(ScopeLogs.newBuilder()
            .addLogRecords(LogRecord.newBuilder().setTimeUnixNano(T0 + 1)
                .addAttributes(io.opentelemetry.proto.common.v1.KeyValue.newBuilder().setKey("k").setValue(value)))))
        .build().toByteArray();
    return Decoders.decode(Signal.LOGS, req, 0, req.length, T0);
  }

  private static java.util.List<String> columns(Path file) throws Exception {
    try (BufferAllocator a = new RootAllocator();
        java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file);
        org.apache.arrow.vector.ipc.ArrowFileReader r = new org.apache.arrow.vector.ipc.ArrowFileReader(ch, a)) {
      return r.getVectorSchemaRoot().getSchema().getFields().stream().map(f -> f.getName()).toList();
    }
  }

  @Test
  void anAttributeTableLeavesOutTheValueColumnsNoRowUses() throws Exception {
    try (BufferAllocator a = new RootAllocator()) {
      Publisher p = new Publisher(data, Signal.LOGS, "solo", a);
      Path strings = p.publish(attributed(AnyValue.newBuilder().setStringValue("v").build()), 0, 0);
      assertThat(columns(strings.resolve("log_attrs.arrow")))
          .containsExactly("parent_id", "key", "type", "str", "bool");
      Path doubles = p.publish(attributed(AnyValue.newBuilder().setDoubleValue(1.5).build()), 1, 0);
      assertThat(columns(doubles.resolve("log_attrs.arrow")))
          .containsExactly("parent_id", "key", "type", "str", "double", "bool");
    }
  }

  private Path staging() {
    return data.resolve(Signal.LOGS.dir()).resolve(Publisher.STAGING);
  }

  @Test
  void aStagingCollisionFailsWithoutTouchingTheOtherWritersDirectory() throws Exception {
    try (BufferAllocator a = new RootAllocator()) {
      Publisher p = new Publisher(data, Signal.LOGS, "twin", a);
      Batch b = batch("mine");
      // What a second process with the same --node has written so far for the very same block.
      Path theirs = staging().resolve(new BlockName(T0 + 1, T0 + 2, BlockName.nodeId("twin"), 3, 0).dirName());
      Files.createDirectory(theirs);
      Files.write(theirs.resolve("resources.arrow"), new byte[] {1, 2, 3});

      assertThatThrownBy(() -> p.publish(b, 3, 0)).isInstanceOf(FileAlreadyExistsException.class);

      assertThat(theirs.resolve("resources.arrow")).as("the other writer's table").hasBinaryContent(new byte[] {1, 2, 3});
      try (Stream<Path> s = Files.list(data.resolve(Signal.LOGS.dir()))) {
        assertThat(s.map(x -> x.getFileName().toString())).as("nothing published").containsExactly(Publisher.STAGING);
      }
      // The same publisher is not wedged: the next sequence number goes through.
      Path published = p.publish(b, 4, 0);
      assertThat(published.resolve("logs.arrow")).isRegularFile();
      assertThat(a.getAllocatedMemory()).isZero();
    }
  }

  @Test
  void aFailedPublishRemovesTheStagingDirectoryItCreated() throws Exception {
    try (BufferAllocator a = new RootAllocator()) {
      Publisher p = new Publisher(data, Signal.LOGS, "solo", a);
      Batch b = batch("x");
      p.publish(b, 0, 0);
      // Same block again: staging succeeds, the rename target exists.
      assertThatThrownBy(() -> p.publish(b, 0, 0)).isInstanceOf(FileAlreadyExistsException.class);
      try (Stream<Path> s = Files.list(staging())) {
        assertThat(s).as("no staging leftover").isEmpty();
      }
    }
  }

  @Test
  void theBootSweepRemovesOnlyThisNodesStagingDirectories() throws Exception {
    try (BufferAllocator a = new RootAllocator()) {
      Publisher alpha = new Publisher(data, Signal.LOGS, "alpha", a);
      Path mine = staging().resolve(new BlockName(T0, T0, BlockName.nodeId("alpha"), 9, 0).dirName());
      Path betas = staging().resolve(new BlockName(T0, T0, BlockName.nodeId("beta"), 9, 0).dirName());
      Path stray = staging().resolve("not-a-block");
      for (Path d : new Path[] {mine, betas, stray}) {
        Files.createDirectory(d);
        Files.write(d.resolve("logs.arrow"), new byte[] {7});
      }

      assertThat(alpha.sweepStaging()).isEqualTo(1);

      assertThat(mine).doesNotExist();
      assertThat(betas.resolve("logs.arrow")).isRegularFile();
      assertThat(stray.resolve("logs.arrow")).isRegularFile();
    }
  }
}
