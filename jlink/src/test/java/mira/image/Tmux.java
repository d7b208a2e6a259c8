package mira.image;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A real terminal for the terminal UI's tests: a tmux server on its own socket, one session of a
 * given size running a shell; keys go in with send-keys, the screen comes out with capture-pane.
 */
final class Tmux implements AutoCloseable {
  private final String socket = "mira-it-" + ProcessHandle.current().pid() + "-" + System.nanoTime();

  Tmux(int cols, int rows, String cwd) throws IOException, InterruptedException {
    run("new-session", "-d", "-s", "t", "-x", Integer.toString(cols), "-y", Integer.toString(rows), "-c", cwd,
        "env PS1='$ ' TERM=xterm-256color bash --norc --noprofile");
  }

  String run(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("tmux", "-L", socket));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException("tmux " + String.join(" ", args) + " failed: " + out);
    }
    return out;
  }

  /** Types {@code text} then Enter, as a person at the shell would. */
  void line(String text) throws IOException, InterruptedException {
    run("send-keys", "-t", "t", "-l", text);
    run("send-keys", "-t", "t", "Enter");
  }

  /** Sends tmux key names (Enter, Escape, Up, Tab) or literal characters one by one. */
  void keys(String... keys) throws IOException, InterruptedException {
    for (String k : keys) {
      run("send-keys", "-t", "t", k);
    }
  }

  void literal(String text) throws IOException, InterruptedException {
    run("send-keys", "-t", "t", "-l", text);
  }

  String screen() throws IOException, InterruptedException {
    return run("capture-pane", "-p", "-t", "t");
  }

  /** Waits until the screen satisfies {@code ok}; fails with the last screen if it never does. */
  String await(Predicate<String> ok, Duration timeout, String what) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String s = screen();
    while (!ok.test(s)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the screen never showed " + what + "; it shows:\n" + s);
      }
      Thread.sleep(100);
      s = screen();
    }
    return s;
  }

  String await(String text, Duration timeout) throws IOException, InterruptedException {
    return await(s -> s.contains(text), timeout, "\"" + text + "\"");
  }

  void resize(int cols, int rows) throws IOException, InterruptedException {
    run("resize-window", "-t", "t", "-x", Integer.toString(cols), "-y", Integer.toString(rows));
  }

  @Override
  public void close() {
    try {
      run("kill-server");
    } catch (IOException | InterruptedException e) {
      // already gone
    }
  }
}
