package mira.server.e2e;

import static mira.server.e2e.QueryApiTest.obj;
import static mira.server.e2e.QueryApiTest.post;
import static mira.server.e2e.QueryApiTest.rows;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mira.proto.wire.Signal;
import mira.server.config.Key;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With the write-ahead log on, an export is acknowledged before its block is published; a query
 * issued right after the acknowledgement still returns it (read from a snapshot of the open block),
 * exactly once before and after the seal, and a cursor taken on open data stays valid afterwards.
 */
class ReadYourWritesTest {
  @TempDir Path data;

  private static String logs(String prefix, int n, long time) {
    StringBuilder b = new StringBuilder("{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[");
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "" : ",").append("{\"timeUnixNano\":\"").append(time)
          .append("\",\"body\":{\"stringValue\":\"").append(prefix).append(i).append("\"}}");
    }
    return b.append("]}]}]}").toString();
  }

  private static HttpExchange ingest(Node node, String body) throws Exception {
    return HttpExchange.post(node.http() + "/v1/logs", "application/json", null, body.getBytes());
  }

  private static void awaitPublished(Node node, int blocks) throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (node.blocks(Signal.LOGS).size() < blocks && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(node.blocks(Signal.LOGS)).hasSize(blocks);
  }

  @Test
  void aRecordIsFoundImmediatelyAfterItsExportIsAcknowledged() throws Exception {
    try (Node node = new Node(data, Map.of(Key.INGEST_WAL, "true"))) {
      long now = System.currentTimeMillis() * 1_000_000L;
      assertThat(ingest(node, logs("fresh-", 1, now)).status()).isEqualTo(200);
      assertThat(node.blocks(Signal.LOGS)).as("not yet published: the answer comes from the open block").isEmpty();
      List<Map<String, Object>> before = rows(obj(post(node, "/api/v1/query",
          "{\"signal\": \"logs\", \"where\": [{\"text\": \"fresh-\"}]}")));
      assertThat(before).extracting(r -> r.get("body")).containsExactly("fresh-0");
      awaitPublished(node, 1);
      List<Map<String, Object>> after = rows(obj(post(node, "/api/v1/query",
          "{\"signal\": \"logs\", \"where\": [{\"text\": \"fresh-\"}]}")));
      assertThat(after).as("exactly once: the published block replaces the snapshot").isEqualTo(before);
    }
  }

  @Test
  void aCursorTakenOnOpenDataStaysValidAfterTheSeal() throws Exception {
    try (Node node = new Node(data, Map.of(Key.INGEST_WAL, "true"))) {
      long now = System.currentTimeMillis() * 1_000_000L;
      // Five records sharing one nanosecond: the cursor must split ties exactly.
      assertThat(ingest(node, logs("tie-", 5, now)).status()).isEqualTo(200);
      Map<String, Object> first = obj(post(node, "/api/v1/query", "{\"signal\": \"logs\", \"limit\": 2}"));
      String next = (String) first.get("next");
      assertThat(next).isNotNull();
      List<Object> seen = new ArrayList<>();
      rows(first).forEach(r -> seen.add(r.get("body")));
      awaitPublished(node, 1);
      String after = next;
      while (after != null) {
        Map<String, Object> page = obj(post(node, "/api/v1/query", "{\"signal\": \"logs\", \"limit\": 2, \"after\": \"" + after + "\"}"));
        rows(page).forEach(r -> seen.add(r.get("body")));
        after = (String) page.get("next");
      }
      assertThat(seen).containsExactlyInAnyOrder("tie-0", "tie-1", "tie-2", "tie-3", "tie-4").doesNotHaveDuplicates();
    }
  }
}
