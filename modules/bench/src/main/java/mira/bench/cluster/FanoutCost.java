package mira.bench.cluster;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mira.client.ResultReader;

/**
 * The cost of a cluster answer as a user sees it: for each query, over HTTP with the JSON parsed,
 * the time of the answer asked at the first node (which asks the others) against the slowest of the
 * nodes asked alone ({@code Mira-Hop: 1}) in the same round. Prints, per query, the p50 of each and
 * the p50 of the difference per round.
 *
 * <p>{@code FanoutCost ROUNDS HOST:PORT HOST:PORT...}; the first address is the one asked for the
 * cluster answer, and every address must be in its {@code cluster.peers}.
 */
public final class FanoutCost {
  private FanoutCost() {}

  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  /** Label, path, document. */
  private static final String[][] QUERIES = {
      {"last 100 logs", "/api/v1/query", "{\"signal\": \"logs\", \"limit\": 100}"},
      {"error logs, last 15m", "/api/v1/query", "{\"signal\": \"logs\", \"from\": \"-15m\", \"where\": [{\"field\": \"severity_number\", \"gte\": 17}], \"limit\": 100}"},
      {"spans, status error, 5m", "/api/v1/query", "{\"signal\": \"traces\", \"from\": \"-5m\", \"where\": [{\"field\": \"status_code\", \"eq\": 2}], \"limit\": 100}"},
      {"empty: no such service", "/api/v1/query", "{\"signal\": \"logs\", \"where\": [{\"attr\": \"service.name\", \"eq\": \"no-such-service\"}], \"limit\": 100}"},
      // Series functions: the peers send their points, the asked node computes (docs/api.md, "Replicas").
      {"rate by service, 10s step", "/api/v1/series", "{\"name\": \"http.server.requests\", \"from\": \"-5m\", \"step\": \"10s\", \"fn\": \"rate\", \"group_by\": [\"service.name\"]}"},
      {"p99 by service, 10s step", "/api/v1/series", "{\"name\": \"http.server.request.duration\", \"from\": \"-5m\", \"step\": \"10s\", \"fn\": \"quantile\", \"quantile\": 0.99, \"group_by\": [\"service.name\"]}"},
  };

  public static void main(String[] args) throws Exception {
    int rounds = Integer.parseInt(args[0]);
    List<String> nodes = Arrays.asList(args).subList(1, args.length);
    System.out.printf("%-26s %12s %14s %14s%n", "query", "cluster p50", "slowest p50", "overhead p50");
    for (String[] q : QUERIES) {
      long[] cluster = new long[rounds];
      long[] slowest = new long[rounds];
      long[] over = new long[rounds];
      for (int i = -Math.min(20, rounds); i < rounds; i++) {
        long now = nowNanos();
        long worst = 0;
        for (String n : nodes) {
          worst = Math.max(worst, time(n, q[1], q[2], now));
        }
        long c = time(nodes.get(0), q[1], q[2], -1);
        if (i >= 0) {
          cluster[i] = c;
          slowest[i] = worst;
          over[i] = c - worst;
        }
      }
      System.out.printf("%-26s %9.2f ms %11.2f ms %11.2f ms%n", q[0], p50(cluster), p50(slowest), p50(over));
    }
  }

  /** One query's wall time (ns), the answer parsed; {@code now} ≥ 0 asks the node alone. */
  private static long time(String node, String path, String doc, long now) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + node + path))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(doc));
    if (now >= 0) {
      b.header("Mira-Hop", "1").header("Mira-Now", Long.toString(now));
    }
    long t0 = System.nanoTime();
    HttpResponse<byte[]> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200) {
      throw new IllegalStateException(node + " answered " + r.statusCode() + ": " + new String(r.body()));
    }
    if (path.endsWith("/series")) {
      ResultReader.series(r.body());
    } else {
      ResultReader.search(r.body());
    }
    return System.nanoTime() - t0;
  }

  private static double p50(long[] ns) {
    long[] s = ns.clone();
    Arrays.sort(s);
    return s[s.length / 2] / 1e6;
  }

  private static long nowNanos() {
    Instant t = Instant.now();
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }
}
