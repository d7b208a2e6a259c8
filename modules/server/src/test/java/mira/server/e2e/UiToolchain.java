package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Node, npm and Chromium as the UI tests use them: ui/ installed with {@code npm ci} when it is not yet. */
final class UiToolchain {
  /** The UI's sources, from modules/server (where surefire runs). */
  static final Path UI = Path.of("../../ui").toAbsolutePath().normalize();

  private UiToolchain() {}

  /** What a finished command printed on stdout, and its exit status. */
  record Run(int exit, String out) {}

  static synchronized void install() throws Exception {
    if (Files.isRegularFile(UI.resolve("node_modules/vite/package.json"))
        && Files.isRegularFile(UI.resolve("node_modules/playwright-core/package.json"))) {
      return;
    }
    Run npm = run(List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of(), 10);
    assertThat(npm.exit()).as("npm ci in ui/: " + npm.out()).isZero();
  }

  /** Runs a command in ui/, stderr passed through to the test's own, and waits for it. */
  static Run run(List<String> command, Map<String, String> env, int minutes) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(UI.toFile())
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    // Playwright must never fetch a browser: the tests drive the system's Chromium.
    pb.environment().put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    byte[] out = p.getInputStream().readAllBytes();
    boolean done = p.waitFor(minutes, TimeUnit.MINUTES);
    if (!done) {
      p.destroyForcibly();
    }
    assertThat(done).as(command + " finished within " + minutes + " min").isTrue();
    return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }

  /** Chromium from the PATH (Debian's package installs it as {@code chromium}). */
  static Path chromium() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      for (String name : List.of("chromium", "chromium-browser")) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          return p;
        }
      }
    }
    throw new AssertionError("no chromium on the PATH: install Debian's chromium package (.ci/run does)");
  }
}
