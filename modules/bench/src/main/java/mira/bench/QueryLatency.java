package mira.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import mira.query.render.EntityJson;
import mira.query.render.FrameJson;
import mira.query.render.MapJson;
import mira.query.render.ResponseJson;
import mira.block.catalog.BlockRef;
import mira.block.catalog.Catalog;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.result.SearchResult;
import mira.query.result.Stats;
import mira.query.result.TraceResult;
import mira.query.doc.Documents;

/**
 * Query latency over an existing data directory, in-process and read-only: what a query costs
 * after a restart (this JVM is fresh: no JIT, no cached sidecar) and once steady. Opens the
 * directory with {@link LocalQueries#open(Path)} — the code path of the HTTP routes without the
 * HTTP — so it never writes to it and may run beside a server.
 *
 * <p>Seven classes, over the whole time range the directory holds: logs whose {@code request.id}
 * equals a value never sent; logs whose {@code request.id} equals one value that is there; the
 * newest 100 logs, no filter; one trace by id; and the correlation routes: the entities of the
 * last hour of the range (end − 1 h to end, whatever the range holds), a correlate from the log with that request id (traces, peers, around 5s), and the
 * service map of the last 15 minutes of the range. The request id and trace id are picked from the
 * data before anything is measured (from a log record in the middle of the range), unless given.
 * Each class runs once (the "first" column), then {@code --warmup} rounds, then {@code --runs}
 * rounds; a round asks every class once, in turn. Latency is from the document's bytes to the
 * answer's bytes: parse, list, prune, scan, render.
 *
 * <pre>
 * modules/bench/query-latency --data-dir DIR [--runs 200] [--warmup 50] [--request-id ID] [--trace-id HEX]
 *     [--only CLASS]
 * </pre>
 */
public final class QueryLatency {
  private QueryLatency() {}

  /** One class: its name, and what it asks. */
  private record Query(String name, byte[] document, String traceId, String route) {
    Query(String name, byte[] document, String traceId) {
      this(name, document, traceId, "query");
    }
  }

  /** A class's measurements. */
  private static final class Result {
    final String name;
    long firstNanos;
    final long[] nanos;
    int n;
    Stats stats;

    Result(String name, int runs) {
      this.name = name;
      this.nanos = new long[runs];
    }
  }

  public static void main(String[] args) throws Exception {
    Path dir = null;
    int runs = 200;
    int warmup = 50;
    String requestId = null;
    String traceId = null;
    String only = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--data-dir" -> dir = Path.of(value(args, ++i, a));
        case "--runs" -> runs = Integer.parseInt(value(args, ++i, a));
        case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
        case "--request-id" -> requestId = value(args, ++i, a);
        case "--trace-id" -> traceId = value(args, ++i, a);
        case "--only" -> only = value(args, ++i, a);
        case "--help" -> {
          System.out.println("query-latency --data-dir DIR [--runs N] [--warmup N] [--request-id ID] [--trace-id HEX]"
              + " [--only CLASS]");
          return;
        }
        default -> throw new IllegalArgumentException("unknown option " + a + " (--help lists them)");
      }
    }
    if (dir == null || !Files.isDirectory(dir)) {
      throw new IllegalArgumentException("--data-dir must name a data directory");
    }
    if (runs < 1 || warmup < 0) {
      throw new IllegalArgumentException("--runs must be at least 1 and --warmup at least 0");
    }
    long[] range = timeRange(dir, Signal.LOGS);
    long started = System.nanoTime();
    try (LocalQueries local = LocalQueries.open(dir)) {
      System.out.printf(Locale.ROOT, "opened %s in %.1f ms; logs from %d to %d (%d s)%n", dir,
          (System.nanoTime() - started) / 1e6, range[0], range[1], (range[1] - range[0]) / 1_000_000_000L);
      String window = "\"from\": \"" + range[0] + "\", \"to\": \"" + range[1] + "\"";
      if (requestId == null || traceId == null) {
        String[] picked = pick(local, range);
        requestId = requestId != null ? requestId : picked[0];
        traceId = traceId != null ? traceId : picked[1];
      }
      System.out.println("request.id " + requestId + ", trace id " + traceId);
      List<Query> all = List.of(
          new Query("attr_absent", doc("{\"signal\": \"logs\", " + window
              + ", \"where\": [{\"attr\": \"request.id\", \"eq\": \"never-sent-0000\"}], \"limit\": 100}"), null),
          new Query("attr_match", doc("{\"signal\": \"logs\", " + window
              + ", \"where\": [{\"attr\": \"request.id\", \"eq\": \"" + requestId + "\"}], \"limit\": 100}"), null),
          new Query("last100", doc("{\"signal\": \"logs\", " + window + ", \"limit\": 100}"), null),
          new Query("trace_by_id", null, traceId),
          new Query("entities", doc("{\"from\": \"" + (range[1] - 3_600_000_000_000L) + "\", \"to\": \"" + range[1]
              + "\"}"), null, "entities"),
          new Query("correlate", doc("{\"anchor\": {\"signal\": \"logs\", " + window
              + ", \"where\": [{\"attr\": \"request.id\", \"eq\": \"" + requestId + "\"}]}, "
              + "\"expand\": [\"traces\", \"peers\", {\"around\": \"5s\"}]}"), null, "correlate"),
          new Query("map_15m", doc("{\"from\": \"" + Math.max(range[0], range[1] - 900_000_000_000L) + "\", \"to\": \""
              + range[1] + "\"}"), null, "map"));
      String wanted = only;
      List<Query> queries = wanted == null ? all : all.stream().filter(q -> q.name().equals(wanted)).toList();
      if (queries.isEmpty()) {
        throw new IllegalArgumentException("--only " + wanted + ": no such class");
      }
      List<Result> results = new ArrayList<>();
      for (Query q : queries) {
        Result r = new Result(q.name(), runs);
        long t = System.nanoTime();
        r.stats = run(local, q);
        r.firstNanos = System.nanoTime() - t;
        results.add(r);
      }
      for (int w = 0; w < warmup; w++) {
        for (Query q : queries) {
          run(local, q);
        }
      }
      for (int i = 0; i < runs; i++) {
        for (int k = 0; k < queries.size(); k++) {
          Result r = results.get(k);
          long t = System.nanoTime();
          r.stats = run(local, queries.get(k));
          r.nanos[r.n++] = System.nanoTime() - t;
        }
      }
      report(results, runs, warmup);
    }
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  private static byte[] doc(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }

  /** Runs one query to the bytes of its answer; returns its stats. */
  private static Stats run(LocalQueries local, Query q) throws Exception {
    if (q.traceId() != null) {
      TraceResult r = local.trace(q.traceId());
      if (ResponseJson.trace(r).length == 0) {
        throw new IllegalStateException("empty answer");
      }
      return r.stats();
    }
    switch (q.route()) {
      case "entities" -> {
        var r = local.entities(q.document());
        check(EntityJson.entities(r));
        return r.stats();
      }
      case "correlate" -> {
        var r = local.correlate(q.document());
        check(FrameJson.correlate(r));
        return r.stats();
      }
      case "map" -> {
        var r = local.map(q.document());
        check(MapJson.map(r));
        return r.stats();
      }
      default -> {
        SearchResult r = local.search(Documents.search(q.document(), local.now()));
        check(ResponseJson.search(r));
        return r.stats();
      }
    }
  }

  private static void check(byte[] answer) {
    if (answer.length == 0) {
      throw new IllegalStateException("empty answer");
    }
  }

  /** The least min time and greatest max time in the names of {@code signal}'s blocks. */
  private static long[] timeRange(Path dir, Signal signal) throws IOException {
    List<BlockRef> all = Catalog.list(dir, signal, Long.MIN_VALUE, Long.MAX_VALUE);
    if (all.isEmpty()) {
      throw new IllegalArgumentException(dir + " holds no " + signal.dir() + " blocks");
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (BlockRef b : all) {
      min = Math.min(min, b.name().minTime());
      max = Math.max(max, b.name().maxTime());
    }
    return new long[] {min, max};
  }

  /**
   * A request.id and a trace id that are in the data: those of the newest traced log record at or
   * before the middle of the range.
   */
  private static String[] pick(LocalQueries local, long[] range) throws Exception {
    long mid = range[0] + (range[1] - range[0]) / 2;
    byte[] q = doc("{\"signal\": \"logs\", \"from\": \"" + range[0] + "\", \"to\": \"" + mid
        + "\", \"where\": [{\"field\": \"trace_id\", \"exists\": true}, {\"attr\": \"request.id\", \"exists\": true}],"
        + " \"limit\": 1}");
    SearchResult r = local.search(Documents.search(q, local.now()));
    if (r.rows().isEmpty()) {
      throw new IllegalStateException("no traced log record with a request.id before the middle of the range");
    }
    String row = new String(ResponseJson.row(r.rows().get(0)), StandardCharsets.UTF_8);
    return new String[] {stringField(row, "\"request.id\":"), stringField(row, "\"trace_id\":")};
  }

  /** The string value following {@code key} in a rendered row (flat string values only). */
  private static String stringField(String json, String key) {
    int at = json.indexOf(key);
    if (at < 0) {
      throw new IllegalStateException("no " + key + " in " + json);
    }
    int open = json.indexOf('"', at + key.length());
    int close = json.indexOf('"', open + 1);
    return json.substring(open + 1, close);
  }

  private static void report(List<Result> results, int runs, int warmup) {
    System.out.printf(Locale.ROOT, "%d runs per class after %d warm-up rounds; milliseconds%n", runs, warmup);
    System.out.printf(Locale.ROOT, "%-12s %8s %8s %8s %8s   %-22s %12s %12s%n", "class", "first", "p50", "p99", "max",
        "blocks total/pruned/read", "rows scanned", "rows matched");
    for (Result r : results) {
      long[] s = Arrays.copyOf(r.nanos, r.n);
      Arrays.sort(s);
      Stats st = r.stats;
      System.out.printf(Locale.ROOT, "%-12s %8.2f %8.2f %8.2f %8.2f   %-22s %12d %12d%n", r.name, r.firstNanos / 1e6,
          percentile(s, 0.50) / 1e6, percentile(s, 0.99) / 1e6, s[s.length - 1] / 1e6,
          st.blocksTotal() + "/" + st.blocksPruned() + "/" + st.blocksScanned(), st.rowsScanned(), st.rowsMatched());
    }
  }

  /** Nearest rank: the smallest sample with at least {@code q} of all samples at or below it. */
  private static long percentile(long[] sorted, double q) {
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
  }
}
