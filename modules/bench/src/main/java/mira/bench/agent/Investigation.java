package mira.bench.agent;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import mira.mcp.Tree;

/**
 * The scripted agent: what an investigating agent does with Mira's MCP tools, in three calls and
 * no knowledge of the incident, as plain rules over the answers.
 *
 * <ol>
 *   <li>{@code query_metric}: the fleet's rate of 5xx answers per minute over the last hour. The
 *       incident began at the first minute whose rate is over three times the median of the
 *       hour's first half (and stays over it in the minute after).
 *   <li>{@code service_map} over the first five minutes from then: a service broke if its spans
 *       fail (2 % or more) while none of the services it calls fails (its failures start there,
 *       they are not passed up from below); the upstream services are those with a path of
 *       calls to a broken one.
 *   <li>{@code query_records}: the broken services' ERROR logs since the start: what they say
 *       went wrong.
 * </ol>
 *
 * <p>Each call is timed from request to parsed answer, over HTTP on loopback, the way a client
 * sees it.
 */
public final class Investigation {
  private static final double JUMP = 3.0;
  private static final double FAILING = 0.02;
  private static final long FIVE_MINUTES = 300_000_000_000L;

  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private final URI mcp;
  private int ids;

  /** @param http the node's HTTP listener, {@code http://host:port} */
  public Investigation(String http) {
    this.mcp = URI.create(http + "/mcp");
  }

  /** One tool call: its name, how long it took (ms, request to parsed answer) and its summary line. */
  public record Call(String tool, double ms, String summary) {}

  /**
   * What the script concluded.
   *
   * @param since when the incident began (ns), or -1 if the rate never jumped
   * @param broken the services where failures start
   * @param upstream the services that call a broken one, directly or through others
   * @param errorLogs the broken services' ERROR logs since then: service, time and body
   */
  public record Findings(long since, Set<String> broken, Set<String> upstream, List<String> errorLogs, List<Call> calls) {}

  /** Runs the three calls over the hour that ends at {@code to} (ns). */
  public Findings run(long from, long to) throws IOException, InterruptedException {
    List<Call> calls = new ArrayList<>();

    Map<String, Object> rate = call(calls, "query_metric", Map.of("name", "http.server.requests",
        "from", Long.toString(from), "to", Long.toString(to), "q", "http.response.status_code_class=5xx",
        "fn", "rate", "step", "1m", "group_by", List.of(), "agg", "sum"));
    long since = since(list(rate.get("series")));
    if (since < 0) {
      return new Findings(-1, Set.of(), Set.of(), List.of(), calls);
    }

    Map<String, Object> map = call(calls, "service_map", Map.of("from", Long.toString(since),
        "to", Long.toString(Math.min(to, since + FIVE_MINUTES))));
    Set<String> broken = new TreeSet<>();
    Set<String> upstream = new TreeSet<>();
    blame(list(map.get("nodes")), list(map.get("edges")), broken, upstream);

    List<String> logs = new ArrayList<>();
    if (!broken.isEmpty()) {
      Map<String, Object> found = call(calls, "query_records", Map.of("signal", "logs", "from", Long.toString(since),
          "to", Long.toString(to), "where", List.of(
              Map.of("attr", "service.name", "in", new ArrayList<>(broken)),
              Map.of("field", "severity_number", "gte", 17L)),
          "limit", 10L));
      for (Object o : list(found.get("rows"))) {
        Map<?, ?> row = (Map<?, ?>) o;
        Object service = ((Map<?, ?>) ((Map<?, ?>) row.get("resource")).get("attributes")).get("service.name");
        logs.add(service + " " + row.get("time_unix_nano") + " " + row.get("body"));
      }
    }
    return new Findings(since, broken, upstream, logs, calls);
  }

  /** The start of the first minute over {@link #JUMP} × the first half's median, that the next minute confirms. */
  static long since(List<Object> series) {
    if (series.size() != 1) {
      return -1;
    }
    List<Object> points = list(((Map<?, ?>) series.getFirst()).get("points"));
    int n = points.size();
    if (n < 4) {
      return -1;
    }
    double[] v = new double[n];
    long[] t = new long[n];
    for (int i = 0; i < n; i++) {
      Map<?, ?> p = (Map<?, ?>) points.get(i);
      t[i] = Long.parseLong((String) p.get("time_unix_nano"));
      v[i] = p.get("value") instanceof Number x ? x.doubleValue() : 0;
    }
    double[] first = Arrays.copyOf(v, n / 2);
    Arrays.sort(first);
    double base = first[first.length / 2];
    for (int i = n / 2; i + 1 < n; i++) {
      if (v[i] > JUMP * base && v[i + 1] > JUMP * base) {
        return t[i];
      }
    }
    return -1;
  }

  /** Fills {@code broken} and {@code upstream} from a service map (see the class comment). */
  static void blame(List<Object> nodes, List<Object> edges, Set<String> broken, Set<String> upstream) {
    Map<String, Double> failing = new LinkedHashMap<>();
    Set<String> virtual = new TreeSet<>();
    for (Object o : nodes) {
      Map<?, ?> n = (Map<?, ?>) o;
      String name = (String) n.get("service");
      if (Boolean.TRUE.equals(n.get("virtual"))) {
        virtual.add(name);
        continue;
      }
      double spans = Double.parseDouble((String) n.get("spans"));
      double errors = Double.parseDouble((String) n.get("errors"));
      failing.put(name, spans == 0 ? 0 : errors / spans);
    }
    Map<String, List<String>> calls = new LinkedHashMap<>();
    Map<String, List<String>> callers = new LinkedHashMap<>();
    for (Object o : edges) {
      Map<?, ?> e = (Map<?, ?>) o;
      String from = (String) e.get("from");
      String to = (String) e.get("to");
      if (virtual.contains(to) || from.equals(to)) {
        continue;
      }
      calls.computeIfAbsent(from, k -> new ArrayList<>()).add(to);
      callers.computeIfAbsent(to, k -> new ArrayList<>()).add(from);
    }
    for (Map.Entry<String, Double> s : failing.entrySet()) {
      if (s.getValue() < FAILING) {
        continue;
      }
      boolean below = false;
      for (String d : calls.getOrDefault(s.getKey(), List.of())) {
        below |= failing.getOrDefault(d, 0.0) >= FAILING;
      }
      if (!below) {
        broken.add(s.getKey());
      }
    }
    Deque<String> todo = new ArrayDeque<>(broken);
    while (!todo.isEmpty()) {
      for (String c : callers.getOrDefault(todo.pop(), List.of())) {
        if (!broken.contains(c) && upstream.add(c)) {
          todo.push(c);
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object o) {
    return o instanceof List<?> l ? (List<Object>) l : List.of();
  }

  /** One tools/call (the legacy era, stateless: no initialize is needed); returns structuredContent. */
  @SuppressWarnings("unchecked")
  private Map<String, Object> call(List<Call> calls, String tool, Map<String, Object> arguments)
      throws IOException, InterruptedException {
    Map<String, Object> msg = new LinkedHashMap<>();
    msg.put("jsonrpc", "2.0");
    msg.put("id", (long) ++ids);
    msg.put("method", "tools/call");
    msg.put("params", Map.of("name", tool, "arguments", arguments));
    HttpRequest r = HttpRequest.newBuilder(mcp).timeout(Duration.ofSeconds(60))
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2025-11-25")
        .POST(HttpRequest.BodyPublishers.ofByteArray(write(msg))).build();
    long t0 = System.nanoTime();
    HttpResponse<byte[]> a = client.send(r, HttpResponse.BodyHandlers.ofByteArray());
    Map<String, Object> reply = (Map<String, Object>) read(a.body());
    double ms = (System.nanoTime() - t0) / 1e6;
    if (a.statusCode() != 200 || !(reply.get("result") instanceof Map<?, ?> result)) {
      throw new IOException(tool + " answered " + a.statusCode() + ": " + new String(a.body(), java.nio.charset.StandardCharsets.UTF_8));
    }
    String text = (String) ((Map<?, ?>) ((List<?>) result.get("content")).getFirst()).get("text");
    if (Boolean.TRUE.equals(result.get("isError"))) {
      throw new IOException(tool + " refused: " + text);
    }
    calls.add(new Call(tool, ms, text.lines().findFirst().orElse("")));
    return (Map<String, Object>) result.get("structuredContent");
  }

  private static byte[] write(Object o) {
    return Tree.bytes(o);
  }

  static Object read(byte[] body) throws IOException {
    return Tree.parseAnswer(body);
  }
}
