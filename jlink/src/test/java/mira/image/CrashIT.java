package mira.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import mira.block.catalog.BlockName;
import mira.block.testing.ArrowTables;
import mira.proto.wire.Signal;
import mira.wal.Wal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill -9 at random moments under load: the real launcher, the write-ahead log on (the default),
 * OTLP/HTTP clients sending all the time. After every kill the node restarts on the same data
 * directory. At the end every acknowledged record is stored exactly once; anything stored twice was
 * never acknowledged; and two clean restarts in a row replay nothing.
 */
class CrashIT {
  private static final int KILLS = 20;
  private static final Duration START = Duration.ofSeconds(30);

  @TempDir Path cwd;

  @Test
  @Timeout(300)
  void everyAcknowledgedRecordSurvivesTwentyKills() throws Exception {
    Path data = cwd.resolve("data");
    int http = freePort();
    int grpc = freePort();
    String[] args = {"serve", "--data-dir", data.toString(), "--node", "crash",
        "--grpc-listen", "127.0.0.1:" + grpc, "--http-listen", "127.0.0.1:" + http};
    Set<String> acked = ConcurrentHashMap.newKeySet();
    Set<String> sent = ConcurrentHashMap.newKeySet();
    AtomicBoolean running = new AtomicBoolean(true);
    HttpClient client = client();
    SplittableRandom random = new SplittableRandom(20261201);
    int replayedAfterKills = 0;

    Launched m = Launched.start(cwd, args);
    m.awaitListening(START);
    try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int t = 0; t < 4; t++) {
        int thread = t;
        clients.submit(() -> {
          for (int e = 0; running.get(); e++) {
            List<String> markers = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
              markers.add("c" + thread + "-" + e + "-" + i);
            }
            sent.addAll(markers);
            try {
              HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http + "/v1/logs"))
                  .timeout(Duration.ofSeconds(5)).header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(json(markers))).build(), HttpResponse.BodyHandlers.ofString());
              if (r.statusCode() == 200) {
                acked.addAll(markers);
              }
            } catch (IOException ex) {
              // The node is down (being killed or restarting), or the answer took longer than the
              // request's timeout: not acknowledged, maybe stored.
              sleepQuietly(20);
            }
          }
          return null;
        });
      }
      try {
        for (int k = 0; k < KILLS; k++) {
          Thread.sleep(200 + random.nextInt(1300));
          m.process.destroyForcibly();
          m.awaitExit(Duration.ofSeconds(20));
          m = Launched.start(cwd, args);
          m.awaitListening(START);
          if (m.stderr().contains("write-ahead log: replayed")) {
            replayedAfterKills++;
          }
        }
        Thread.sleep(500);
      } finally {
        // Also when a restart fails or the test times out: the clients stop, so closing their
        // executor returns (each call ends within its request timeout).
        running.set(false);
      }
    }
    m.terminate();
    assertThat(m.awaitExit(Duration.ofSeconds(30))).isZero();

    // Two clean restarts in a row: the log holds nothing that is not already in a block.
    for (int i = 0; i < 2; i++) {
      Launched again = Launched.start(cwd, args);
      again.awaitListening(START);
      again.terminate();
      assertThat(again.awaitExit(Duration.ofSeconds(30))).isZero();
      assertThat(again.stderr()).as("clean restart %d", i + 1).doesNotContain("write-ahead log: replayed");
    }

    Map<String, Integer> stored = storedMarkers(data);
    List<String> missing = acked.stream().filter(a -> !stored.containsKey(a)).sorted().toList();
    List<String> ackedTwice = acked.stream().filter(a -> stored.getOrDefault(a, 0) > 1).sorted().toList();
    List<String> unknown = stored.keySet().stream().filter(s -> !sent.contains(s)).toList();
    long unackedStored = stored.keySet().stream().filter(s -> !acked.contains(s)).count();
    System.out.printf("crash test: %d kills, %d records sent, %d acknowledged, %d stored (%d of them unacknowledged),"
        + " %d restarts replayed the log%n", KILLS, sent.size(), acked.size(), stored.size(), unackedStored, replayedAfterKills);
    assertThat(acked.size()).as("the clients got acknowledgements between kills").isGreaterThan(1000);
    assertThat(missing).as("acknowledged records missing after %d kills", KILLS).isEmpty();
    assertThat(ackedTwice).as("acknowledged records stored twice").isEmpty();
    assertThat(unknown).isEmpty();
    assertThat(replayedAfterKills).as("kills found exports in the log to replay").isPositive();
  }

  @Test
  @Timeout(120)
  void aDamagedLogTailIsReportedAndTheNodeStarts() throws Exception {
    Path data = cwd.resolve("data");
    int http = freePort();
    String[] args = {"serve", "--data-dir", data.toString(), "--node", "torn",
        "--grpc-listen", "127.0.0.1:" + freePort(), "--http-listen", "127.0.0.1:" + http};
    HttpClient client = client();
    Launched m = Launched.start(cwd, args);
    m.awaitListening(START);
    for (int e = 0; e < 3; e++) {
      List<String> markers = List.of("t-" + e + "-0", "t-" + e + "-1");
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http + "/v1/logs"))
          .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json(markers))).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
    }
    m.process.destroyForcibly();
    m.awaitExit(Duration.ofSeconds(20));
    // Flip one bit inside the last frame of the newest segment that has frames.
    Path seg;
    try (Stream<Path> s = Files.walk(data.resolve("wal"))) {
      seg = s.filter(p -> p.toString().endsWith(".wal")).filter(p -> p.toFile().length() > 0)
          .max(java.util.Comparator.naturalOrder()).orElseThrow();
    }
    byte[] b = Files.readAllBytes(seg);
    b[b.length - 10] ^= 0x01;
    Files.write(seg, b);
    Launched again = Launched.start(cwd, args);
    again.awaitListening(START);
    again.terminate();
    assertThat(again.awaitExit(Duration.ofSeconds(30))).isZero();
    assertThat(again.stderr()).contains("write-ahead log: " + seg.getFileName()).contains("checksum mismatch");
    assertThat(storedMarkers(data).keySet()).as("the frames before the damage were replayed")
        .contains("t-0-0", "t-0-1", "t-1-0", "t-1-1");
  }

  /**
   * A node that died with more logged exports than its heap can hold decoded (here 8,000 of them,
   * written straight into its log) starts under the smallest heap the launcher picks and stores
   * every one: replay reads the log one frame at a time behind the running flushers instead of
   * decoding it all before they start.
   */
  @Test
  @Timeout(240)
  void aLogLargerThanTheHeapReplaysUnderTheSmallestHeap() throws Exception {
    int frames = 8000;
    int perFrame = 25;
    Path data = cwd.resolve("data");
    Path walDir = data.resolve("wal").resolve(BlockName.nodeHex(BlockName.nodeId("small")));
    long now = System.currentTimeMillis() * 1_000_000L;
    try (Wal w = Wal.open(walDir, Signal.values().length, 4 << 20, new long[Signal.values().length],
        (c, s, b) -> true, mira.fs.Fs.REAL).wal()) {
      for (int f = 0; f < frames; f++) {
        ScopeLogs.Builder scope = ScopeLogs.newBuilder();
        for (int i = 0; i < perFrame; i++) {
          scope.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(now + f)
              .setBody(AnyValue.newBuilder().setStringValue("r-" + f + "-" + i)));
        }
        byte[] body = ExportLogsServiceRequest.newBuilder()
            .addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(scope)).build().toByteArray();
        w.append(Signal.LOGS.ordinal(), body, 0, body.length, seq -> {});
      }
    }
    Path cgroup = Files.createDirectories(cwd.resolve("cgroup"));
    Files.writeString(cgroup.resolve("memory.max"), (256L << 20) + "\n");
    String[] args = {"serve", "--data-dir", data.toString(), "--node", "small",
        "--grpc-listen", "127.0.0.1:" + freePort(), "--http-listen", "127.0.0.1:" + freePort()};
    try (Launched m = Launched.start(cwd, Map.of("MIRA_CGROUP_ROOT", cgroup.toString()), args)) {
      m.awaitListening(Duration.ofSeconds(120));
      String cmdline = Files.readString(Path.of("/proc/" + m.process.pid() + "/cmdline")).replace('\0', ' ');
      assertThat(cmdline).as("the launcher's smallest heap").contains("-Xmx64m");
      m.terminate();
      assertThat(m.awaitExit(Duration.ofSeconds(60))).as(m.stderr()).isZero();
      assertThat(m.stdout() + m.stderr()).doesNotContain("OutOfMemoryError")
          .contains("write-ahead log: replayed " + frames + " exports");
    }
    Map<String, Integer> stored = storedMarkers(data);
    assertThat(stored).as("records stored").hasSize(frames * perFrame);
    assertThat(stored.values()).as("each stored once").containsOnly(1);
  }

  /**
   * HTTP/1.1 from the first request: Mira's HTTP listener speaks nothing else, so the JDK client's
   * default h2c upgrade offer on every new connection buys nothing. Every request made with it also
   * names a timeout, so a call the node never answers fails rather than holding the test.
   */
  private static HttpClient client() {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
  }

  private static String json(List<String> markers) {
    StringBuilder b = new StringBuilder("{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[");
    for (int i = 0; i < markers.size(); i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append("{\"timeUnixNano\":\"").append(System.currentTimeMillis() * 1_000_000L)
          .append("\",\"body\":{\"stringValue\":\"").append(markers.get(i)).append("\"}}");
    }
    return b.append("]}]}]}").toString();
  }

  private static Map<String, Integer> storedMarkers(Path data) throws IOException {
    Map<String, Integer> out = new HashMap<>();
    List<Path> blocks;
    try (Stream<Path> s = Files.walk(data.resolve("logs"), 2)) {
      blocks = s.filter(p -> BlockName.parse(p.getFileName().toString()).isPresent())
          .filter(p -> !p.getParent().getFileName().toString().equals(".staging")).toList();
    }
    for (Path b : blocks) {
      for (Map<String, Object> row : ArrowTables.read(b, "logs.arrow").rows()) {
        out.merge((String) row.get("body"), 1, Integer::sum);
      }
    }
    return out;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static void sleepQuietly(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
