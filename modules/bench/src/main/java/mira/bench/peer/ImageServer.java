package mira.bench.peer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Mira node started from a built image ({@code IMAGE/bin/mira serve}) over a copy of a data
 * directory, on loopback ports picked at random in 20000–60000; what {@code --serve} measures
 * against. The copy exists because a server writes to its directory (it compacts blocks older than
 * an hour into the cold tier, replays and trims its write-ahead log), and the corpus must stay
 * exactly what DuckDB and the in-process engine read. Retention is set to 100 years so that an old
 * corpus is not expired; blocks over an hour old are still compacted by the copy's server while it
 * runs (same rows, other costs), so a corpus is best measured within the hour it was written. The
 * copy and the process go at {@link #close}.
 *
 * <p>Not thread-safe; one per run.
 */
final class ImageServer implements AutoCloseable {
  private static final Duration READY = Duration.ofSeconds(60);

  private final Process process;
  private final Path root;
  private final String http;
  private final Path log;

  private ImageServer(Process process, Path root, String http, Path log) {
    this.process = process;
    this.root = root;
    this.http = http;
    this.log = log;
  }

  /**
   * Copies {@code data} under a fresh temporary directory, starts {@code image/bin/mira serve} on it
   * and returns once {@code GET /readyz} answers 200.
   *
   * @throws IOException if the copy fails, or the server exits or is not ready within a minute
   *     (its log is named)
   */
  static ImageServer start(Path image, Path data) throws IOException, InterruptedException {
    Path launcher = image.resolve("bin").resolve("mira");
    if (!Files.isExecutable(launcher)) {
      throw new IOException(launcher + " is not an executable: give --serve the image directory (target/mira)");
    }
    Path root = Files.createTempDirectory("mira-peer-serve-");
    boolean started = false;
    try {
      Path copy = root.resolve("data");
      copyTree(data, copy);
      SplittableRandom rnd = new SplittableRandom(System.nanoTime());
      int grpcPort = freePort(rnd, -1);
      int httpPort = freePort(rnd, grpcPort);
      String http = "127.0.0.1:" + httpPort;
      Path log = root.resolve("server.log");
      // A corpus may be older than the default retention; the copy must keep every block it has.
      Path config = root.resolve("mira.kyaml");
      Files.writeString(config, "{retention: {ttl: \"36500d\"}}\n");
      Process p = new ProcessBuilder(launcher.toString(), "serve", "--config", config.toString(), "--data-dir",
          copy.toString(),
          "--grpc-listen", "127.0.0.1:" + grpcPort, "--http-listen", http)
          .directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      ImageServer s = new ImageServer(p, root, http, log);
      try {
        s.awaitReady();
        started = true;
        return s;
      } finally {
        if (!started) {
          s.stop();
        }
      }
    } finally {
      if (!started) {
        PeerCompare.deleteTree(root);
      }
    }
  }

  /** The HTTP listener, {@code 127.0.0.1:PORT}. */
  String http() {
    return http;
  }

  /** The server's process id. */
  long pid() {
    return process.pid();
  }

  private void awaitReady() throws IOException, InterruptedException {
    HttpClient c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(1)).build();
    HttpRequest ready = HttpRequest.newBuilder(URI.create("http://" + http + "/readyz"))
        .timeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + READY.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("the server exited with status " + process.exitValue() + "; see " + log);
      }
      try {
        if (c.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(50);
    }
    throw new IOException("the server was not ready within " + READY.toSeconds() + " s; see " + log);
  }

  /** A port in 20000–60000 that could be bound on loopback just now, other than {@code not}. */
  private static int freePort(SplittableRandom rnd, int not) throws IOException {
    for (int i = 0; i < 100; i++) {
      int port = rnd.nextInt(20_000, 60_001);
      if (port == not) {
        continue;
      }
      try (ServerSocket s = new ServerSocket()) {
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return port;
      } catch (IOException e) {
        // taken; try another
      }
    }
    throw new IOException("no free loopback port found in 20000-60000 after 100 tries");
  }

  /** Copies every file of {@code from} into {@code to} (which must not exist), directories first. */
  static void copyTree(Path from, Path to) throws IOException {
    List<Path> all;
    try (Stream<Path> s = Files.walk(from)) {
      all = new ArrayList<>(s.toList());
    }
    for (Path p : all) {
      Path target = to.resolve(from.relativize(p).toString());
      if (Files.isDirectory(p)) {
        Files.createDirectories(target);
      } else if (Files.isRegularFile(p)) {
        Files.copy(p, target);
      }
    }
  }

  private void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** Stops the server (SIGTERM, then SIGKILL after 30 s) and removes the copy. */
  @Override
  public void close() throws IOException {
    try {
      stop();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    } finally {
      PeerCompare.deleteTree(root);
    }
  }
}
