package mira.block.read;

import mira.block.catalog.ColdMarker;
import mira.block.catalog.BlockRef;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mira.block.catalog.BlockName;
import mira.block.cold.Compactor;
import mira.block.logs.LogsDecoder;
import mira.block.publish.Publisher;
import mira.block.testing.ArrowTables;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One block compacted into the cold tier beside a hot one, both read with the mapped reader. */
class ColdAndHotNeighbourTest {
  @TempDir Path data;

  static final long T0 = 1_767_225_600_000_000_000L;

  private static ExportLogsServiceRequest export(String prefix, int n) {
    var sl = io.opentelemetry.proto.logs.v1.ScopeLogs.newBuilder();
    for (int i = 0; i < n; i++) {
      sl.addLogRecords(io.opentelemetry.proto.logs.v1.LogRecord.newBuilder().setTimeUnixNano(T0 + i)
          .setSeverityText(i % 2 == 0 ? "INFO" : "WARN")
          .setBody(io.opentelemetry.proto.common.v1.AnyValue.newBuilder().setStringValue(prefix + " record " + i)));
    }
    return ExportLogsServiceRequest.newBuilder().addResourceLogs(
        io.opentelemetry.proto.logs.v1.ResourceLogs.newBuilder().addScopeLogs(sl)).build();
  }

  private static List<String> bodies(BlockReader r) throws Exception {
    TableView t = r.table("logs.arrow").orElseThrow();
    FieldVector body = t.column("body");
    List<String> out = new ArrayList<>();
    for (int i = 0; i < t.rows(); i++) {
      out.add(String.valueOf(body.getObject(i)));
    }
    return out;
  }

  @Test
  void aCompactedBlockAnswersAsBeforeWhileItsHotNeighbourStaysZeroCopy() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      Publisher p = new Publisher(data, Signal.LOGS, "n", a);
      byte[] c = export("cold", 400).toByteArray();
      byte[] h = export("hot", 400).toByteArray();
      Path coldDir = p.publish(new LogsDecoder().decode(c, 0, c.length, T0), 0, 0);
      Path hotDir = p.publish(new LogsDecoder().decode(h, 0, h.length, T0), 1, 0);
      List<Map<String, Object>> before = ArrowTables.read(coldDir, "logs.arrow").rows();
      Compactor.compact(coldDir, "0000abcd", a);
      assertThat(ColdMarker.isCold(coldDir)).isTrue();

      BlockRef coldRef = new BlockRef(Signal.LOGS, BlockName.parse(coldDir.getFileName().toString()).orElseThrow(), coldDir);
      BlockRef hotRef = new BlockRef(Signal.LOGS, BlockName.parse(hotDir.getFileName().toString()).orElseThrow(), hotDir);
      try (BlockReader cold = BlockReader.open(coldRef, a); BlockReader hot = BlockReader.open(hotRef, a)) {
        List<String> coldBodies = bodies(cold);
        assertThat(coldBodies).hasSize(400).containsExactlyElementsOf(
            before.stream().map(r -> String.valueOf(r.get("body"))).toList());
        assertThat(bodies(hot)).first().isEqualTo("hot record 0");

        MappedBlockReader.Mapping hotMap = ((MappedBlockReader) hot).mapping("logs.arrow").orElseThrow();
        List<MappedBlockReaderTest.Buf> hotBufs = new ArrayList<>();
        for (FieldVector v : List.of(hot.table("logs.arrow").orElseThrow().column("body"),
            hot.table("logs.arrow").orElseThrow().column("time_unix_nano"))) {
          MappedBlockReaderTest.buffers(v.getName(), v, hotBufs);
        }
        assertThat(MappedBlockReaderTest.outside(hotBufs, hotMap)).as("the hot neighbour is read in place").isEmpty();

        MappedBlockReader.Mapping coldMap = ((MappedBlockReader) cold).mapping("logs.arrow").orElseThrow();
        List<MappedBlockReaderTest.Buf> coldBufs = new ArrayList<>();
        MappedBlockReaderTest.buffers("body", cold.table("logs.arrow").orElseThrow().column("body"), coldBufs);
        assertThat(MappedBlockReaderTest.outside(coldBufs, coldMap)).as("the cold block is inflated out of its mapping")
            .isNotEmpty();
      }
      assertThat(a.getAllocatedMemory()).isZero();
    }
  }
}
