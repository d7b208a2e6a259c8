package mira.block.cold;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.MessageLite;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import mira.block.BlockName;
import mira.block.Decoders;
import mira.block.publish.Publisher;
import mira.block.read.BlockReader;
import mira.block.read.BlockRef;
import mira.block.table.Batch;
import mira.block.testing.ReaderTables;
import mira.block.testing.SampleRequests;
import mira.proto.wire.Signal;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * A block compacted into the cold tier — shaped buffers, rearranged columns, zstd — reads exactly
 * as it did hot, through Mira's reader and through Arrow Java's (which undoes the rearrangement as
 * the schema metadata describes), for random requests of every signal; compacting it again (what
 * the sweep does after an interrupted compaction) changes nothing.
 */
class ColdRoundTripTest {
  @Provide
  Arbitrary<ExportLogsServiceRequest> logs() {
    return mira.block.logs.Generators.logsRequests();
  }

  @Provide
  Arbitrary<ExportTraceServiceRequest> traces() {
    return mira.block.traces.Generators.tracesRequests();
  }

  @Provide
  Arbitrary<ExportMetricsServiceRequest> metrics() {
    return mira.block.metrics.Generators.metricsRequests();
  }

  @Property(tries = 40)
  void logsReadTheSameCold(@ForAll("logs") ExportLogsServiceRequest req) throws Exception {
    check(Signal.LOGS, req);
  }

  @Property(tries = 40)
  void tracesReadTheSameCold(@ForAll("traces") ExportTraceServiceRequest req) throws Exception {
    check(Signal.TRACES, req);
  }

  @Property(tries = 40)
  void metricsReadTheSameCold(@ForAll("metrics") ExportMetricsServiceRequest req) throws Exception {
    check(Signal.METRICS, req);
  }

  private static void check(Signal signal, MessageLite req) throws Exception {
    byte[] b = req.toByteArray();
    Batch batch = Decoders.decode(signal, b, 0, b.length, SampleRequests.T0);
    if (batch.isEmpty()) {
      return;
    }
    Path data = Files.createTempDirectory("mira-cold-prop");
    try (BufferAllocator a = new RootAllocator()) {
      Path dir = new Publisher(data, signal, "cold-test", a).publish(batch, 0, 0);
      BlockRef ref = new BlockRef(signal, BlockName.parse(dir.getFileName().toString()).orElseThrow(), dir);
      Map<String, List<Map<String, Object>>> hot = read(ref, a);
      assertThat(ReaderTables.allWithArrow(dir)).isEqualTo(hot);

      Compactor.compact(dir, "0000abcd", a);
      assertThat(Compactor.isCold(dir)).isTrue();
      assertThat(read(ref, a)).as("Mira's reader, cold").isEqualTo(hot);
      assertThat(ReaderTables.allWithArrow(dir)).as("Arrow Java's reader, cold").isEqualTo(hot);

      Compactor.compact(dir, "0000abcd", a);
      assertThat(read(ref, a)).as("compacted twice").isEqualTo(hot);
      assertThat(a.getAllocatedMemory()).isZero();
    } finally {
      try (var s = Files.walk(data)) {
        for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  private static Map<String, List<Map<String, Object>>> read(BlockRef ref, BufferAllocator a) throws Exception {
    try (BlockReader r = BlockReader.open(ref, a)) {
      return ReaderTables.all(r, ref.dir());
    }
  }
}
