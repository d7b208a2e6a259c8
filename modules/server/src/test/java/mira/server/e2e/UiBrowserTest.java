package mira.server.e2e;

import static mira.server.e2e.QueryApiTest.parse;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The browser UI end to end: a node seeded by the OpenTelemetry SDK ({@link UiSeed}), the UI's unit
 * tests under vitest, and ui/test/browser.mjs driving the system's Chromium through playwright-core
 * against the node. The script checks each view against the API's own answers and prints one JSON
 * document: the checks that failed (none, to pass), what it measured and the screenshots it took
 * (into target/ui-browser).
 */
class UiBrowserTest {
  static final Path SHOTS = Path.of("target/ui-browser").toAbsolutePath();

  @TempDir Path data;

  @Test
  void theUnitTestsPass() throws Exception {
    UiToolchain.install();
    UiToolchain.Run vitest = UiToolchain.run(List.of("npx", "vitest", "run"), Map.of(), 3);
    assertThat(vitest.exit()).as("vitest: " + vitest.out()).isZero();
    assertThat(vitest.out()).contains("passed");
  }

  @Test
  @SuppressWarnings("unchecked")
  void everyViewShowsWhatTheApiAnswersInChromium() throws Exception {
    UiToolchain.install();
    Files.createDirectories(SHOTS);
    try (Node node = new Node(data)) {
      long t0 = System.nanoTime();
      UiSeed.Facts facts = UiSeed.send(node);
      System.err.printf("UiBrowserTest: seeded in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
      UiToolchain.Run run = UiToolchain.run(List.of("node", "test/browser.mjs", node.http(), facts.json(),
          SHOTS.toString(), UiToolchain.chromium().toString()), Map.of(), 4);
      System.err.printf("UiBrowserTest: browser checks done in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
      Files.writeString(SHOTS.resolve("result.json"), run.out());
      Map<String, Object> result = (Map<String, Object>) parse(run.out().getBytes(java.nio.charset.StandardCharsets.UTF_8));
      assertThat((List<Object>) result.get("failures")).as("failed checks").isEmpty();
      assertThat((List<Object>) result.get("consoleErrors")).as("console errors").isEmpty();
      assertThat(run.exit()).as("browser.mjs exit status").isZero();
      assertThat((List<Object>) result.get("passed")).hasSizeGreaterThan(20);
      for (Object shot : (List<Object>) result.get("screenshots")) {
        assertThat(SHOTS.resolve(shot.toString())).isNotEmptyFile();
      }
    }
  }
}
