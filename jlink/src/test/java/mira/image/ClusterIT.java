package mira.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three launched nodes, each its own process and data directory, sharing one static peer list.
 * A stopped peer (SIGSTOP) costs an answer at most the deadline and is named as timed out; once
 * resumed, answers are whole again; a killed peer is named as refusing connections. Series
 * functions and the service map over points and spans spread across the three equal the answers of
 * a fourth node that holds everything.
 */
class ClusterIT {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final Duration START = Duration.ofSeconds(60);
  private static final JsonFactory JSON = new JsonFactory();

  @TempDir Path dir;

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** {@code n} log records of {@code service}, as OTLP/HTTP JSON. */
  static void logs(int port, String service, int n) throws Exception {
    StringBuilder recs = new StringBuilder();
    long now = System.currentTimeMillis() * 1_000_000L;
    for (int i = 0; i < n; i++) {
      recs.append(i == 0 ? "" : ",").append("{\"timeUnixNano\": \"").append(now - i * 1000)
          .append("\", \"body\": {\"stringValue\": \"").append(service).append(' ').append(i).append("\"}}");
    }
    String body = "{\"resourceLogs\": [{\"resource\": {\"attributes\": [{\"key\": \"service.name\", \"value\": "
        + "{\"stringValue\": \"" + service + "\"}}]}, \"scopeLogs\": [{\"logRecords\": [" + recs + "]}]}]}";
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/logs"))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
  }

  /** What a cluster query answer says: its row count, and the cluster's asked/answered and each error. */
  record Answer(int rows, long asked, long answered, List<String> errors, long tookMs, String body) {}

  static Answer query(int port) throws Exception {
    long t0 = System.nanoTime();
    HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/query"))
        .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"signal\": \"logs\", \"limit\": 1000}")).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    long took = (System.nanoTime() - t0) / 1_000_000;
    assertThat(r.statusCode()).isEqualTo(200);
    int rows = 0;
    long asked = -1;
    long answered = -1;
    List<String> errors = new ArrayList<>();
    try (JsonParser p = JSON.createParser(r.body())) {
      int depth = 0;
      String field = null;
      boolean inRows = false;
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        switch (t) {
          case START_OBJECT, START_ARRAY -> {
            if (depth == 1 && t == JsonToken.START_ARRAY && "rows".equals(field)) {
              inRows = true;
            } else if (inRows && depth == 2) {
              rows++;
            }
            depth++;
          }
          case END_OBJECT, END_ARRAY -> {
            depth--;
            if (depth == 1) {
              inRows = false;
            }
          }
          case FIELD_NAME -> field = p.currentName();
          case VALUE_NUMBER_INT -> {
            if ("asked".equals(field)) {
              asked = p.getLongValue();
            } else if ("answered".equals(field)) {
              answered = p.getLongValue();
            }
          }
          case VALUE_STRING -> {
            if ("error".equals(field) && depth == 4) {
              errors.add(p.getText());
            }
          }
          default -> { }
        }
      }
    }
    return new Answer(rows, asked, answered, errors, took, new String(r.body(), java.nio.charset.StandardCharsets.UTF_8));
  }

  static void signal(Launched m, String sig) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + sig, Long.toString(m.process.pid())).inheritIO().start();
    assertThat(kill.waitFor()).isZero();
  }

  @Test
  void aStoppedPeerCostsAtMostTheDeadlineAndAKilledOneIsNamed() throws Exception {
    int[] http = {freePort(), freePort(), freePort()};
    String peers = "127.0.0.1:" + http[0] + ",127.0.0.1:" + http[1] + ",127.0.0.1:" + http[2];
    Path config = dir.resolve("mira.yaml");
    Files.writeString(config, "{cluster: {peers: \"" + peers + "\", timeout: \"2s\"}}\n");
    List<Launched> nodes = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        Path cwd = Files.createDirectories(dir.resolve("n" + i));
        nodes.add(Launched.start(cwd, "serve", "--config", config.toString(), "--node", "n" + i,
            "--data-dir", cwd.resolve("data").toString(), "--grpc-listen", "127.0.0.1:0",
            "--http-listen", "127.0.0.1:" + http[i]));
      }
      for (Launched n : nodes) {
        n.awaitListening(START);
      }
      for (int i = 0; i < 3; i++) {
        logs(http[i], "svc" + i, 5 + i);
      }
      // Each node's first query is its coldest (classes, first block opened): keep it out of the deadline.
      for (int i = 0; i < 3; i++) {
        query(http[i]);
      }
      Answer whole = query(http[0]);
      assertThat(whole.rows()).as(whole.body()).isEqualTo(18);
      assertThat(whole.asked()).isEqualTo(3);
      assertThat(whole.answered()).isEqualTo(3);

      signal(nodes.get(2), "STOP");
      try {
        Answer stopped = query(http[0]);
        assertThat(stopped.rows()).isEqualTo(11);
        assertThat(stopped.answered()).isEqualTo(2);
        assertThat(stopped.errors()).containsExactly("timeout after 2s");
        // The deadline holds: the 2 s wait plus a margin for a shared 2-core machine.
        assertThat(stopped.tookMs()).isLessThan(5_000);
      } finally {
        signal(nodes.get(2), "CONT");
      }
      Answer resumed = query(http[1]);
      assertThat(resumed.rows()).isEqualTo(18);
      assertThat(resumed.answered()).isEqualTo(3);

      signal(nodes.get(1), "KILL");
      nodes.get(1).awaitExit(Duration.ofSeconds(10));
      Answer killed = query(http[2]);
      assertThat(killed.rows()).isEqualTo(12);
      assertThat(killed.asked()).isEqualTo(3);
      assertThat(killed.answered()).isEqualTo(2);
      assertThat(killed.errors()).containsExactly("connection refused");
    } finally {
      for (Launched n : nodes) {
        n.close();
      }
    }
  }

  /** One OTLP/HTTP JSON request to {@code path} of each port given. */
  static void send(String path, String body, int... ports) throws Exception {
    for (int port : ports) {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
          .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }
  }

  /** The answer's members before {@code "stats"}: what it says, without what it cost or where it came from. */
  static String answer(int port, String path, String doc) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(doc)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(doc + ": " + r.body()).isEqualTo(200);
    return r.body().substring(0, r.body().indexOf("\"stats\""));
  }

  static String resource(String service) {
    return "{\"attributes\": [{\"key\": \"service.name\", \"value\": {\"stringValue\": \"" + service + "\"}}, "
        + "{\"key\": \"service.instance.id\", \"value\": {\"stringValue\": \"" + service + "-1\"}}]}";
  }

  @Test
  void seriesAndTheMapEqualAnOracleHoldingEveryPointAndSpan() throws Exception {
    int[] http = {freePort(), freePort(), freePort(), freePort()};
    String peers = "127.0.0.1:" + http[0] + ",127.0.0.1:" + http[1] + ",127.0.0.1:" + http[2];
    Path config = dir.resolve("mira.yaml");
    Files.writeString(config, "{cluster: {peers: \"" + peers + "\", timeout: \"5s\"}}\n");
    Path alone = dir.resolve("alone.yaml");
    Files.writeString(alone, "{}\n");
    List<Launched> nodes = new ArrayList<>();
    try {
      for (int i = 0; i < 4; i++) {
        Path cwd = Files.createDirectories(dir.resolve("n" + i));
        nodes.add(Launched.start(cwd, "serve", "--config", (i < 3 ? config : alone).toString(), "--node", "n" + i,
            "--data-dir", cwd.resolve("data").toString(), "--grpc-listen", "127.0.0.1:0",
            "--http-listen", "127.0.0.1:" + http[i]));
      }
      for (Launched n : nodes) {
        n.awaitListening(START);
      }
      int oracle = http[3];
      long base = (System.currentTimeMillis() - 60_000) * 1_000_000L;
      // Twelve exports per service, each to the next node in turn and to the oracle: a cumulative counter
      // (db's process restarts at the eighth) and a cumulative histogram, 0.7 s apart.
      String[] services = {"api", "db"};
      long[] value = new long[2];
      long[][] buckets = new long[2][5];
      for (int k = 0; k < 12; k++) {
        for (int s = 0; s < 2; s++) {
          long start = base - 1_000_000_000L;
          if (s == 1 && k >= 7) {
            start = base + 7 * 700_000_000L - 1;
            if (k == 7) {
              value[s] = 0;
              buckets[s] = new long[5];
            }
          }
          value[s] += 3 + (k * 7L + s * 5L) % 11;
          long count = 0;
          for (int b = 0; b < 5; b++) {
            buckets[s][b] += (k + b * 3 + s) % 4;
            count += buckets[s][b];
          }
          long t = base + k * 700_000_000L;
          StringBuilder bc = new StringBuilder();
          for (int b = 0; b < 5; b++) {
            bc.append(b == 0 ? "" : ",").append('"').append(buckets[s][b]).append('"');
          }
          String point = "\"startTimeUnixNano\": \"" + start + "\", \"timeUnixNano\": \"" + t + "\"";
          String body = "{\"resourceMetrics\": [{\"resource\": " + resource(services[s]) + ", \"scopeMetrics\": [{"
              + "\"metrics\": [{\"name\": \"requests\", \"sum\": {\"aggregationTemporality\": 2, \"isMonotonic\": true, "
              + "\"dataPoints\": [{" + point + ", \"asInt\": \"" + value[s] + "\"}]}}, "
              + "{\"name\": \"latency\", \"unit\": \"ms\", \"histogram\": {\"aggregationTemporality\": 2, "
              + "\"dataPoints\": [{" + point + ", \"count\": \"" + count + "\", \"sum\": " + (count * 42.5)
              + ", \"bucketCounts\": [" + bc + "], \"explicitBounds\": [10, 50, 100, 500]}]}}]}]}]}";
          send("/v1/metrics", body, http[(k + s) % 3], oracle);
        }
      }
      // Nine calls front -> back, the client span on one node and its server child on the next.
      for (int k = 0; k < 9; k++) {
        String trace = String.format("%032x", 0xabc000L + k);
        String client = String.format("%016x", 0x100L + k);
        long t = base + k * 1_000_000_000L;
        String front = "{\"resourceSpans\": [{\"resource\": " + resource("front") + ", \"scopeSpans\": [{\"spans\": [{"
            + "\"traceId\": \"" + trace + "\", \"spanId\": \"" + client + "\", \"name\": \"GET /cart\", \"kind\": 3, "
            + "\"startTimeUnixNano\": \"" + t + "\", \"endTimeUnixNano\": \"" + (t + (20 + k * 9) * 1_000_000L) + "\"}]}]}]}";
        String back = "{\"resourceSpans\": [{\"resource\": " + resource("back") + ", \"scopeSpans\": [{\"spans\": [{"
            + "\"traceId\": \"" + trace + "\", \"spanId\": \"" + String.format("%016x", 0x200L + k) + "\", "
            + "\"parentSpanId\": \"" + client + "\", \"name\": \"cart\", \"kind\": 2, "
            + "\"startTimeUnixNano\": \"" + (t + 1_000_000L) + "\", \"endTimeUnixNano\": \"" + (t + (10 + k * 7) * 1_000_000L)
            + "\"" + (k % 4 == 0 ? ", \"status\": {\"code\": 2}" : "") + "}]}]}]}";
        send("/v1/traces", front, http[k % 3], oracle);
        send("/v1/traces", back, http[(k + 1) % 3], oracle);
      }
      String window = "\"from\": \"" + (base - 600_000_000_000L) + "\", \"to\": \"" + (base + 120_000_000_000L) + "\"";
      List<String[]> asks = new ArrayList<>();
      for (String step : List.of("1s", "1h")) {
        String g = window + ", \"step\": \"" + step + "\", \"group_by\": [\"service.name\"]";
        asks.add(new String[] {"/api/v1/series", "{\"name\": \"requests\", " + g + ", \"fn\": \"increase\"}"});
        asks.add(new String[] {"/api/v1/series", "{\"name\": \"requests\", " + g + ", \"fn\": \"rate\"}"});
        asks.add(new String[] {"/api/v1/series", "{\"name\": \"latency\", " + g + ", \"fn\": \"quantile\", \"quantile\": 0.9}"});
        asks.add(new String[] {"/api/v1/series", "{\"name\": \"latency\", " + g + ", \"fn\": \"avg\"}"});
      }
      asks.add(new String[] {"/api/v1/series", "{\"name\": \"requests\", " + window + "}"});
      asks.add(new String[] {"/api/v1/map", "{" + window + "}"});
      for (String[] a : asks) {
        String want = answer(oracle, a[0], a[1]);
        assertThat(want).as(a[1]).doesNotContain("\"series\":[]").doesNotContain("\"edges\":[]")
            .containsAnyOf("\"points\":[{", "\"calls\":\"9\"");
        for (int i = 0; i < 3; i++) {
          assertThat(answer(http[i], a[0], a[1])).as(a[1] + " at n" + i).isEqualTo(want);
        }
      }
    } finally {
      for (Launched n : nodes) {
        n.close();
      }
    }
  }
}
