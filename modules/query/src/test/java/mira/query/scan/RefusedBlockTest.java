package mira.query.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import mira.query.render.ResponseJson;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.result.SearchResult;
import mira.query.doc.SearchQuery;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import mira.query.testing.JsonTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A damaged block is reported and contributes nothing; the query still answers from the rest. */
class RefusedBlockTest {
  static final long NOW = Corpus.T0 + 3_600_000_000_000L;

  @TempDir Path data;

  static ExportLogsServiceRequest logs(String body, long time, int n) {
    ScopeLogs.Builder s = ScopeLogs.newBuilder();
    for (int i = 0; i < n; i++) {
      s.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(time + i)
          .setBody(AnyValue.newBuilder().setStringValue(body + i)));
    }
    return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
        .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
            .setValue(AnyValue.newBuilder().setStringValue(body))))
        .addScopeLogs(s)).build();
  }

  static void truncate(Path file) throws Exception {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(ch.size() / 2);
    }
  }

  /** Flips one bit in the middle of the file: same length, same framing, wrong bytes. */
  static void flipBit(Path file) throws Exception {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long at = ch.size() / 2;
      java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
      ch.read(b, at);
      b.put(0, (byte) (b.get(0) ^ 0x10)).rewind();
      ch.write(b, at);
    }
  }

  static List<String> bodies(SearchResult r) {
    return r.rows().stream().map(x -> JsonTree.parseObj(ResponseJson.row(x)).str("body")).toList();
  }

  interface Damage {
    void apply(Path file) throws Exception;
  }

  @Test
  void aDamagedRootTableIsRefusedAndTheRestAnswers() throws Exception {
    assertRootTableDamageRefusesTheBlock(RefusedBlockTest::truncate);
  }

  @Test
  void aBitFlippedInATableRefusesTheBlockByNameAndNothingOfItIsAnswered() throws Exception {
    assertRootTableDamageRefusesTheBlock(RefusedBlockTest::flipBit);
  }

  /** The newer of two blocks has its root table damaged: it is named as refused, the older answers. */
  private void assertRootTableDamageRefusesTheBlock(Damage damage) throws Exception {
    Blocks.publish(data, Signal.LOGS, "n", 1, logs("old", Corpus.T0, 3), Corpus.T0);
    Path bad = Blocks.publish(data, Signal.LOGS, "n", 2, logs("new", Corpus.T0 + 100, 3), Corpus.T0);
    damage.apply(bad.resolve("logs.arrow"));
    try (LocalQueries q = LocalQueries.open(data, () -> NOW)) {
      SearchResult r = q.search(new SearchQuery(Signal.LOGS, Corpus.T0 - 1, NOW, List.of(), 10, null));
      assertThat(bodies(r)).containsExactly("old2", "old1", "old0");
      assertThat(r.refused()).hasSize(1);
      assertThat(r.refused().get(0).block()).isEqualTo("logs/" + data.relativize(bad).toString().substring(5));
      assertThat(r.refused().get(0).reason()).contains("logs.arrow");
      JsonTree.Obj env = JsonTree.parseObj(ResponseJson.search(r));
      assertThat(((JsonTree.Obj) env.list("refused").get(0)).str("block")).isEqualTo(r.refused().get(0).block());
    }
  }

  @Test
  void aBlockDamagedWhereOnlyRenderingLooksIsRefusedWithoutDisplacingRows() throws Exception {
    Blocks.publish(data, Signal.LOGS, "n", 1, logs("old", Corpus.T0, 3), Corpus.T0);
    // The newest block's rows would fill the page; its resource attributes are damaged.
    Path bad = Blocks.publish(data, Signal.LOGS, "n", 2, logs("new", Corpus.T0 + 100, 3), Corpus.T0);
    truncate(bad.resolve("resource_attrs.arrow"));
    try (LocalQueries q = LocalQueries.open(data, () -> NOW)) {
      SearchResult r = q.search(new SearchQuery(Signal.LOGS, Corpus.T0 - 1, NOW, List.of(), 2, null));
      assertThat(bodies(r)).containsExactly("old2", "old1");
      assertThat(r.refused()).hasSize(1);
      assertThat(r.refused().get(0).reason()).contains("resource_attrs.arrow");
    }
  }
}
