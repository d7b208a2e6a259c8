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
 * published blocks of the directory; nothing is written there and no server is started. Usage:
 * {@link PeerOptions#USAGE}; started by {@code modules/bench/peer-compare}.
 */
public final class PeerCompare {
  /** Exit status when a class's two answers differed. */
  public static final int MISMATCH_STATUS = 3;
  /** The request.id of attr_absent: the generator writes 16 hex digits, never this. */
  static final String NEVER_SENT = "mira-peer-never-sent";
  static final String TEXT = "SQLTransientConnectionException";
  /** The text of substring_absent: in no body the generator writes. */
  static final String NEVER_WRITTEN = "mira-peer: a text no log body holds";

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
    try (LocalQueries q = LocalQueries.open(data);
        BufferAllocator allocator = new RootAllocator();
        Connection c = DriverManager.getConnection("jdbc:duckdb:" + duckPath)) {
      return compare(o, data, q, allocator, c.unwrap(DuckDBConnection.class), duckPath);
    } finally {
      if (tempDir != null) {
        deleteTree(tempDir);
      }
    }
  }

  private int compare(PeerOptions o, Path data, LocalQueries q, BufferAllocator allocator, DuckDBConnection duck,
      String duckPath) throws Exception {
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
        + "absent text \"%s\"%n", probes.requestId(), count(duck,
            "SELECT count(*) FROM logs WHERE attributes['request.id'] = ?", probes.requestId()), probes.absentId(),
        probes.traceId(), count(duck, "SELECT count(*) FROM spans WHERE trace_id = ?", probes.traceId()), probes.text(),
        probes.absentText());

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
          Outcome m;
          Outcome d;
          if ((i & 1) == 0) {
            m = k.mira(q, probes);
            d = k.duck(statements.get(k), probes);
          } else {
            d = k.duck(statements.get(k), probes);
            m = k.mira(q, probes);
          }
          String diff = Answer.mismatch(m.answer(), d.answer());
          if (diff != null && r.mismatch == null) {
            r.mismatch = diff;
            out.println("!!! MISMATCH in " + k.label() + " (round " + i + "): " + diff);
          }
          r.rows = m.answer().rows();
          r.blocks = m.blocks();
          if (measured) {
            r.mira.add(m.nanos());
            r.duck.add(d.nanos());
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
    out.println("| class | rows | check | Mira blocks opened | Mira p50 | Mira p99 | DuckDB p50 | DuckDB p99 | Mira/DuckDB |");
    out.println("|---|---|---|---|---|---|---|---|---|");
    boolean mismatch = false;
    for (Map.Entry<PeerClass, Result> e : results.entrySet()) {
      Result r = e.getValue();
      mismatch |= r.mismatch != null;
      long mp50 = r.mira.percentile(0.5);
      long dp50 = r.duck.percentile(0.5);
      out.printf(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s | %.2f |%n", e.getKey().label(), r.rows,
          r.mismatch == null ? "same" : "MISMATCH", r.blocks, ms(mp50), ms(r.mira.percentile(0.99)), ms(dp50),
          ms(r.duck.percentile(0.99)), (double) mp50 / dp50);
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
    return new Probes(requestId, NEVER_SENT, traceId, TEXT, NEVER_WRITTEN);
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
