package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import mira.block.Decoders;
import mira.block.publish.Publisher;
import mira.proto.wire.Signal;
import mira.server.config.Config;
import mira.server.config.ConfigLoader;
import mira.server.config.Key;
import mira.server.launch.Running;
import mira.server.testing.HttpExchange;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A running node removes blocks past retention.ttl on its own, and says so in its stats. */
class RetentionSweepTest {
  @TempDir Path data;

  private Path publish(Publisher p, long time, long seq) throws Exception {
    byte[] b = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
        .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder().setTimeUnixNano(time)
            .setBody(AnyValue.newBuilder().setStringValue("r" + seq))))).build().toByteArray();
    return p.publish(Decoders.decode(Signal.LOGS, b, 0, b.length, time), seq, 0);
  }

  @Test
  void expiredBlocksAreRemovedAndReported() throws Exception {
    long now = System.currentTimeMillis() * 1_000_000L;
    Path expired;
    Path kept;
    try (RootAllocator a = new RootAllocator()) {
      Publisher p = new Publisher(data, Signal.LOGS, "other", a);
      expired = publish(p, now - 3 * 3_600_000_000_000L, 0);
      kept = publish(p, now - 60_000_000_000L, 1);
    }
    Config c = ConfigLoader.load(Optional.empty(), Map.of(Key.LISTEN_GRPC, "127.0.0.1:0", Key.LISTEN_HTTP, "127.0.0.1:0",
        Key.DATA_DIR, data.toString(), Key.RETENTION_TTL, "2h", Key.NODE, "sweeper"), 2);
    try (Running node = Running.start(c, Path.of("/proc/self/mountinfo"))) {
      // The sweep unlinks the block before it adds to its counters, so wait on what the stats say.
      String url = "http://127.0.0.1:" + node.server().httpPort() + "/api/v1/stats";
      long deadline = System.nanoTime() + 10_000_000_000L;
      String stats = HttpExchange.send("GET", url, Map.of(), null, false).text();
      while (!stats.contains("\"blocks_removed\":\"1\"") && System.nanoTime() < deadline) {
        Thread.sleep(50);
        stats = HttpExchange.send("GET", url, Map.of(), null, false).text();
      }
      assertThat(expired).doesNotExist();
      assertThat(kept).exists();
      assertThat(stats).contains("\"retention\":{\"ttl_ms\":\"7200000\"").contains("\"blocks_removed\":\"1\"")
          .contains("\"stalled\":false");
    }
  }
}
