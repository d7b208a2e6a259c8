package mira.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import mira.block.catalog.BlockName;
import mira.block.testing.ArrowTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image under a small memory limit, flat out: the real launcher reads the limit from a cgroup
 * file (MIRA_CGROUP_ROOT points it at one this test writes, since this machine cannot put a process
 * in a memory cgroup of its own; the limit is then enforced by nothing but this test's assertion),
 * sizes the heap from it, and 24 OTLP/HTTP clients send 4,000-record exports as fast as they are
 * answered. The node must stay under the limit, never throw OutOfMemoryError, answer the overload
 * with 503 + Retry-After, and have stored every record it acknowledged.
 */
class MemoryBoundIT {
  private static final int CLIENTS = 24;
  private static final int RECORDS = 4000;
  private static final Duration LOAD = Duration.ofSeconds(20);
  private static final String PAD = "x".repeat(120);

  @TempDir Path cwd;

  @Test
  @Timeout(300)
  void underA512MiBLimitTheNodeStaysUnderItAndAnswersOverloadWithRetry() throws Exception {
    underLimit(512L << 20, "-Xmx128m");
  }

  /** The smallest heap the launcher picks (a quarter of 256 MiB is its 64 MiB floor). */
  @Test
  @Timeout(300)
  void underA256MiBLimitTheSmallestHeapStillShedsRatherThanRunningOut() throws Exception {
    underLimit(256L << 20, "-Xmx64m");
  }

  private void underLimit(long limit, String heap) throws Exception {
    Path cgroup = Files.createDirectories(cwd.resolve("cgroup"));
    Files.writeString(cgroup.resolve("memory.max"), limit + "\n");
    Path data = cwd.resolve("data");
    int http = freePort();
    String[] args = {"serve", "--data-dir", data.toString(), "--node", "bounded",
        "--grpc-listen", "127.0.0.1:" + freePort(), "--http-listen", "127.0.0.1:" + http};
    Set<String> acked = ConcurrentHashMap.newKeySet();
    AtomicLong retried = new AtomicLong();
    AtomicLong retryWithoutHeader = new AtomicLong();
    Map<Integer, Long> otherStatuses = new ConcurrentHashMap<>();
    AtomicBoolean running = new AtomicBoolean(true);
    long peakSampled = 0;
    long hwm;
    String stats;
    try (Launched m = Launched.start(cwd, Map.of("MIRA_CGROUP_ROOT", cgroup.toString()), args)) {
      m.awaitListening(Duration.ofSeconds(30));
      String cmdline = Files.readString(Path.of("/proc/" + m.process.pid() + "/cmdline")).replace('\0', ' ');
      assertThat(cmdline).as("the heap is a quarter of the limit").contains(heap);
      // The JDK client's default version, as Java exporters use it: each new connection's first
      // request offers an h2c upgrade, which the HTTP/1.1 listener ignores, also when it sheds.
      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      URI uri = URI.create("http://127.0.0.1:" + http + "/v1/logs");
      try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
        for (int c = 0; c < CLIENTS; c++) {
          int id = c;
          clients.submit(() -> {
            for (int e = 0; running.get(); e++) {
              String marker = "m" + id + "-" + e;
              HttpResponse<String> r;
              try {
                r = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(export(marker))).build(),
                    HttpResponse.BodyHandlers.ofString());
              } catch (IOException ex) {
                otherStatuses.merge(-1, 1L, Long::sum);
                continue;
              }
              if (r.statusCode() == 200) {
                acked.add(marker);
              } else if (r.statusCode() == 503) {
                retried.incrementAndGet();
                if (r.headers().firstValue("Retry-After").isEmpty()) {
                  retryWithoutHeader.incrementAndGet();
                }
                Thread.sleep(100);
              } else {
                otherStatuses.merge(r.statusCode(), 1L, Long::sum);
              }
            }
            return null;
          });
        }
        try {
          long end = System.nanoTime() + LOAD.toNanos();
          while (System.nanoTime() < end) {
            assertThat(m.process.isAlive()).as("the node is alive under load:\n%s", tail(m.stderr())).isTrue();
            peakSampled = Math.max(peakSampled, status(m.process.pid(), "VmRSS"));
            Thread.sleep(250);
          }
        } finally {
          running.set(false);
        }
      }
      hwm = status(m.process.pid(), "VmHWM");
      stats = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http + "/api/v1/stats"))
          .timeout(Duration.ofSeconds(30)).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      m.terminate();
      assertThat(m.awaitExit(Duration.ofSeconds(60))).as(m.stderr()).isZero();
      assertThat(m.stdout() + m.stderr()).doesNotContain("OutOfMemoryError").doesNotContain("[error][aot]");
    }
    Map<String, Integer> stored = storedCounts(data);
    List<String> missing = acked.stream().filter(a -> stored.getOrDefault(a, 0) != RECORDS).sorted().toList();
    System.out.printf("memory bound: peak RSS %d MiB (sampled %d MiB) under a %d MiB limit; %d exports acknowledged,"
        + " %d answered 503, other answers %s; stats %s%n", hwm >> 20, peakSampled >> 20, limit >> 20, acked.size(),
        retried.get(), otherStatuses, stats);
    assertThat(hwm).as("peak RSS (VmHWM)").isLessThanOrEqualTo(limit);
    assertThat(retried.get()).as("overload was answered with 503").isPositive();
    assertThat(retryWithoutHeader.get()).as("503 answers without Retry-After").isZero();
    java.util.regex.Matcher shed = java.util.regex.Pattern.compile("\"exports_shed_memory\":\"(\\d+)\"").matcher(stats);
    long shedForMemory = 0;
    while (shed.find()) {
      shedForMemory += Long.parseLong(shed.group(1));
    }
    assertThat(shedForMemory).as("exports shed for the heap budget, in /api/v1/stats").isPositive();
    assertThat(otherStatuses).as("answers other than 200 and 503 (-1: no answer)").isEmpty();
    assertThat(acked).as("exports acknowledged").hasSizeGreaterThan(CLIENTS);
    assertThat(missing).as("acknowledged exports not stored whole").isEmpty();
  }

  private static String tail(String log) {
    return log.length() <= 4000 ? log : log.substring(log.length() - 4000);
  }

  private static byte[] export(String marker) {
    StringBuilder b = new StringBuilder(RECORDS * 200).append("{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[");
    long now = System.currentTimeMillis() * 1_000_000L;
    for (int i = 0; i < RECORDS; i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append("{\"timeUnixNano\":\"").append(now + i).append("\",\"body\":{\"stringValue\":\"")
          .append(marker).append(' ').append(i).append(' ').append(PAD).append("\"}}");
    }
    return b.append("]}]}]}").toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Records stored per export marker, over every published logs block. */
  private static Map<String, Integer> storedCounts(Path data) throws IOException {
    Map<String, Integer> out = new HashMap<>();
    List<Path> blocks;
    try (Stream<Path> s = Files.walk(data.resolve("logs"), 2)) {
      blocks = s.filter(p -> BlockName.parse(p.getFileName().toString()).isPresent())
          .filter(p -> !p.getParent().getFileName().toString().equals(".staging")).toList();
    }
    for (Path b : blocks) {
      for (Map<String, Object> row : ArrowTables.read(b, "logs.arrow").rows()) {
        String body = (String) row.get("body");
        out.merge(body.substring(0, body.indexOf(' ')), 1, Integer::sum);
      }
    }
    return out;
  }

  /** A {@code /proc/PID/status} figure in bytes (the file gives kB). */
  private static long status(long pid, String key) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith(key + ":")) {
        return Long.parseLong(line.substring(key.length() + 1).replace("kB", "").strip()) << 10;
      }
    }
    throw new IOException(key + " not in /proc/" + pid + "/status");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
