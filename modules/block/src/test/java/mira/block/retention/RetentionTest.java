package mira.block.retention;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import mira.block.catalog.BlockName;
import mira.block.Decoders;
import mira.block.publish.Publisher;
import mira.block.catalog.BlockRef;
import mira.block.catalog.Catalog;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetentionTest {
  @TempDir Path data;

  static final long HOUR = BlockName.PARTITION_NS;
  static final long T0 = 1_767_225_600_000_000_000L;

  private Path publish(Publisher p, long time, long seq, String body) throws Exception {
    byte[] b = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
        .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder().setTimeUnixNano(time)
            .setBody(AnyValue.newBuilder().setStringValue(body))))).build().toByteArray();
    return p.publish(Decoders.decode(Signal.LOGS, b, 0, b.length, time), seq, 0);
  }

  @Test
  void blocksOlderThanTheCutoffLeaveAtomicallyAndNewerOnesStay() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      Publisher p = new Publisher(data, Signal.LOGS, "n", a);
      Path old1 = publish(p, T0, 0, "old");
      Path old2 = publish(p, T0 + 10, 1, "old too");
      Path edge = publish(p, T0 + 5 * HOUR, 2, "exactly at the cutoff");
      Path fresh = publish(p, T0 + 6 * HOUR, 3, "new");
      Retention.Swept s = Retention.sweep(data, T0 + 5 * HOUR);
      assertThat(s.blocks()).isEqualTo(2);
      assertThat(s.bytes()).isPositive();
      assertThat(old1).doesNotExist();
      assertThat(old2).doesNotExist();
      assertThat(old1.getParent()).as("an emptied partition is removed").doesNotExist();
      assertThat(edge).exists();
      assertThat(fresh).exists();
      assertThat(data.resolve("logs/.trash")).isEmptyDirectory();
      List<BlockRef> left = Catalog.list(data, Signal.LOGS, Long.MIN_VALUE, Long.MAX_VALUE);
      assertThat(left).extracting(r -> r.name().seq()).containsExactlyInAnyOrder(2L, 3L);
      assertThat(Retention.sweep(data, T0 + 5 * HOUR).blocks()).as("a second sweep finds nothing").isZero();
    }
  }

  @Test
  void aReaderHoldingABlockKeepsReadingItAfterTheSweepUnlinksIt() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      Publisher p = new Publisher(data, Signal.LOGS, "n", a);
      Path block = publish(p, T0, 0, "still readable");
      try (FileChannel ch = FileChannel.open(block.resolve("logs.arrow"));
          ArrowFileReader r = new ArrowFileReader(ch, a)) {
        assertThat(Retention.sweep(data, T0 + HOUR).blocks()).isEqualTo(1);
        assertThat(block).doesNotExist();
        assertThat(r.loadNextBatch()).isTrue();
        assertThat(((VarCharVector) r.getVectorSchemaRoot().getVector("body")).getObject(0).toString())
            .isEqualTo("still readable");
      }
    }
  }

  @Test
  void whatACrashLeftInTheTrashIsDeletedNextSweep() throws Exception {
    Path stale = data.resolve("logs/.trash/" + new BlockName(T0, T0, 1, 9, 0).dirName());
    Files.createDirectories(stale);
    Files.writeString(stale.resolve("logs.arrow"), "half deleted");
    Retention.sweep(data, T0);
    try (Stream<Path> s = Files.list(data.resolve("logs/.trash"))) {
      assertThat(s).isEmpty();
    }
  }
}
