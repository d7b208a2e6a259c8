package mira.bench.peer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line of {@link PeerCompare}, parsed and checked. */
final class PeerOptions {
  static final String USAGE = """
      usage: peer-compare --data-dir PATH [options]
        --data-dir PATH        a Mira data directory; only read, never written
        --iterations N         measured rounds; each asks every class of both engines (default 20)
        --warmup N             unmeasured rounds first (default 3)
        --classes A,B,...      which classes (default all): last100, attr_match, attr_absent,
                               trace_by_id, ordered, ordered_empty, status_window, substring,
                               substring_absent
        --serve IMAGE          also ask a real server over HTTP: IMAGE/bin/mira serve (e.g.
                               target/mira) started on a copy of the data directory, on loopback
                               ports picked in 20000-60000, stopped and the copy removed at the end
        --http HOST:PORT       also ask a server already running over the same data, over HTTP
        --duckdb PATH          DuckDB database file to create (must not exist; kept afterwards);
                               :memory: for an in-memory database. Default: a new file in a fresh
                               directory under the system temporary directory, removed at exit
        --reuse                with --duckdb PATH: the file exists, loaded by an earlier run from
                               the same directory; skip the load (answers are still cross-checked)
        --memory-limit SIZE    DuckDB's memory_limit (default 4GB)
        --threads N            DuckDB's threads (default: DuckDB's own, one per core)
        --load-threads N       threads copying blocks into DuckDB, each with its own appender
                               (default: one per core)
        --request-id ID        the request.id of attr_match (default: one picked from the corpus)
        --trace-id HEX         the trace of trace_by_id (default: one picked from the corpus)
        --help                 this text
      """;

  Path dataDir;
  int iterations = 20;
  int warmup = 3;
  List<PeerClass> classes = List.of(PeerClass.values());
  String duckdb;
  String memoryLimit = "4GB";
  int threads;
  int loadThreads = Runtime.getRuntime().availableProcessors();
  String requestId;
  String traceId;
  boolean help;
  boolean reuse;
  /** The image to serve the copy with (--serve), or null. */
  Path serve;
  /** A running server's HTTP listener (--http), or null. */
  String http;

  /** Parses {@code args}; throws IllegalArgumentException naming what is wrong. */
  static PeerOptions parse(String[] args) {
    PeerOptions o = new PeerOptions();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--help") || a.equals("-h")) {
        o.help = true;
        return o;
      }
      if (a.equals("--reuse")) {
        o.reuse = true;
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(a + ": needs a value (or is not an option; --help lists them)");
      }
      String v = args[++i];
      switch (a) {
        case "--data-dir" -> o.dataDir = Path.of(v);
        case "--iterations" -> o.iterations = positive(a, v, 1);
        case "--warmup" -> o.warmup = positive(a, v, 0);
        case "--classes" -> o.classes = classes(v);
        case "--duckdb" -> o.duckdb = v;
        case "--memory-limit" -> {
          if (!v.matches("[0-9]+(\\.[0-9]+)?\\s*[KMGT]?i?B")) {
            throw new IllegalArgumentException(a + ": \"" + v + "\" is not a size like 4GB or 512MiB");
          }
          o.memoryLimit = v;
        }
        case "--threads" -> o.threads = positive(a, v, 1);
        case "--load-threads" -> o.loadThreads = positive(a, v, 1);
        case "--request-id" -> o.requestId = v;
        case "--serve" -> o.serve = Path.of(v);
        case "--http" -> {
          if (!v.matches("[^:/\\s]+:[0-9]{1,5}")) {
            throw new IllegalArgumentException(a + ": expected HOST:PORT, got \"" + v + "\"");
          }
          o.http = v;
        }
        case "--trace-id" -> {
          if (!v.matches("[0-9a-fA-F]{32}")) {
            throw new IllegalArgumentException(a + ": a trace id is 32 hex digits, not \"" + v + "\"");
          }
          o.traceId = v.toLowerCase(java.util.Locale.ROOT);
        }
        default -> throw new IllegalArgumentException("unknown option " + a + " (--help lists them)");
      }
    }
    if (o.dataDir == null) {
      throw new IllegalArgumentException("--data-dir is required");
    }
    if (o.serve != null && o.http != null) {
      throw new IllegalArgumentException("--serve and --http exclude each other: one server is asked");
    }
    if (o.reuse && (o.duckdb == null || o.duckdb.equals(":memory:"))) {
      throw new IllegalArgumentException("--reuse needs --duckdb PATH, a file an earlier run loaded");
    }
    return o;
  }

  private static int positive(String option, String v, int min) {
    try {
      int n = Integer.parseInt(v);
      if (n >= min) {
        return n;
      }
    } catch (NumberFormatException e) {
      // fall through to the message
    }
    throw new IllegalArgumentException(option + ": expected an integer >= " + min + ", got \"" + v + "\"");
  }

  private static List<PeerClass> classes(String v) {
    List<PeerClass> out = new ArrayList<>();
    for (String name : v.split(",")) {
      PeerClass c = PeerClass.named(name.trim());
      if (c == null) {
        throw new IllegalArgumentException("--classes: no class \"" + name.trim() + "\"; the classes are "
            + PeerClass.names());
      }
      if (!out.contains(c)) {
        out.add(c);
      }
    }
    return List.copyOf(out);
  }
}
