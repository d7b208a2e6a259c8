package mira.server.retention;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import mira.block.Decoders;
import mira.block.catalog.ColdFormat;
import mira.block.catalog.ColdMarker;
import mira.block.publish.Publisher;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stopping a node while its sweeper compacts blocks into the cold tier: the close returns, throws
 * nothing, and leaves every block whole (cold with its marker, or hot as it was) with no staged
 * file behind. Before, the close interrupted the compaction part-way, Arrow's buffers for it were
 * never released, and the allocator's leak check threw out of the node's close, which then never
 * stopped its ingest shards: the process did not exit on SIGTERM.
 */
class RetentionCloseTest {
  @TempDir Path data;

  private static byte[] oldLogs(int records, long atNanos, String tag) {
    ScopeLogs.Builder sl = ScopeLogs.newBuilder();
    for (int i = 0; i < records; i++) {
      sl.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(atNanos + i)
          .setBody(AnyValue.newBuilder().setStringValue(tag + " request " + i + " took " + (i % 97) + " ms")));
    }
    return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(sl)).build()
        .toByteArray();
  }

  @Test
  @Timeout(120)
  void closingDuringACompactionLeavesEveryBlockWholeAndReturns() throws Exception {
    long threeHoursAgo = (System.currentTimeMillis() - Duration.ofHours(3).toMillis()) * 1_000_000L;
    try (RootAllocator a = new RootAllocator()) {
      Publisher p = new Publisher(data, Signal.LOGS, "n1", a);
      for (int i = 0; i < 4; i++) {
        byte[] body = oldLogs(150_000, threeHoursAgo + i * 1_000_000_000L, "b" + i);
        p.publish(Decoders.decode(Signal.LOGS, body, 0, body.length, threeHoursAgo), i, 0);
      }
    }
    for (int delayMs : new int[] {100, 300, 600, 900}) {
      RetentionSweeper s = new RetentionSweeper(data, Duration.ofDays(3650), "n1", ColdFormat.MIRA);
      Thread.sleep(delayMs);
      s.close();
    }
    List<Path> blocks;
    try (Stream<Path> w = Files.walk(data.resolve(Signal.LOGS.dir()))) {
      blocks = w.filter(f -> f.getFileName().toString().equals("logs.arrow")).map(Path::getParent).toList();
    }
    assertThat(blocks).hasSize(4);
    try (Stream<Path> w = Files.walk(data)) {
      assertThat(w.filter(f -> f.getFileName().toString().endsWith(".cold")).toList()).as("staged files left").isEmpty();
    }
    // Every block reads whole through the server's own sweep: it compacts what is still hot.
    RetentionSweeper last = new RetentionSweeper(data, Duration.ofDays(3650), "n1", ColdFormat.MIRA);
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (last.blocksCompacted() + blocks.stream().filter(RetentionCloseTest::cold).count() < 4
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    last.close();
    assertThat(last.lastError()).isNull();
    assertThat(blocks).allMatch(RetentionCloseTest::cold);
  }

  private static boolean cold(Path block) {
    try {
      return ColdMarker.isCold(block);
    } catch (Exception e) {
      return false;
    }
  }
}
