package mira.query.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import mira.block.Decoders;
import mira.block.catalog.BlockName;
import mira.block.catalog.BlockRef;
import mira.block.read.Snapshot;
import mira.block.table.Batch;
import mira.proto.wire.Signal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which snapshots a read keeps: one is dropped only when the very same block is published. */
class SourcesTest {
  private static final long T0 = 1_767_225_600_000_000_000L; // 2026-01-01T00:00:00Z

  @TempDir Path data;

  @Test
  void aSnapshotIsKeptWhenAnotherNodePublishedTheSameSequence() throws Exception {
    // Two node ids that agree in their low 24 bits: the old key (node << 40 ^ seq) kept only those.
    int published = 0x0100_0000 | 7;
    int openNode = 7;
    BlockName other = new BlockName(T0, T0 + 10, published, 5, 0);
    Path dir = data.resolve(Signal.LOGS.dir()).resolve(other.partition()).resolve(other.dirName());
    Files.createDirectories(dir);

    byte[] req = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
        .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder().setTimeUnixNano(T0 + 1)
            .setBody(AnyValue.newBuilder().setStringValue("held open")))))
        .build().toByteArray();
    Batch b = Decoders.decode(Signal.LOGS, req, 0, req.length, T0);
    BlockName mine = new BlockName(T0 + 1, T0 + 1, openNode, 5, 0);
    BlockRef ref = new BlockRef(Signal.LOGS, mine, data.resolve("logs/.open").resolve(mine.dirName()));
    Snapshot s = new Snapshot(ref, b);

    Sources src = Sources.list(data, sig -> List.of(s), Signal.LOGS, 0, Long.MAX_VALUE);

    assertThat(src.refs()).extracting(r -> r.name().node()).containsExactlyInAnyOrder(published, openNode);
    assertThat(src.isSnapshot(ref)).isTrue();
  }

  @Test
  void aSnapshotOfTheBlockThatIsNowPublishedIsDropped() throws Exception {
    BlockName name = new BlockName(T0, T0 + 10, 7, 5, 0);
    Path dir = data.resolve(Signal.LOGS.dir()).resolve(name.partition()).resolve(name.dirName());
    Files.createDirectories(dir);
    byte[] req = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
        .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder().setTimeUnixNano(T0 + 1))))
        .build().toByteArray();
    Batch b = Decoders.decode(Signal.LOGS, req, 0, req.length, T0);
    BlockName open = new BlockName(T0 + 1, T0 + 1, 7, 5, 0);
    Snapshot s = new Snapshot(new BlockRef(Signal.LOGS, open, data.resolve("logs/.open").resolve(open.dirName())), b);

    Sources src = Sources.list(data, sig -> List.of(s), Signal.LOGS, 0, Long.MAX_VALUE);

    assertThat(src.refs()).hasSize(1);
    assertThat(src.open()).isEmpty();
  }
}
