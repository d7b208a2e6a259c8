package mira.bench.cluster;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
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
 * the p50 of the difference per round ("overhead"); and the p50 of what the fan-out itself adds
 * ("fan-out"): the cluster answer's wall time here, until its last byte arrived (not parsed), minus
 * the largest {@code took_ms} of its own
 * {@code cluster.nodes} (the slowest node's part as the asking node saw it, its reply read), which
 * leaves the asking node's merge and render, the client's request and the answer's transfer, and
 * not the contention of three servers on shared cores that the first difference includes.
 *
 * <p>{@code FanoutCost ROUNDS HOST:PORT HOST:PORT...}; the first address is the one asked for the
 * cluster answer, and every address must be in its {@code cluster.peers}.
 */
public final class FanoutCost {
  private FanoutCost() {}

  private static final JsonFactory JSON = new JsonFactory();

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
    System.out.printf("%-26s %12s %14s %14s %14s%n", "query", "cluster p50", "slowest p50", "overhead p50",
        "fan-out p50");
    for (String[] q : QUERIES) {
      long[] cluster = new long[rounds];
      long[] slowest = new long[rounds];
      long[] over = new long[rounds];
      long[] fanout = new long[rounds];
      for (int i = -Math.min(20, rounds); i < rounds; i++) {
        long now = nowNanos();
        long worst = 0;
        for (String n : nodes) {
          worst = Math.max(worst, time(n, q[1], q[2], now)[0]);
        }
        long[] c = time(nodes.get(0), q[1], q[2], -1);
        if (i >= 0) {
          cluster[i] = c[0];
          slowest[i] = worst;
          over[i] = c[0] - worst;
          fanout[i] = c[1] - c[2] * 1_000_000;
        }
      }
      System.out.printf("%-26s %9.2f ms %11.2f ms %11.2f ms %11.2f ms%n", q[0], p50(cluster), p50(slowest), p50(over),
          p50(fanout));
    }
  }

  /**
   * One query's wall time (ns) with the answer parsed, its wall time (ns) until the answer's last
   * byte arrived, and the largest {@code took_ms} of its {@code cluster.nodes} (0 without them);
   * {@code now} ≥ 0 asks the node alone.
   */
  private static long[] time(String node, String path, String doc, long now) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + node + path))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(doc));
    if (now >= 0) {
      b.header("Mira-Hop", "1").header("Mira-Now", Long.toString(now));
    }
    long t0 = System.nanoTime();
    HttpResponse<byte[]> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    long received = System.nanoTime() - t0;
    if (r.statusCode() != 200) {
      throw new IllegalStateException(node + " answered " + r.statusCode() + ": " + new String(r.body()));
    }
    if (path.endsWith("/series")) {
      ResultReader.series(r.body());
    } else {
      ResultReader.search(r.body());
    }
    long wall = System.nanoTime() - t0;
    return new long[] {wall, received, slowestTook(r.body())};
  }

  /** The largest {@code took_ms} under the answer's top-level {@code cluster.nodes}; 0 if none. */
  static long slowestTook(byte[] body) throws IOException {
    long worst = 0;
    try (JsonParser p = JSON.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return 0;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        if (!field.equals("cluster")) {
          p.skipChildren();
          continue;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String f = p.currentName();
          p.nextToken();
          if (!f.equals("nodes")) {
            p.skipChildren();
            continue;
          }
          while (p.nextToken() == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String k = p.currentName();
              p.nextToken();
              if (k.equals("took_ms")) {
                worst = Math.max(worst, p.getValueAsLong());
              } else {
                p.skipChildren();
              }
            }
          }
        }
      }
    }
    return worst;
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
