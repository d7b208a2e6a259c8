package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ui/dist is committed (a Java build never runs node), so it must be what ui/src builds to: the
 * UI is built again into a temporary directory and compared with it file by file, byte for byte.
 * Vite's output depends only on the sources and the locked dependencies, which makes this exact.
 */
class UiDistFreshTest {
  @TempDir Path out;

  @Test
  void theCommittedBundleIsWhatTheSourcesBuildTo() throws Exception {
    UiToolchain.install();
    UiToolchain.Run build = UiToolchain.run(List.of("npx", "vite", "build", "--logLevel", "warn"),
        Map.of("MIRA_UI_OUT", out.toString()), 5);
    assertThat(build.exit()).as("vite build: " + build.out()).isZero();
    Map<String, byte[]> fresh = files(out);
    Map<String, byte[]> committed = files(UiToolchain.UI.resolve("dist"));
    assertThat(committed.keySet()).as("files in ui/dist; rebuild with `npm run build` in ui/ and commit dist")
        .isEqualTo(fresh.keySet());
    for (String name : fresh.keySet()) {
      assertThat(committed.get(name)).as("ui/dist/" + name + " is stale; run `npm run build` in ui/ and commit dist")
          .isEqualTo(fresh.get(name));
    }
  }

  static Map<String, byte[]> files(Path root) throws IOException {
    Map<String, byte[]> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        out.put(root.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
      }
    }
    return out;
  }
}
