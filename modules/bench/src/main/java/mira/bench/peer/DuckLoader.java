package mira.bench.peer;

import mira.block.layout.TableFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.catalog.Catalog;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.block.table.Attributes;
import mira.block.table.CanonicalText;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Copies the logs and spans of a Mira data directory into two flat DuckDB tables, reading the
 * blocks through Mira's own reader ({@link Catalog}, {@link BlockReader}) so both engines hold the
 * same rows, and writing them with DuckDB's appender.
 *
 * <p>The flat schema, one row per log record or span:
 * <ul>
 *   <li>times and durations as BIGINT nanoseconds (exact, as Mira stores them);
 *   <li>trace and span ids as lowercase hex VARCHAR (what Mira's API speaks; null when unset);
 *   <li>the string body of a log (null for a non-string body), severity, span name, kind, status;
 *   <li>{@code service_name}: the resource's {@code service.name};
 *   <li>{@code attributes MAP(VARCHAR, VARCHAR)}: the resource's, the scope's and the record's own
 *       attributes merged into one map, a record key shadowing a scope key shadowing a resource key
 *       (DuckDB refuses duplicate map keys). Values are Mira's canonical text of the scalar
 *       ({@link CanonicalText}: strings as they are, integers in decimal, booleans
 *       {@code true}/{@code false}, bytes in base64) — the text Mira's own equality compares — and
 *       arrays, key-value lists and empty values are left out, as they select nothing in Mira
 *       either. Span events and links are not copied.
 * </ul>
 * Rows are those of every published block whose time range overlaps the window, whose own time
 * (a log's time_unix_nano; a span's start, else its end, else its block's newest time, as Mira's
 * engine reads it) lies in the window.
 *
 * <p>Not thread-safe; the connection is the caller's.
 */
public final class DuckLoader {
  public static final String LOGS_DDL = """
      CREATE TABLE logs (
        time_unix_nano BIGINT NOT NULL,
        observed_time_unix_nano BIGINT,
        severity_number INTEGER,
        severity_text VARCHAR,
        body VARCHAR,
        trace_id VARCHAR,
        span_id VARCHAR,
        service_name VARCHAR,
        attributes MAP(VARCHAR, VARCHAR))""";
  public static final String SPANS_DDL = """
      CREATE TABLE spans (
        trace_id VARCHAR NOT NULL,
        span_id VARCHAR NOT NULL,
        parent_span_id VARCHAR,
        name VARCHAR,
        kind INTEGER,
        start_time_unix_nano BIGINT,
        end_time_unix_nano BIGINT,
        duration_nano BIGINT,
        status_code INTEGER,
        status_message VARCHAR,
        service_name VARCHAR,
        attributes MAP(VARCHAR, VARCHAR))""";

  private static final HexFormat HEX = HexFormat.of();

  /**
   * What a load did.
   *
   * @param nanos wall time of the whole load, DuckDB's commit included
   */
  public record Loaded(long logs, long spans, int logBlocks, int spanBlocks, long nanos) {}

  private DuckLoader() {}

  /**
   * Creates {@code logs} and {@code spans} in {@code duck} and fills them from the blocks of
   * {@code dataDir} in the window {@code [from, to]} (ns, inclusive), on {@code threads} threads,
   * each with its own connection ({@link DuckDBConnection#duplicate}) and appenders, taking blocks
   * from one shared list; so rows arrive block by block but blocks in no fixed order. Reads the
   * directory only.
   *
   * @throws IOException if the directory cannot be listed or a block is damaged
   */
  public static Loaded load(Path dataDir, DuckDBConnection duck, BufferAllocator allocator, long from, long to,
      int threads) throws IOException, SQLException, InterruptedException {
    long t0 = System.nanoTime();
    try (Statement s = duck.createStatement()) {
      s.execute(LOGS_DDL);
      s.execute(SPANS_DDL);
    }
    List<BlockRef> logBlocks = Catalog.list(dataDir, Signal.LOGS, from, to);
    List<BlockRef> spanBlocks = Catalog.list(dataDir, Signal.TRACES, from, to);
    List<BlockRef> all = new ArrayList<>(logBlocks);
    all.addAll(spanBlocks);
    AtomicInteger next = new AtomicInteger();
    AtomicLong logs = new AtomicLong();
    AtomicLong spans = new AtomicLong();
    List<Thread> workers = new ArrayList<>();
    List<Exception> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int w = 0; w < Math.max(1, threads); w++) {
      DuckDBConnection c = duck.duplicate();
      workers.add(Thread.ofPlatform().name("peer-load-" + w).start(() -> {
        try (c; Appenders a = new Appenders(c)) {
          for (int i = next.getAndIncrement(); i < all.size() && failures.isEmpty(); i = next.getAndIncrement()) {
            BlockRef ref = all.get(i);
            if (ref.signal() == Signal.LOGS) {
              logs.addAndGet(appendLogs(ref, a.logs(), allocator, from, to));
            } else {
              spans.addAndGet(appendSpans(ref, a.spans(), allocator, from, to));
            }
          }
        } catch (Exception e) {
          failures.add(e);
        }
      }));
    }
    for (Thread t : workers) {
      t.join();
    }
    if (!failures.isEmpty()) {
      Exception e = failures.get(0);
      if (e instanceof IOException io) {
        throw io;
      }
      if (e instanceof SQLException sql) {
        throw sql;
      }
      throw new IllegalStateException("loading failed", e);
    }
    return new Loaded(logs.get(), spans.get(), logBlocks.size(), spanBlocks.size(), System.nanoTime() - t0);
  }

  /** One worker's appenders, opened on first use, closed (flushed and committed) together. */
  private static final class Appenders implements AutoCloseable {
    private final DuckDBConnection c;
    private DuckDBAppender logs;
    private DuckDBAppender spans;

    Appenders(DuckDBConnection c) {
      this.c = c;
    }

    DuckDBAppender logs() throws SQLException {
      if (logs == null) {
        logs = c.createAppender("main", "logs");
      }
      return logs;
    }

    DuckDBAppender spans() throws SQLException {
      if (spans == null) {
        spans = c.createAppender("main", "spans");
      }
      return spans;
    }

    @Override
    public void close() throws SQLException {
      try {
        if (logs != null) {
          logs.close();
        }
      } finally {
        if (spans != null) {
          spans.close();
        }
      }
    }
  }

  private static long appendLogs(BlockRef ref, DuckDBAppender a, BufferAllocator allocator, long from, long to)
      throws IOException, SQLException {
    try (BlockReader r = BlockReader.open(ref, allocator)) {
      TableView t = table(r, TableFiles.LOGS);
      if (t == null) {
        return 0;
      }
      Envelopes env = Envelopes.read(r);
      Grouped attrs = Grouped.read(table(r, TableFiles.LOG_ATTRS), t.rows());
      FieldVector time = t.column("time_unix_nano");
      FieldVector observed = t.column("observed_time_unix_nano");
      FieldVector severity = t.column("severity_number");
      Dict severityText = Dict.of(t, "severity_text");
      VarCharVector body = (VarCharVector) t.column("body");
      FixedSizeBinaryVector traceId = (FixedSizeBinaryVector) t.column("trace_id");
      FixedSizeBinaryVector spanId = (FixedSizeBinaryVector) t.column("span_id");
      FieldVector resource = t.column("resource_id");
      FieldVector scope = t.column("scope_id");
      LinkedHashMap<String, String> map = new LinkedHashMap<>();
      long n = 0;
      for (int i = 0; i < t.rows(); i++) {
        long ts = longAt(time, i);
        if (ts < from || ts > to) {
          continue;
        }
        int res = (int) longAt(resource, i);
        int sc = (int) longAt(scope, i);
        a.beginRow();
        a.append(ts);
        appendLong(a, observed, i);
        if (severity == null || severity.isNull(i)) {
          a.appendNull();
        } else {
          a.append((int) longAt(severity, i));
        }
        appendString(a, severityText.at(i));
        appendString(a, body == null || body.isNull(i) ? null : new String(body.get(i), StandardCharsets.UTF_8));
        appendString(a, hex(traceId, i));
        appendString(a, hex(spanId, i));
        appendString(a, env.serviceName(res));
        map.clear();
        env.resources.putInto(res, map);
        env.scopes.putInto(sc, map);
        attrs.putInto(i, map);
        a.append(map);
        a.endRow();
        n++;
      }
      return n;
    }
  }

  private static long appendSpans(BlockRef ref, DuckDBAppender a, BufferAllocator allocator, long from, long to)
      throws IOException, SQLException {
    try (BlockReader r = BlockReader.open(ref, allocator)) {
      TableView t = table(r, TableFiles.SPANS);
      if (t == null) {
        return 0;
      }
      Envelopes env = Envelopes.read(r);
      Grouped attrs = Grouped.read(table(r, TableFiles.SPAN_ATTRS), t.rows());
      FixedSizeBinaryVector traceId = (FixedSizeBinaryVector) t.column("trace_id");
      FixedSizeBinaryVector spanId = (FixedSizeBinaryVector) t.column("span_id");
      FixedSizeBinaryVector parent = (FixedSizeBinaryVector) t.column("parent_span_id");
      VarCharVector name = (VarCharVector) t.column("name");
      FieldVector kind = t.column("kind");
      FieldVector start = t.column("start_time_unix_nano");
      FieldVector end = t.column("end_time_unix_nano");
      FieldVector duration = t.column("duration_nano");
      FieldVector statusCode = t.column("status_code");
      VarCharVector statusMessage = (VarCharVector) t.column("status_message");
      FieldVector resource = t.column("resource_id");
      FieldVector scope = t.column("scope_id");
      LinkedHashMap<String, String> map = new LinkedHashMap<>();
      long n = 0;
      for (int i = 0; i < t.rows(); i++) {
        long s = longAt(start, i);
        long e = longAt(end, i);
        long ts = spanTime(s, e, ref.name().maxTime());
        if (ts < from || ts > to) {
          continue;
        }
        int res = (int) longAt(resource, i);
        int sc = (int) longAt(scope, i);
        a.beginRow();
        a.append(hex(traceId, i));
        a.append(hex(spanId, i));
        appendString(a, hex(parent, i));
        appendString(a, name == null || name.isNull(i) ? null : new String(name.get(i), StandardCharsets.UTF_8));
        a.append((int) longAt(kind, i));
        a.append(s);
        a.append(e);
        a.append(longAt(duration, i));
        a.append((int) longAt(statusCode, i));
        appendString(a, statusMessage == null || statusMessage.isNull(i) ? null
            : new String(statusMessage.get(i), StandardCharsets.UTF_8));
        appendString(a, env.serviceName(res));
        map.clear();
        env.resources.putInto(res, map);
        env.scopes.putInto(sc, map);
        attrs.putInto(i, map);
        a.append(map);
        a.endRow();
        n++;
      }
      return n;
    }
  }

  /**
   * The time Mira's engine orders and filters a span by: its start, else its end, else its block's
   * newest time (docs/architecture.md, "A search, step by step").
   */
  static long spanTime(long start, long end, long blockMaxTime) {
    return start != 0 ? start : end != 0 ? end : blockMaxTime;
  }

  /** The table stored as {@code file}, or null if the block has none; a damaged one is an IOException. */
  static TableView table(BlockReader r, String file) throws IOException {
    try {
      return r.table(file).orElse(null);
    } catch (CorruptBlockException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  private static void appendString(DuckDBAppender a, String s) throws SQLException {
    if (s == null) {
      a.appendNull();
    } else {
      a.append(s);
    }
  }

  private static void appendLong(DuckDBAppender a, FieldVector v, int i) throws SQLException {
    if (v == null || v.isNull(i)) {
      a.appendNull();
    } else {
      a.append(longAt(v, i));
    }
  }

  /** An integer or timestamp column's value at row {@code i}; 0 for a null or an absent column. */
  static long longAt(FieldVector v, int i) {
    if (v == null || v.isNull(i)) {
      return 0;
    }
    if (v instanceof BaseIntVector b) {
      return b.getValueAsLong(i);
    }
    if (v instanceof TimeStampVector t) {
      return t.get(i);
    }
    throw new IllegalStateException("column " + v.getField() + " is not an integer column");
  }

  private static String hex(FixedSizeBinaryVector v, int i) {
    return v == null || v.isNull(i) ? null : HEX.formatHex(v.get(i));
  }

  /** A dictionary-encoded string column, its dictionary decoded once. */
  record Dict(FieldVector indices, String[] values) {
    static Dict of(TableView t, String column) {
      FieldVector idx = t.column(column);
      ValueVector d = t.dictionary(column);
      if (idx == null || d == null) {
        return new Dict(null, new String[0]);
      }
      VarCharVector dv = (VarCharVector) d;
      String[] values = new String[dv.getValueCount()];
      for (int k = 0; k < values.length; k++) {
        values[k] = dv.isNull(k) ? null : new String(dv.get(k), StandardCharsets.UTF_8);
      }
      return new Dict(idx, values);
    }

    String at(int i) {
      return indices == null || indices.isNull(i) ? null : values[(int) longAt(indices, i)];
    }
  }

  /**
   * An attribute table grouped by parent id: the canonical-text pairs of parent {@code p} are
   * {@code keys/values[start[p], start[p + 1])}, in stored order. Pairs without a canonical text
   * (arrays, key-value lists, empty values) are dropped.
   */
  static final class Grouped {
    private final int[] start;
    private final String[] keys;
    private final String[] values;

    private Grouped(int[] start, String[] keys, String[] values) {
      this.start = start;
      this.keys = keys;
      this.values = values;
    }

    /** Groups {@code t} (null: no such table) for parents {@code 0..parents-1} at least. */
    static Grouped read(TableView t, int parents) {
      if (t == null || t.rows() == 0) {
        return new Grouped(new int[parents + 1], new String[0], new String[0]);
      }
      int rows = t.rows();
      FieldVector parent = t.column("parent_id");
      Dict key = Dict.of(t, "key");
      FieldVector type = t.column("type");
      // Since layout version 2 a block may store the values as a dictionary of its distinct ones.
      boolean strDict = t.dictionary("str") != null;
      Dict strValues = strDict ? Dict.of(t, "str") : null;
      VarCharVector str = strDict ? null : (VarCharVector) t.column("str");
      BigIntVector i64 = (BigIntVector) t.column("int");
      Float8Vector f64 = (Float8Vector) t.column("double");
      BitVector bool = (BitVector) t.column("bool");
      VarBinaryVector bytes = (VarBinaryVector) t.column("bytes");
      String[] text = new String[rows];
      int[] owner = new int[rows];
      int max = parents - 1;
      for (int j = 0; j < rows; j++) {
        owner[j] = (int) longAt(parent, j);
        max = Math.max(max, owner[j]);
        text[j] = switch ((int) longAt(type, j)) {
          case Attributes.TYPE_STR -> strDict ? strValues.at(j)
              : str.isNull(j) ? null : new String(str.get(j), StandardCharsets.UTF_8);
          case Attributes.TYPE_INT -> i64.isNull(j) ? null : Long.toString(i64.get(j));
          case Attributes.TYPE_DOUBLE -> f64.isNull(j) ? null : CanonicalText.ofDouble(f64.get(j));
          case Attributes.TYPE_BOOL -> bool.isNull(j) ? null : bool.get(j) != 0 ? "true" : "false";
          case Attributes.TYPE_BYTES -> bytes.isNull(j) ? null : Base64.getEncoder().encodeToString(bytes.get(j));
          default -> null;
        };
      }
      int[] start = new int[max + 2];
      for (int j = 0; j < rows; j++) {
        if (text[j] != null) {
          start[owner[j] + 1]++;
        }
      }
      for (int p = 0; p <= max; p++) {
        start[p + 1] += start[p];
      }
      int[] fill = java.util.Arrays.copyOf(start, max + 1);
      String[] keys = new String[start[max + 1]];
      String[] values = new String[keys.length];
      for (int j = 0; j < rows; j++) {
        if (text[j] != null) {
          int at = fill[owner[j]]++;
          keys[at] = key.at(j);
          values[at] = text[j];
        }
      }
      return new Grouped(start, keys, values);
    }

    /** Puts parent {@code p}'s pairs into {@code map} (a later key replaces an earlier one). */
    void putInto(int p, LinkedHashMap<String, String> map) {
      if (p + 1 >= start.length) {
        return;
      }
      for (int k = start[p]; k < start[p + 1]; k++) {
        map.put(keys[k], values[k]);
      }
    }

    /** The value of {@code key} for parent {@code p}, or null. */
    String get(int p, String key) {
      if (p + 1 >= start.length) {
        return null;
      }
      for (int k = start[p]; k < start[p + 1]; k++) {
        if (key.equals(keys[k])) {
          return values[k];
        }
      }
      return null;
    }
  }

  /** A block's resource and scope attributes, grouped by resource and scope id. */
  record Envelopes(Grouped resources, Grouped scopes, String[] serviceNames) {
    static Envelopes read(BlockReader r) throws IOException {
      TableView res = table(r, TableFiles.RESOURCES);
      TableView sc = table(r, TableFiles.SCOPES);
      int resources = res == null ? 0 : res.rows();
      Grouped ra = Grouped.read(table(r, TableFiles.RESOURCE_ATTRS), resources);
      Grouped sa = Grouped.read(table(r, TableFiles.SCOPE_ATTRS), sc == null ? 0 : sc.rows());
      String[] names = new String[ra.start.length - 1];
      for (int p = 0; p < names.length; p++) {
        names[p] = ra.get(p, "service.name");
      }
      return new Envelopes(ra, sa, names);
    }

    String serviceName(int resource) {
      return resource < serviceNames.length ? serviceNames[resource] : null;
    }
  }
}
