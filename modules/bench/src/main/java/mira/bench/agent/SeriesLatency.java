package mira.bench.agent;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import mira.bench.telemetry.Fleet;
import mira.bench.telemetry.TelemetryStream;

/**
 * The fleet's p99 latency by service over the last hour, on a 1-minute step, timed the way a
 * client sees it: {@code POST /api/v1/series} over HTTP on loopback, from the request to the parsed
 * answer. First it sends an hour of the load generator's metrics (only metrics) to the node over
 * OTLP/HTTP protobuf: about {@code --points} data points as rounds over the fleet (every pod's
 * metrics once, one export a round) spread evenly over the hour — the 171 pods reporting every
 * 1.2 s for 10 M points — and waits until the node answers for all of them.
 *
 * <pre>
 *   SeriesLatency --http http://127.0.0.1:14318 [--points 10000000] [--runs 20] [--warmup 5]
 * </pre>
 */
public final class SeriesLatency {
  private SeriesLatency() {}

  public static void main(String[] args) throws Exception {
    String http = null;
    long points = 10_000_000;
    int runs = 20;
    int warmup = 5;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--http" -> http = args[++i];
        case "--points" -> points = Long.parseLong(args[++i]);
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--warmup" -> warmup = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + "; options: --http URL --points N --runs N --warmup N");
      }
    }
    if (http == null) {
      throw new IllegalArgumentException("--http http://HOST:PORT is required");
    }
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    long minute = 60_000_000_000L;
    long end = (System.currentTimeMillis() * 1_000_000L / minute - 1) * minute;
    long start = end - 60 * minute;
    TelemetryStream stream = new TelemetryStream(new Fleet(1), 1, 0);
    int perTick = stream.pointsPerRound();
    int ticks = (int) Math.max(1, points / perTick);
    long tickNanos = (end - start) / ticks;

    long t0 = System.nanoTime();
    for (int tick = 0; tick < ticks; tick++) {
      long t = start + (tick + 1) * tickNanos - 1;
      byte[] body = stream.metrics(perTick, t, false).toByteArray();
      HttpResponse<String> a = client.send(HttpRequest.newBuilder(URI.create(http + "/v1/metrics"))
          .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/x-protobuf")
          .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
      if (a.statusCode() != 200) {
        throw new IOException("export " + tick + " answered " + a.statusCode() + ": " + a.body());
      }
    }
    long sent = (long) perTick * ticks;
    System.out.printf(Locale.ROOT, "sent %,d data points over an hour in %,d exports in %.1f s%n", sent, ticks,
        (System.nanoTime() - t0) / 1e9);
    IncidentHour.awaitCounted(http, start, end, List.of("metrics"), sent, Duration.ofSeconds(60));

    String doc = "{\"name\": \"http.server.request.duration\", \"from\": \"" + start + "\", \"to\": \"" + end + "\", "
        + "\"fn\": \"quantile\", \"quantile\": 0.99, \"group_by\": [\"service.name\"], \"step\": \"1m\", "
        + "\"max_series\": 1000, \"max_points\": 1000}";
    System.out.println("document: " + doc);
    double[] ms = new double[runs];
    Map<?, ?> last = null;
    for (int r = -warmup - 1; r < runs; r++) {
      long q0 = System.nanoTime();
      HttpResponse<byte[]> a = client.send(HttpRequest.newBuilder(URI.create(http + "/api/v1/series"))
          .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(doc)).build(), HttpResponse.BodyHandlers.ofByteArray());
      Map<?, ?> answer = (Map<?, ?>) Investigation.read(a.body());
      double took = (System.nanoTime() - q0) / 1e6;
      if (a.statusCode() != 200) {
        throw new IOException("series answered " + a.statusCode() + ": " + new String(a.body(), StandardCharsets.UTF_8));
      }
      if (r == -warmup - 1) {
        System.out.printf(Locale.ROOT, "first %.1f ms%n", took);
      }
      if (r >= 0) {
        ms[r] = took;
      }
      last = answer;
    }
    List<?> all = (List<?>) last.get("series");
    int series = all.size();
    long pts = 0;
    for (Object s : all) {
      pts += ((List<?>) ((Map<?, ?>) s).get("points")).size();
    }
    if (series == 0 || pts == 0) {
      throw new IOException("the answer holds no points: " + last);
    }
    Arrays.sort(ms);
    System.out.printf(Locale.ROOT, "%d series, %d points in the answer; stats %s%n", series, pts, last.get("stats"));
    System.out.printf(Locale.ROOT, "p99 by service, 1 h at 1 m: p50 %.1f ms  p99 %.1f ms  max %.1f ms  (%d runs after %d warm-up)%n",
        ms[(runs - 1) / 2], ms[Math.min(runs - 1, (int) Math.ceil(runs * 0.99) - 1)], ms[runs - 1], runs, warmup);
  }
}
