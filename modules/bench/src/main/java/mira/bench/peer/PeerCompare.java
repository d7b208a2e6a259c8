package mira.bench.peer;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import mira.bench.peer.PeerClass.Outcome;
import mira.bench.peer.PeerClass.Probes;
import mira.client.MiraClient;
import mira.query.LocalQueries;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;

/**
 * Mira and DuckDB side by side on one corpus: loads a Mira data directory's logs and spans into
 * DuckDB ({@link DuckLoader}), then asks both engines each {@link PeerClass} in alternation — per
 * round every class, Mira first on even rounds and DuckDB first on odd ones — and prints per class
 * the p50 and p99 of each and the ratio of the medians. Every answer of both is cross-checked
 * ({@link Answer#mismatch}); a class that ever disagrees is reported as MISMATCH and the exit
 * status is 3.
 *
 * <p>Mira is asked in-process through {@link LocalQueries}, the code the HTTP API runs, over the
 * published blocks of the directory; nothing is written there. With {@code --serve IMAGE} (or
 * {@code --http HOST:PORT}) Mira is also asked as a user's program asks it: through a real server
 * over HTTP with {@link MiraClient}, timed to the parsed answer ({@link PeerClass#http}); the image
 * serves a copy of the directory ({@link ImageServer}). Each round then asks the three in turn, each
 * going first, second and last in rotation. Usage: {@link PeerOptions#USAGE}; started by
 * {@code modules/bench/peer-compare}.
 */
public final class PeerCompare {
  /** Exit status when a class's two answers differed. */
  public static final int MISMATCH_STATUS = 3;
  /** The request.id of attr_absent: the generator writes 16 hex digits, never this. */
  static final String NEVER_SENT = "mira-peer-never-sent";
  static final String TEXT = "SQLTransientConnectionException";
  /** The text of substring_absent: in no body the generator writes. */
  static final String NEVER_WRITTEN = "mira-peer: a text no log body holds";
  /** The length of status_window's window: five minutes. */
  static final long WINDOW_NANOS = 300_000_000_000L;

  private final PrintStream out;

  PeerCompare(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    PeerOptions o;
    try {
      o = PeerOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("peer-compare: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (o.help) {
      System.out.print(PeerOptions.USAGE);
      return;
    }
    int status = new PeerCompare(System.out).run(o);
    System.exit(status);
  }

  /** Per class, what was measured. */
  static final class Result {
    final Samples mira = new Samples();
    final Samples duck = new Samples();
    /** Over HTTP, client side (request to parsed answer); empty without a server. */
    final Samples http = new Samples();
    /** The server's own took_ms of each HTTP answer, in ns. */
    final Samples took = new Samples();
    int rows = -1;
    String blocks;
    String mismatch;
  }

  /** Runs the whole comparison; returns the exit status. */
  int run(PeerOptions o) throws Exception {
    Path data = o.dataDir.toAbsolutePath().normalize();
    if (!Files.isDirectory(data)) {
      out.println("peer-compare: " + data + " is not a directory");
      return 2;
    }
    Path tempDir = null;
    String duckPath;
    if (o.duckdb == null) {
      tempDir = Files.createTempDirectory("mira-peer-");
      duckPath = tempDir.resolve("peer.duckdb").toString();
      Path remove = tempDir;
      // Interrupted (Ctrl-C), the finally below does not run; the hook removes the file then.
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          deleteTree(remove);
        } catch (IOException e) {
          System.err.println("peer-compare: could not remove " + remove + ": " + e);
        }
      }));
    } else if (o.duckdb.equals(":memory:")) {
      duckPath = "";
    } else {
      Path p = Path.of(o.duckdb).toAbsolutePath().normalize();
      if (p.startsWith(data)) {
        out.println("peer-compare: refusing to put DuckDB's file inside the Mira data directory " + data);
        return 2;
      }
      if (Files.exists(p) != o.reuse) {
        out.println("peer-compare: " + p + (o.reuse ? " does not exist; --reuse needs a loaded file"
            : " exists; give a path that does not, or --reuse it"));
        return 2;
      }
      duckPath = p.toString();
    }
    ImageServer served = null;
    try (LocalQueries q = LocalQueries.open(data);
        BufferAllocator allocator = new RootAllocator();
        Connection c = DriverManager.getConnection("jdbc:duckdb:" + duckPath)) {
      MiraClient client = null;
      if (o.serve != null) {
        out.printf("starting %s on a copy of %s...%n", o.serve, data);
        served = ImageServer.start(o.serve.toAbsolutePath().normalize(), data);
        out.printf("server pid %d listening on http://%s%n", served.pid(), served.http());
        client = MiraClient.of(served.http());
      } else if (o.http != null) {
        client = MiraClient.of(o.http);
      }
      return compare(o, data, q, client, allocator, c.unwrap(DuckDBConnection.class), duckPath);
    } finally {
      if (served != null) {
        served.close();
      }
      if (tempDir != null) {
        deleteTree(tempDir);
      }
    }
  }

  private int compare(PeerOptions o, Path data, LocalQueries q, MiraClient client, BufferAllocator allocator,
      DuckDBConnection duck, String duckPath) throws Exception {
    out.printf("peer-compare %s%nMira data directory: %s (read only)%nDuckDB: %s, %s%n", Instant.now(), data,
        duckPath.isEmpty() ? "in memory" : duckPath, duckVersion(duck));
    out.printf("machine: %d cores, JDK %s, max heap %,d MiB; load average %s%n",
        Runtime.getRuntime().availableProcessors(), Runtime.version(), Runtime.getRuntime().maxMemory() >> 20,
        loadAverage());
    try (Statement s = duck.createStatement()) {
      s.execute("SET memory_limit = '" + o.memoryLimit + "'");
      if (o.threads > 0) {
        s.execute("SET threads = " + o.threads);
      }
    }
    out.printf("DuckDB settings: memory_limit %s, threads %s%n", setting(duck, "memory_limit"),
        setting(duck, "threads"));

    if (o.reuse) {
      out.printf("reusing %s: %,d logs and %,d spans, loaded by an earlier run%n", duckPath,
          count(duck, "SELECT count(*) FROM logs"), count(duck, "SELECT count(*) FROM spans"));
    } else {
      load(o, data, allocator, duck, duckPath, q.now());
    }

    Probes probes = probes(o, duck);
    out.printf("probes: request.id %s (%d log rows), absent request.id %s, trace %s (%d spans), text %s, "
        + "absent text \"%s\", window %d..%d ns (%,d spans in it)%n", probes.requestId(), count(duck,
            "SELECT count(*) FROM logs WHERE attributes['request.id'] = ?", probes.requestId()), probes.absentId(),
        probes.traceId(), count(duck, "SELECT count(*) FROM spans WHERE trace_id = ?", probes.traceId()), probes.text(),
        probes.absentText(), probes.windowFrom(), probes.windowTo(), count(duck,
            "SELECT count(*) FROM spans WHERE start_time_unix_nano BETWEEN " + probes.windowFrom() + " AND "
                + probes.windowTo()));

    Map<PeerClass, Result> results = new EnumMap<>(PeerClass.class);
    Map<PeerClass, PreparedStatement> statements = new EnumMap<>(PeerClass.class);
    try {
      for (PeerClass k : o.classes) {
        results.put(k, new Result());
        statements.put(k, duck.prepareStatement(k.sql()));
      }
      int rounds = o.warmup + o.iterations;
      for (int i = 0; i < rounds; i++) {
        boolean measured = i >= o.warmup;
        long t0 = System.nanoTime();
        for (PeerClass k : o.classes) {
          Result r = results.get(k);
          Outcome m = null;
          Outcome d = null;
          Outcome h = null;
          // Each side goes first, second and last in turn, so none always runs on another's warm caches.
          for (int turn = 0; turn < 3; turn++) {
            switch ((i + turn) % 3) {
              case 0 -> m = k.mira(q, probes);
              case 1 -> d = k.duck(statements.get(k), probes);
              default -> h = client == null ? null : k.http(client, probes);
            }
          }
          String diff = Answer.mismatch(m.answer(), d.answer());
          if (diff == null && h != null) {
            diff = Answer.mismatch(h.answer(), d.answer());
            diff = diff == null ? null : "over HTTP: " + diff;
          }
          if (diff != null && r.mismatch == null) {
            r.mismatch = diff;
            out.println("!!! MISMATCH in " + k.label() + " (round " + i + "): " + diff);
          }
          r.rows = m.answer().rows();
          r.blocks = m.blocks();
          if (measured) {
            r.mira.add(m.nanos());
            r.duck.add(d.nanos());
            if (h != null) {
              r.http.add(h.nanos());
              r.took.add(h.tookMs() * 1_000_000L);
            }
          }
        }
        out.printf(Locale.ROOT, "%s round %d of %d: %.1f s%n", measured ? "measured" : "warm-up",
            measured ? i - o.warmup + 1 : i + 1, measured ? o.iterations : o.warmup, (System.nanoTime() - t0) / 1e9);
      }
    } finally {
      for (PreparedStatement ps : statements.values()) {
        ps.close();
      }
    }
    out.println("load average after the rounds: " + loadAverage());
    return report(o, results);
  }

  private void load(PeerOptions o, Path data, BufferAllocator allocator, DuckDBConnection duck, String duckPath,
      long now) throws Exception {
    out.printf("loading DuckDB from Mira's blocks on %d threads...%n", o.loadThreads);
    DuckLoader.Loaded l = DuckLoader.load(data, duck, allocator, 0, now, o.loadThreads);
    long checkpoint = 0;
    if (!duckPath.isEmpty()) {
      long t0 = System.nanoTime();
      try (Statement s = duck.createStatement()) {
        s.execute("CHECKPOINT");
      }
      checkpoint = System.nanoTime() - t0;
    }
    double secs = (l.nanos() + checkpoint) / 1e9;
    out.printf(Locale.ROOT, "loaded %,d logs from %d blocks and %,d spans from %d blocks in %.1f s "
        + "(%,.0f rows/s; checkpoint %.1f s of it)%s%n", l.logs(), l.logBlocks(), l.spans(), l.spanBlocks(), secs,
        (l.logs() + l.spans()) / secs, checkpoint / 1e9,
        duckPath.isEmpty() ? "" : String.format(Locale.ROOT, "; DuckDB file %,d bytes", sizeOf(Path.of(duckPath))));
  }

  /** The 1, 5 and 15 minute load averages, or "unknown" off Linux. */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private int report(PeerOptions o, Map<PeerClass, Result> results) {
    out.printf("%n%d measured rounds after %d warm-up rounds; times in ms; ratio = Mira p50 / DuckDB p50 "
        + "(below 1: Mira faster)%n%n", o.iterations, o.warmup);
    boolean http = false;
    for (Result r : results.values()) {
      http |= r.http.count() > 0;
    }
    if (http) {
      out.println("in-process: the engine and the rendered body; HTTP: request to parsed answer on a kept-alive "
          + "HTTP/1.1 connection; took: the server's own took_ms (whole ms); HTTP - in-process: the p50s' difference");
      out.println();
      out.println("| class | rows | check | Mira blocks opened | in-process p50 | in-process p99 | HTTP p50 | HTTP p99 "
          + "| took p50 | DuckDB p50 | DuckDB p99 | in-process/DuckDB | HTTP/DuckDB | HTTP - in-process |");
      out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    } else {
      out.println("| class | rows | check | Mira blocks opened | Mira p50 | Mira p99 | DuckDB p50 | DuckDB p99 | Mira/DuckDB |");
      out.println("|---|---|---|---|---|---|---|---|---|");
    }
    boolean mismatch = false;
    for (Map.Entry<PeerClass, Result> e : results.entrySet()) {
      Result r = e.getValue();
      mismatch |= r.mismatch != null;
      long mp50 = r.mira.percentile(0.5);
      long dp50 = r.duck.percentile(0.5);
      if (http) {
        long hp50 = r.http.percentile(0.5);
        out.printf(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s | %d | %s | %s | %.2f | %.2f | %s |%n",
            e.getKey().label(), r.rows, r.mismatch == null ? "same" : "MISMATCH", r.blocks, ms(mp50),
            ms(r.mira.percentile(0.99)), ms(hp50), ms(r.http.percentile(0.99)), r.took.percentile(0.5) / 1_000_000,
            ms(dp50), ms(r.duck.percentile(0.99)), (double) mp50 / dp50, (double) hp50 / dp50, ms(hp50 - mp50));
      } else {
        out.printf(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s | %.2f |%n", e.getKey().label(), r.rows,
            r.mismatch == null ? "same" : "MISMATCH", r.blocks, ms(mp50), ms(r.mira.percentile(0.99)), ms(dp50),
            ms(r.duck.percentile(0.99)), (double) mp50 / dp50);
      }
    }
    if (mismatch) {
      out.println();
      for (Map.Entry<PeerClass, Result> e : results.entrySet()) {
        if (e.getValue().mismatch != null) {
          out.println("!!! MISMATCH " + e.getKey().label() + ": " + e.getValue().mismatch);
        }
      }
      return MISMATCH_STATUS;
    }
    return 0;
  }

  static String ms(long nanos) {
    double ms = nanos / 1e6;
    if (ms < 0) {
      return "-" + ms(-nanos);
    }
    return String.format(Locale.ROOT, ms >= 100 ? "%.0f" : ms >= 10 ? "%.1f" : "%.2f", ms);
  }

  /**
   * The values to ask about: given ones, else the request.id of the log and the trace of the span
   * at the median time (ties broken by value and span id), so the pick depends only on the corpus.
   */
  static Probes probes(PeerOptions o, DuckDBConnection duck) throws SQLException {
    String requestId = o.requestId;
    if (requestId == null) {
      requestId = single(duck, "SELECT v FROM (SELECT time_unix_nano AS t, attributes['request.id'] AS v FROM logs) "
          + "WHERE v IS NOT NULL AND t >= (SELECT quantile_disc(time_unix_nano, 0.5) FROM logs) ORDER BY t, v LIMIT 1");
    }
    String traceId = o.traceId;
    if (traceId == null) {
      traceId = single(duck, "SELECT trace_id FROM spans WHERE start_time_unix_nano >= "
          + "(SELECT quantile_disc(start_time_unix_nano, 0.5) FROM spans) ORDER BY start_time_unix_nano, span_id LIMIT 1");
    }
    if (requestId == null || traceId == null) {
      throw new IllegalStateException("the corpus has no " + (requestId == null ? "log with a request.id" : "span")
          + "; give --request-id and --trace-id");
    }
    // The window of status_window: the five minutes up to the newest span, as "-5m" on a live node.
    long newest;
    try (Statement s = duck.createStatement();
        ResultSet rs = s.executeQuery("SELECT max(start_time_unix_nano) FROM spans")) {
      rs.next();
      newest = rs.getLong(1);
    }
    return new Probes(requestId, NEVER_SENT, traceId, TEXT, NEVER_WRITTEN, newest - WINDOW_NANOS, newest);
  }

  private static String single(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  static long count(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  static long count(Connection c, String sql, String param) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, param);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static String duckVersion(Connection c) throws SQLException {
    return "DuckDB " + single(c, "SELECT version()");
  }

  private static String setting(Connection c, String name) throws SQLException {
    return single(c, "SELECT current_setting('" + name + "')");
  }

  private static long sizeOf(Path p) throws IOException {
    long n = 0;
    Path dir = p.getParent();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path f : s.toList()) {
        if (f.getFileName().toString().startsWith(p.getFileName().toString())) {
          n += Files.size(f);
        }
      }
    }
    return n;
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> s = Files.walk(root)) {
      List<Path> all = new ArrayList<>(s.toList());
      all.sort(Comparator.reverseOrder());
      for (Path p : all) {
        Files.deleteIfExists(p);
      }
    }
  }
}
