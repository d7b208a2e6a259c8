package mira.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The soak's own part, beside a load generator run against the same node (see
 * {@code modules/bench/soak}): for {@code --for}, every 5 s it sends a canary export over OTLP/HTTP
 * JSON (10 log records stamped now) and a metric point stamped 90 minutes ago (so its block goes cold
 * and is compacted) or 30 hours ago (so retention removes it), and every 30 s it samples the
 * server process: open file descriptors, threads, resident memory, bytes mapped from the data
 * directory. At the end it reads every acknowledged canary back (each must hold exactly its 10
 * records) and prints the samples and a verdict.
 *
 * <p>{@code Soak --http HOST:PORT --pid PID --data-dir DIR --for DURATION --out FILE.csv}. Exit 0
 * when every acknowledged canary is whole and descriptors, threads and mappings ended where they
 * were after the warm-up (within a margin), 1 otherwise.
 */
public final class Soak {
  private static final Duration CANARY_EVERY = Duration.ofSeconds(5);
  private static final Duration SAMPLE_EVERY = Duration.ofSeconds(30);
  private static final int CANARY_RECORDS = 10;

  private Soak() {}

  record Sample(long atSeconds, int fds, int threads, long rss, long mapped) {
    String csv() {
      return atSeconds + "," + fds + "," + threads + "," + rss + "," + mapped;
    }
  }

  public static void main(String[] args) throws Exception {
    String http = null;
    long pid = -1;
    Path dataDir = null;
    Duration runFor = null;
    Path out = null;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--http" -> http = args[i + 1];
        case "--pid" -> pid = Long.parseLong(args[i + 1]);
        case "--data-dir" -> dataDir = Path.of(args[i + 1]).toAbsolutePath();
        case "--for" -> runFor = Options.duration(args[i + 1]);
        case "--out" -> out = Path.of(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (http == null || pid < 0 || dataDir == null || runFor == null || out == null) {
      System.err.println("usage: Soak --http HOST:PORT --pid PID --data-dir DIR --for DURATION --out FILE.csv");
      System.exit(2);
    }
    System.exit(run(http, pid, dataDir, runFor, out, System.out));
  }

  static int run(String http, long pid, Path dataDir, Duration runFor, Path out, PrintStream report)
      throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    String base = "http://" + http;
    List<Integer> acked = new ArrayList<>();
    int refused = 0;
    List<Sample> samples = new ArrayList<>();
    long start = System.nanoTime();
    long end = start + runFor.toNanos();
    long nextSample = start;
    int n = 0;
    while (System.nanoTime() < end) {
      long now = System.currentTimeMillis() * 1_000_000L;
      int status = post(client, base + "/v1/logs", canary(n, now));
      if (status == 200) {
        acked.add(n);
      } else {
        refused++;
      }
      // Metrics carry only these (the load generator sends none), so their blocks hold nothing newer:
      // even rounds go cold, odd rounds expire, 5 s apart so they land in different blocks.
      if (n % 2 == 0) {
        post(client, base + "/v1/metrics", point("soak.cold", now - Duration.ofMinutes(90).toNanos()));
      } else {
        post(client, base + "/v1/metrics", point("soak.expired", now - Duration.ofHours(30).toNanos()));
      }
      n++;
      if (System.nanoTime() >= nextSample) {
        samples.add(sample(pid, dataDir, (System.nanoTime() - start) / 1_000_000_000L));
        nextSample += SAMPLE_EVERY.toNanos();
      }
      Thread.sleep(CANARY_EVERY.toMillis());
    }
    samples.add(sample(pid, dataDir, (System.nanoTime() - start) / 1_000_000_000L));
    List<String> csv = new ArrayList<>();
    csv.add("seconds,fds,threads,rss_bytes,mapped_bytes");
    samples.forEach(s -> csv.add(s.csv()));
    Files.write(out, csv);

    java.util.Map<Integer, Integer> stored = canaries(client, base);
    List<String> missing = new ArrayList<>();
    for (int c : acked) {
      int rows = stored.getOrDefault(c, 0);
      if (rows != CANARY_RECORDS) {
        missing.add("canary " + c + ": " + rows + " of " + CANARY_RECORDS + " records");
      }
    }
    String stats = get(client, base + "/api/v1/stats");
    report.println("soak: " + n + " canaries sent, " + acked.size() + " acknowledged, " + refused + " refused; "
        + missing.size() + " acknowledged canaries not whole");
    missing.stream().limit(20).forEach(m -> report.println("  " + m));
    report.println("soak: cold blocks " + coldBlocks(dataDir) + "; retention " + field(stats, "\"retention\"\\s*:\\s*\\{[^}]*\\}"));
    // Flat means the last third of the run never goes above what the run had already reached
    // before it (after the first two samples, the start-up): a bounded heap saws up and down, a
    // leak or an unbounded heap keeps setting new highs.
    Sample settled = samples.size() > 2 ? samples.get(2) : samples.getFirst();
    Sample last = samples.getLast();
    Sample peak = samples.stream().reduce((a, b) -> a.rss() >= b.rss() ? a : b).orElseThrow();
    report.printf("soak: fds %d → %d, threads %d → %d, rss %.0f → %.0f MiB (peak %.0f), mapped %.0f → %.0f MiB%n",
        settled.fds(), last.fds(), settled.threads(), last.threads(), settled.rss() / 1048576.0, last.rss() / 1048576.0,
        peak.rss() / 1048576.0, settled.mapped() / 1048576.0, last.mapped() / 1048576.0);
    List<String> grew = grew(samples);
    report.println("soak: " + (missing.isEmpty() && grew.isEmpty() ? "PASS" : "FAIL")
        + (grew.isEmpty() ? "" : " (grew: " + String.join(", ", grew) + ")"));
    return missing.isEmpty() && grew.isEmpty() ? 0 : 1;
  }

  /** The figures whose highest value in the last third of the run is above the earlier high (with a margin). */
  static List<String> grew(List<Sample> samples) {
    List<String> grew = new ArrayList<>();
    int from = Math.min(2, samples.size() - 1);
    int cut = from + (samples.size() - from) * 2 / 3;
    if (cut >= samples.size()) {
      return grew;
    }
    List<Sample> before = samples.subList(from, cut);
    List<Sample> after = samples.subList(cut, samples.size());
    if (max(after, Sample::fds) > max(before, Sample::fds) + 16) {
      grew.add("file descriptors");
    }
    if (max(after, Sample::threads) > max(before, Sample::threads) + 8) {
      grew.add("threads");
    }
    if (max(after, Sample::mapped) > max(before, Sample::mapped) * 5 / 4 + (64L << 20)) {
      grew.add("mapped bytes");
    }
    if (max(after, Sample::rss) > max(before, Sample::rss) * 5 / 4) {
      grew.add("resident memory");
    }
    return grew;
  }

  private static long max(List<Sample> s, java.util.function.ToLongFunction<Sample> f) {
    return s.stream().mapToLong(f).max().orElse(0);
  }

  private static String canary(int n, long now) {
    StringBuilder b = new StringBuilder("{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\","
        + "\"value\":{\"stringValue\":\"soak-canary\"}}]},\"scopeLogs\":[{\"logRecords\":[");
    for (int k = 0; k < CANARY_RECORDS; k++) {
      b.append(k == 0 ? "" : ",").append("{\"timeUnixNano\":\"").append(now + k).append("\",\"body\":{\"stringValue\":\"canary-")
          .append(n).append('-').append(k).append("\"}}");
    }
    return b.append("]}]}]}").toString();
  }

  private static String point(String name, long time) {
    return "{\"resourceMetrics\":[{\"scopeMetrics\":[{\"metrics\":[{\"name\":\"" + name
        + "\",\"gauge\":{\"dataPoints\":[{\"timeUnixNano\":\"" + time + "\",\"asDouble\":1}]}}]}]}]}";
  }

  private static int post(HttpClient c, String url, String json) throws InterruptedException {
    try {
      HttpResponse<String> r = c.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
          .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
          HttpResponse.BodyHandlers.ofString());
      return r.statusCode();
    } catch (IOException e) {
      return -1;
    }
  }

  private static String get(HttpClient c, String url) throws InterruptedException {
    try {
      return c.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
          HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      return "";
    }
  }

  private static final Pattern BODY = Pattern.compile("\"body\"\\s*:\\s*\"canary-([0-9]+)-[0-9]+\"");
  private static final Pattern NEXT = Pattern.compile("\"next\"\\s*:\\s*\"([^\"]+)\"");

  /**
   * Records per canary, read back page by page through the canaries' own service (its attribute
   * index lets the query skip the load generator's blocks).
   */
  private static java.util.Map<Integer, Integer> canaries(HttpClient c, String base) throws InterruptedException, IOException {
    java.util.Map<Integer, Integer> out = new java.util.HashMap<>();
    String after = null;
    do {
      String doc = "{\"signal\":\"logs\",\"from\":\"-2d\",\"limit\":1000,\"q\":\"service.name=soak-canary\""
          + (after == null ? "" : ",\"after\":\"" + after + "\"") + "}";
      HttpResponse<String> r = c.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/query"))
          .timeout(Duration.ofSeconds(120)).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(doc)).build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IOException("reading the canaries back: HTTP " + r.statusCode() + ": " + r.body());
      }
      Matcher m = BODY.matcher(r.body());
      while (m.find()) {
        out.merge(Integer.parseInt(m.group(1)), 1, Integer::sum);
      }
      Matcher n = NEXT.matcher(r.body());
      after = n.find() ? n.group(1) : null;
    } while (after != null);
    return out;
  }

  private static String field(String json, String regex) {
    Matcher m = Pattern.compile(regex).matcher(json);
    return m.find() ? m.group() : "(not in /api/v1/stats)";
  }

  private static long coldBlocks(Path dataDir) throws IOException {
    try (Stream<Path> s = Files.walk(dataDir)) {
      return s.filter(p -> p.getFileName().toString().equals("cold")).count();
    }
  }

  static Sample sample(long pid, Path dataDir, long at) throws IOException {
    Path proc = Path.of("/proc", Long.toString(pid));
    int fds;
    try (Stream<Path> s = Files.list(proc.resolve("fd"))) {
      fds = (int) s.count();
    }
    String status = Files.readString(proc.resolve("status"));
    int threads = 0;
    for (String line : status.split("\n")) {
      if (line.startsWith("Threads:")) {
        threads = Integer.parseInt(line.substring(8).strip());
      }
    }
    long rss = ProcFs.memory(status).vmRss();
    long mapped = 0;
    String prefix = dataDir.toString();
    for (String line : Files.readAllLines(proc.resolve("maps"))) {
      int slash = line.indexOf('/');
      if (slash > 0 && line.substring(slash).startsWith(prefix)) {
        String[] range = line.substring(0, line.indexOf(' ')).split("-");
        mapped += Long.parseUnsignedLong(range[1], 16) - Long.parseUnsignedLong(range[0], 16);
      }
    }
    return new Sample(at, fds, threads, rss, mapped);
  }
}
