package mira.server.e2e;

import static mira.server.e2e.QueryApiTest.parse;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import mira.server.config.Key;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The UI's token prompt in Chromium, against a node with auth.read_tokens set: ui/test/token.mjs
 * (playwright-core driving the system's Chromium) sees the prompt, a wrong token refused, the right
 * one show the stored rows, the token in sessionStorage and never in the URL, and a reload that
 * needs no prompt. Screenshots go to target/ui-token.
 */
class UiTokenPromptTest {
  static final Path SHOTS = Path.of("target/ui-token").toAbsolutePath();
  private static final String TOKEN = "ui-read-token-0123456789abcdef";

  @TempDir Path dir;

  @Test
  @SuppressWarnings("unchecked")
  void thePromptTakesATokenIntoSessionStorageAndNeverIntoTheUrl() throws Exception {
    UiToolchain.install();
    Files.createDirectories(SHOTS);
    Path tokens = Files.writeString(dir.resolve("read.tokens"), "# the UI's token\n" + TOKEN + "\n");
    try (Node node = new Node(dir.resolve("data"), Map.of(Key.AUTH_READ_TOKENS, tokens.toString(), Key.INGEST_WAL, "true"))) {
      long now = System.currentTimeMillis() * 1_000_000L;
      StringBuilder records = new StringBuilder();
      for (int i = 0; i < 3; i++) {
        records.append(i == 0 ? "" : ",").append("{\"timeUnixNano\":\"").append(now - i * 1_000_000_000L)
            .append("\",\"severityText\":\"INFO\",\"body\":{\"stringValue\":\"token prompt record ").append(i).append("\"}}");
      }
      String export = "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":"
          + "\"ui-token\"}}]},\"scopeLogs\":[{\"logRecords\":[" + records + "]}]}]}";
      HttpExchange stored = HttpExchange.post(node.http() + "/v1/logs", "application/json", null,
          export.getBytes(StandardCharsets.UTF_8));
      assertThat(stored.status()).as("ingest needs no token here").isEqualTo(200);
      assertThat(HttpExchange.send("GET", node.http() + "/api/v1/stats", Map.of(), null, false).status())
          .as("reads need one").isEqualTo(401);

      UiToolchain.Run run = UiToolchain.run(List.of("node", "test/token.mjs", node.http(), TOKEN, SHOTS.toString(),
          UiToolchain.chromium().toString()), Map.of(), 3);
      Files.writeString(SHOTS.resolve("result.json"), run.out());
      Map<String, Object> result = (Map<String, Object>) parse(run.out().getBytes(StandardCharsets.UTF_8));
      assertThat((List<Object>) result.get("failures")).as("failed checks").isEmpty();
      assertThat((List<Object>) result.get("consoleErrors")).as("console errors").isEmpty();
      assertThat(run.exit()).as("token.mjs exit status").isZero();
      assertThat((List<Object>) result.get("passed")).hasSizeGreaterThanOrEqualTo(20);
      for (Object shot : (List<Object>) result.get("screenshots")) {
        assertThat(SHOTS.resolve(shot.toString())).isNotEmptyFile();
      }
    }
  }
}
