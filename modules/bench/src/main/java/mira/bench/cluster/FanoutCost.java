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
 * the largest {@code took_us} ({@code took_ms} from a node that does not write it) of its own
 * {@code cluster.nodes} (the slowest node's part as the asking node saw it, its reply read), which
 * leaves the asking node's merge and render, the client's request and the answer's transfer, and
 * not the contention of three servers on shared cores that the first difference includes. The
 * cluster answer is asked with {@code Mira-Timing: 1}; when it carries the timing, the p50 of each of
 * its marks is printed under the query, and "outside", the last byte here minus {@code merged_us}.
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
      long[][] split = new long[SPLIT.length][rounds];
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
          fanout[i] = c[1] - c[2] * 1_000;
          for (int k = 0; k < SPLIT.length; k++) {
            split[k][i] = c[3 + k] * 1_000;
          }
          // What lies outside the asked node's work: the question's way in and the answer's way out.
          split[SPLIT.length - 1][i] = c[1] - c[3 + SPLIT.length - 2] * 1_000;
        }
      }
      System.out.printf("%-26s %9.2f ms %11.2f ms %11.2f ms %11.2f ms%n", q[0], p50(cluster), p50(slowest), p50(over),
          p50(fanout));
      if (p50(split[SPLIT.length - 2]) > 0) {
        StringBuilder line = new StringBuilder("  split p50, ms from the document in hand:");
        for (int k = 0; k < SPLIT.length; k++) {
          line.append(String.format(" %s %.2f", SPLIT[k], p50(split[k])));
        }
        System.out.println(line);
      }
    }
  }

  /**
   * The asked node's {@code cluster.timing} (asked with {@code Mira-Timing: 1}), in the order
   * {@link #time} returns them; the last is the client's last byte minus {@code merged_us}.
   */
  private static final String[] SPLIT = {"parsed", "asked", "local", "peers-headers", "peers-body", "peers-read",
      "gathered", "merged", "outside"};

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
    } else {
      b.header("Mira-Timing", "1");
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
    long[] out = new long[3 + SPLIT.length];
    out[0] = wall;
    out[1] = received;
    readCluster(r.body(), out);
    return out;
  }

  /**
   * Into {@code out[2]} the largest {@code took_us} under the answer's top-level {@code cluster.nodes}
   * ({@code took_ms} × 1000 from a node that writes no {@code took_us}; 0 if none), and from
   * {@code out[3]} on the {@code cluster.timing} fields in {@link #SPLIT}'s order (the peers' the
   * largest), all in µs.
   */
  static void readCluster(byte[] body, long[] out) throws IOException {
    long worstMs = 0;
    long worstUs = -1;
    try (JsonParser p = JSON.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return;
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
          if (f.equals("timing")) {
            readTiming(p, out);
            continue;
          }
          if (!f.equals("nodes")) {
            p.skipChildren();
            continue;
          }
          while (p.nextToken() == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String k = p.currentName();
              p.nextToken();
              if (k.equals("took_ms")) {
                worstMs = Math.max(worstMs, p.getValueAsLong());
              } else if (k.equals("took_us")) {
                worstUs = Math.max(worstUs, p.getValueAsLong());
              } else {
                p.skipChildren();
              }
            }
          }
        }
      }
    }
    out[2] = worstUs >= 0 ? worstUs : worstMs * 1_000;
  }

  private static void readTiming(JsonParser p, long[] out) throws IOException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String f = p.currentName();
      p.nextToken();
      switch (f) {
        case "parsed_us" -> out[3] = p.getValueAsLong();
        case "asked_us" -> out[4] = p.getValueAsLong();
        case "local_us" -> out[5] = p.getValueAsLong();
        case "gathered_us" -> out[9] = p.getValueAsLong();
        case "merged_us" -> out[10] = p.getValueAsLong();
        case "peers" -> {
          while (p.nextToken() == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String k = p.currentName();
              p.nextToken();
              switch (k) {
                case "headers_us" -> out[6] = Math.max(out[6], p.getValueAsLong());
                case "body_us" -> out[7] = Math.max(out[7], p.getValueAsLong());
                case "read_us" -> out[8] = Math.max(out[8], p.getValueAsLong());
                default -> p.skipChildren();
              }
            }
          }
        }
        default -> p.skipChildren();
      }
    }
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
