package mira.image;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A {@code bin/mira} child process of the assembled image, with its output collected. */
final class Launched implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile(" listening grpc=(\\S+):(\\d+) http=(\\S+):(\\d+)");

  final Process process;
  private final StringBuilder out = new StringBuilder();
  private final StringBuilder err = new StringBuilder();
  private final List<Thread> pumps = new ArrayList<>();

  private Launched(Process p) {
    this.process = p;
    pumps.add(pump(p.getInputStream(), out));
    pumps.add(pump(p.getErrorStream(), err));
  }

  static Path image() {
    return Path.of(System.getProperty("mira.image", "../target/mira"));
  }

  /** Starts {@code bin/mira} with the given arguments in the given working directory. */
  static Launched start(Path cwd, String... args) throws IOException {
    return start(cwd, java.util.Map.of(), args);
  }

  /** Starts the launcher with {@code env} added to this process's environment. */
  static Launched start(Path cwd, java.util.Map<String, String> env, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(image().resolve("bin/mira").toAbsolutePath().toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
    pb.environment().putAll(env);
    return new Launched(pb.start());
  }

  /** Starts {@code cmd} as given (e.g. the image's entrypoint under chroot), with {@code env} added. */
  static Launched command(Path cwd, java.util.Map<String, String> env, List<String> cmd) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
    pb.environment().putAll(env);
    return new Launched(pb.start());
  }

  private static Thread pump(java.io.InputStream in, StringBuilder into) {
    Thread t = Thread.ofPlatform().daemon().start(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          synchronized (into) {
            into.append(line).append('\n');
          }
        }
      } catch (IOException ignored) {
        // The process went away; what was read is kept.
      }
    });
    return t;
  }

  String stdout() {
    synchronized (out) {
      return out.toString();
    }
  }

  String stderr() {
    synchronized (err) {
      return err.toString();
    }
  }

  /** Waits for the "listening" log line and returns {grpcPort, httpPort}. */
  int[] awaitListening(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      Matcher m = LISTENING.matcher(stderr());
      if (m.find()) {
        return new int[] {Integer.parseInt(m.group(2)), Integer.parseInt(m.group(4))};
      }
      if (!process.isAlive()) {
        throw new AssertionError("mira exited with " + process.exitValue() + " before listening:\n" + stderr() + stdout());
      }
      Thread.sleep(20);
    }
    throw new AssertionError("mira did not report listening within " + timeout + ":\n" + stderr());
  }

  /** Sends SIGHUP (the rules file reload). */
  void hangup() throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(process.pid())).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IOException("kill -HUP " + process.pid() + " failed");
    }
  }

  /** Sends SIGTERM. (Process.destroy would also close our ends of its output streams.) */
  void terminate() {
    process.toHandle().destroy();
  }

  /** Waits for the process to exit and returns its status; fails if it does not exit in time. */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("mira did not exit within " + timeout + ":\n" + stderr());
    }
    for (Thread t : pumps) {
      t.join(2000);
    }
    return process.exitValue();
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroy();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }
}
