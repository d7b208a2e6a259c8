package mira.server.e2e;

import static mira.server.e2e.QueryApiTest.get;
import static mira.server.e2e.QueryApiTest.map;
import static mira.server.e2e.QueryApiTest.obj;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exports the HTTP receiver refuses before decoding are counted per signal in /api/v1/stats. */
class ReceiverRefusalStatsTest {
  @TempDir Path data;

  @Test
  void methodSizeAndMediaTypeRefusalsAreCountedPerSignal() throws Exception {
    try (Node node = new Node(data)) {
      assertThat(HttpExchange.send("GET", node.http() + "/v1/logs", Map.of(), null, false).status()).isEqualTo(405);
      assertThat(HttpExchange.send("PUT", node.http() + "/v1/logs", Map.of("Content-Type", "application/json"),
          "{}".getBytes(), false).status()).isEqualTo(405);
      assertThat(HttpExchange.post(node.http() + "/v1/logs", "text/plain", null, "x".getBytes()).status())
          .isEqualTo(415);
      assertThat(HttpExchange.post(node.http() + "/v1/traces", "application/json", "br", "{}".getBytes()).status())
          .isEqualTo(415);
      byte[] huge = new byte[16 * 1024 * 1024 + 1]; // one byte over ingest.max_request_bytes
      assertThat(HttpExchange.post(node.http() + "/v1/metrics", "application/x-protobuf", null, huge).status())
          .isEqualTo(413);
      assertThat(QueryApiTest.post(node, "/v1/logs", "{}").status()).isEqualTo(200);

      Map<String, Object> signals = map(obj(get(node, "/api/v1/stats")).get("signals"));
      assertThat(map(map(signals.get("logs")).get("receiver_refused"))).containsEntry("method_not_allowed", "2")
          .containsEntry("unsupported_media_type", "1").containsEntry("too_large", "0");
      assertThat(map(map(signals.get("traces")).get("receiver_refused"))).containsEntry("unsupported_media_type", "1")
          .containsEntry("method_not_allowed", "0");
      assertThat(map(map(signals.get("metrics")).get("receiver_refused"))).containsEntry("too_large", "1");
    }
  }
}
