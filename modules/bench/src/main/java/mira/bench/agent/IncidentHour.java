package mira.bench.agent;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import mira.bench.telemetry.Fleet;
import mira.bench.telemetry.Incident;
import mira.bench.telemetry.TelemetryStream;

/**
 * An hour of the load generator's fleet, sent to a node over OTLP/HTTP: every 10 s of simulated
 * time one export of logs and one of spans, stamped at that time, and half a minute into every
 * minute one round of metrics (every pod reports once a minute, as a 60 s scrape or export
 * interval would); from minute 40 on, the incident is on. The hour ends a minute before the wall clock, so it is the
 * last hour a query with relative times sees, and the incident's start is known to the
 * nanosecond: {@link #incidentStart()}.
 */
public final class IncidentHour {
  /** Ticks of 10 s in the hour. */
  static final int TICKS = 360;
  /** The tick at which the incident starts: minute 40. */
  static final int INCIDENT_TICK = 240;
  private static final long TICK_NANOS = 10_000_000_000L;

  /** The tick within each minute at which the fleet's metrics are taken: 30 s into it. */
  private static final int METRICS_TICK = 2;

  private final long start;
  private final int perTick;
  private final int perRound;
  private final Fleet fleet;
  private final long seed;

  /**
   * @param records about how many log records and spans in all (in equal shares); the metric
   *     points come on top, one round of the fleet a minute
   * @param nowNanos the wall clock; the hour starts on the minute 61 minutes before it
   */
  public IncidentHour(long records, long nowNanos, long seed) {
    long minute = 60_000_000_000L;
    this.start = (nowNanos / minute - 61) * minute;
    this.perTick = (int) Math.max(10, records / 2 / TICKS);
    this.seed = seed;
    this.fleet = new Fleet(seed);
    this.perRound = new TelemetryStream(fleet, seed, 0).pointsPerRound();
  }

  /** When the incident starts: a minute boundary, 40 minutes into the hour. */
  public long incidentStart() {
    return start + INCIDENT_TICK * TICK_NANOS;
  }

  /** When the hour starts and ends. */
  public long start() {
    return start;
  }

  public long end() {
    return start + TICKS * TICK_NANOS;
  }

  /** Records sent in all: log records, spans and data points. */
  public long records() {
    return 2L * perTick * TICKS + (long) perRound * (TICKS / 6);
  }

  /** The services the incident hits. */
  public static Set<String> hit() {
    return Set.of(Incident.SERVICES);
  }

  /**
   * The services a trace can reach: from the entry services along the call graph. A service the
   * incident hits but no trace reaches fails in its metrics and logs only.
   */
  public Set<String> reachable() {
    Set<String> seen = new TreeSet<>(Fleet.ENTRY);
    Deque<String> todo = new ArrayDeque<>(Fleet.ENTRY);
    while (!todo.isEmpty()) {
      for (String d : fleet.downstream(todo.pop())) {
        if (seen.add(d)) {
          todo.push(d);
        }
      }
    }
    return seen;
  }

  /** What the traces must show as broken: the services the incident hits that traces reach. */
  public Set<String> brokenInTraces() {
    Set<String> out = new TreeSet<>(hit());
    out.retainAll(reachable());
    return out;
  }

  /** The services with a path of calls to a broken one (and not broken themselves). */
  public Set<String> upstream() {
    Set<String> broken = brokenInTraces();
    Set<String> out = new TreeSet<>();
    for (String s : reachable()) {
      if (!broken.contains(s) && reaches(s, broken, new TreeSet<>())) {
        out.add(s);
      }
    }
    return out;
  }

  private boolean reaches(String from, Set<String> targets, Set<String> seen) {
    for (String d : fleet.downstream(from)) {
      if (targets.contains(d) || (seen.add(d) && reaches(d, targets, seen))) {
        return true;
      }
    }
    return false;
  }

  /** Sends the hour to the OTLP/HTTP listener at {@code http} ({@code http://host:port}); returns records sent. */
  public long send(String http) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    TelemetryStream stream = new TelemetryStream(fleet, seed, 0);
    List<String> refused = new ArrayList<>();
    for (int tick = 0; tick < TICKS; tick++) {
      long t = start + (tick + 1) * TICK_NANOS;
      boolean incident = tick >= INCIDENT_TICK;
      post(client, http + "/v1/logs", stream.logs(perTick, t, incident).toByteArray(), refused);
      post(client, http + "/v1/traces", stream.traces(perTick, t, incident).toByteArray(), refused);
      if (tick % 6 == METRICS_TICK) {
        post(client, http + "/v1/metrics", stream.metrics(perRound, t, incident).toByteArray(), refused);
      }
      if (!refused.isEmpty()) {
        throw new IOException("the node refused an export: " + refused.getFirst());
      }
    }
    return records();
  }

  /**
   * Waits until the node answers for every record sent: with the write-ahead log on, an export is
   * acknowledged once it is durable, a moment before a query can read it.
   */
  public void awaitVisible(String http, Duration timeout) throws IOException, InterruptedException {
    awaitCounted(http, start, end(), List.of("logs", "traces", "metrics"), records(), timeout);
  }

  /**
   * Polls {@code GET /api/v1/services} over {@code [from, to]} until its counts of {@code signals},
   * summed over the services, reach {@code expected}; fails after {@code timeout}.
   */
  static void awaitCounted(String http, long from, long to, List<String> signals, long expected, Duration timeout)
      throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest r = HttpRequest.newBuilder(URI.create(http + "/api/v1/services?from=" + from + "&to=" + to))
        .timeout(Duration.ofSeconds(30)).GET().build();
    long deadline = System.nanoTime() + timeout.toNanos();
    long seen = -1;
    while (System.nanoTime() < deadline) {
      HttpResponse<byte[]> a = client.send(r, HttpResponse.BodyHandlers.ofByteArray());
      seen = 0;
      if (a.statusCode() == 200) {
        for (Object o : (List<?>) ((Map<?, ?>) Investigation.read(a.body())).get("services")) {
          Map<?, ?> counts = (Map<?, ?>) ((Map<?, ?>) o).get("signals");
          for (String signal : signals) {
            seen += Long.parseLong((String) counts.get(signal));
          }
        }
        if (seen >= expected) {
          return;
        }
      }
      Thread.sleep(100);
    }
    throw new IOException("after " + timeout + " the node answers for " + seen + " of the " + expected + " records sent");
  }

  private static void post(HttpClient client, String uri, byte[] body, List<String> refused)
      throws IOException, InterruptedException {
    HttpRequest r = HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/x-protobuf").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    for (int attempt = 0; ; attempt++) {
      HttpResponse<String> a = client.send(r, HttpResponse.BodyHandlers.ofString());
      if (a.statusCode() == 200) {
        return;
      }
      if ((a.statusCode() == 503 || a.statusCode() == 429) && attempt < 20) {
        Thread.sleep(200);
        continue;
      }
      refused.add(uri + ": " + a.statusCode() + " " + a.body());
      return;
    }
  }
}
