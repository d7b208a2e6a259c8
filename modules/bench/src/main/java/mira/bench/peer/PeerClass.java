package mira.bench.peer;

import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import mira.client.MiraClient;
import mira.query.LocalQueries;
import mira.query.result.Row;
import mira.query.result.SpanRow;
import mira.query.render.ResponseJson;
import mira.query.result.SearchResult;
import mira.query.result.Stats;
import mira.query.result.TraceResult;
import mira.query.doc.Documents;

/**
 * The query classes asked of both engines: the load generator's read classes
 * (mira.bench.load.QueryClass), over the whole corpus rather than the last minutes, since a
 * corpus is read long after it was written. Each has a Mira query document (or the trace route)
 * and the SQL a DuckDB user would write over the flat tables of {@link DuckLoader}.
 *
 * <p>A Mira call is timed from the document's parse to the response body, the work of
 * {@code POST /api/v1/query} or {@code GET /api/v1/traces/{id}} less HTTP; a DuckDB call from
 * executing the prepared statement to having read every column of every row into Java objects.
 */
public enum PeerClass {
  LAST_100("last100", "the newest 100 logs", false) {
    @Override
    String document(Probes p) {
      return search("logs", "");
    }

    @Override
    String sql() {
      return "SELECT * FROM logs ORDER BY time_unix_nano DESC LIMIT 100";
    }
  },
  ATTR_MATCH("attr_match", "logs with request.id = a rare value that exists", false) {
    @Override
    String document(Probes p) {
      return search("logs", "{\"attr\": \"request.id\", \"eq\": " + json(p.requestId()) + "}");
    }

    @Override
    String sql() {
      return "SELECT * FROM logs WHERE attributes['request.id'] = ? ORDER BY time_unix_nano DESC LIMIT 100";
    }

    @Override
    void bind(PreparedStatement ps, Probes p) throws SQLException {
      ps.setString(1, p.requestId());
    }
  },
  ATTR_ABSENT("attr_absent", "logs with request.id = a value never sent", false) {
    @Override
    String document(Probes p) {
      return search("logs", "{\"attr\": \"request.id\", \"eq\": " + json(p.absentId()) + "}");
    }

    @Override
    String sql() {
      return ATTR_MATCH.sql();
    }

    @Override
    void bind(PreparedStatement ps, Probes p) throws SQLException {
      ps.setString(1, p.absentId());
    }
  },
  TRACE_BY_ID("trace_by_id", "every span of one trace, by start time", true) {
    @Override
    String document(Probes p) {
      return null;
    }

    @Override
    String sql() {
      return "SELECT * FROM spans WHERE trace_id = ? ORDER BY start_time_unix_nano, span_id";
    }

    @Override
    void bind(PreparedStatement ps, Probes p) throws SQLException {
      ps.setString(1, p.traceId());
    }
  },
  ORDERED("ordered", "the newest 100 spans with http.response.status_code >= 500", true) {
    @Override
    String document(Probes p) {
      return search("traces", "{\"attr\": \"http.response.status_code\", \"gte\": 500}");
    }

    @Override
    String sql() {
      return "SELECT * FROM spans WHERE TRY_CAST(attributes['http.response.status_code'] AS DOUBLE) >= 500"
          + " ORDER BY start_time_unix_nano DESC LIMIT 100";
    }
  },
  ORDERED_EMPTY("ordered_empty", "spans with http.response.status_code >= 600: an ordered comparison nothing passes",
      true) {
    @Override
    String document(Probes p) {
      return search("traces", "{\"attr\": \"http.response.status_code\", \"gte\": 600}");
    }

    @Override
    String sql() {
      return "SELECT * FROM spans WHERE TRY_CAST(attributes['http.response.status_code'] AS DOUBLE) >= 600"
          + " ORDER BY start_time_unix_nano DESC LIMIT 100";
    }
  },
  STATUS_WINDOW("status_window", "the newest 100 spans with http.response.status_code >= 500 in the corpus's last"
      + " 5 minutes", true) {
    @Override
    String document(Probes p) {
      return "{\"signal\": \"traces\", \"from\": \"" + p.windowFrom() + "\", \"to\": \"" + p.windowTo()
          + "\", \"limit\": 100, \"where\": [{\"attr\": \"http.response.status_code\", \"gte\": 500}]}";
    }

    @Override
    String sql() {
      return "SELECT * FROM spans WHERE start_time_unix_nano BETWEEN ? AND ?"
          + " AND TRY_CAST(attributes['http.response.status_code'] AS DOUBLE) >= 500"
          + " ORDER BY start_time_unix_nano DESC LIMIT 100";
    }

    @Override
    void bind(PreparedStatement ps, Probes p) throws SQLException {
      ps.setLong(1, p.windowFrom());
      ps.setLong(2, p.windowTo());
    }
  },
  SUBSTRING("substring", "the newest 100 logs whose body contains a text, no time bound", false) {
    @Override
    String document(Probes p) {
      return search("logs", "{\"text\": " + json(p.text()) + "}");
    }

    @Override
    String sql() {
      return "SELECT * FROM logs WHERE contains(body, ?) ORDER BY time_unix_nano DESC LIMIT 100";
    }

    @Override
    void bind(PreparedStatement ps, Probes p) throws SQLException {
      ps.setString(1, p.text());
    }
  },
  SUBSTRING_ABSENT("substring_absent", "logs whose body contains a text never written: every body read", false) {
    @Override
    String document(Probes p) {
      return search("logs", "{\"text\": " + json(p.absentText()) + "}");
    }

    @Override
    String sql() {
      return SUBSTRING.sql();
    }

    @Override
    void bind(PreparedStatement ps, Probes p) throws SQLException {
      ps.setString(1, p.absentText());
    }
  };

  /**
   * The values the classes ask about.
   *
   * @param requestId a request.id present in the corpus on few rows
   * @param absentId a request.id never sent
   * @param traceId a trace present in the corpus, 32 lowercase hex digits
   * @param text the substring of {@link #SUBSTRING}
   * @param absentText the substring of {@link #SUBSTRING_ABSENT}, in no log body
   * @param windowFrom the start of {@link #STATUS_WINDOW}'s window, ns since the epoch (inclusive)
   * @param windowTo its end, ns (inclusive): the newest span's start time
   */
  public record Probes(String requestId, String absentId, String traceId, String text, String absentText,
      long windowFrom, long windowTo) {}

  /**
   * One timed call.
   *
   * @param nanos the call's wall time
   * @param answer what it returned
   * @param blocks Mira only: "scanned of total" blocks; null for DuckDB
   * @param tookMs Mira only: the engine's own {@code took_ms} in the answer's stats; -1 for DuckDB
   */
  public record Outcome(long nanos, Answer answer, String blocks, long tookMs) {}

  private final String label;
  private final String description;
  private final boolean spans;

  PeerClass(String label, String description, boolean spans) {
    this.label = label;
    this.description = description;
    this.spans = spans;
  }

  public String label() {
    return label;
  }

  public String description() {
    return description;
  }

  /** The Mira query document, or null for {@link #TRACE_BY_ID} (the trace route). */
  abstract String document(Probes p);

  /** The DuckDB query, with {@code ?} for the probe. */
  abstract String sql();

  /** Binds the probe to {@link #sql()}'s parameter, if it has one. */
  void bind(PreparedStatement ps, Probes p) throws SQLException {}

  /** The class called {@code label}, or null. */
  static PeerClass named(String label) {
    for (PeerClass c : values()) {
      if (c.label.equals(label)) {
        return c;
      }
    }
    return null;
  }

  static String names() {
    List<String> out = new ArrayList<>();
    for (PeerClass c : values()) {
      out.add(c.label);
    }
    return String.join(", ", out);
  }

  /** Asks Mira, in-process, what the HTTP route would answer. */
  public Outcome mira(LocalQueries q, Probes p) throws Exception {
    if (this == TRACE_BY_ID) {
      long t0 = System.nanoTime();
      TraceResult r = q.trace(p.traceId());
      byte[] body = ResponseJson.trace(r);
      long nanos = System.nanoTime() - t0;
      long[] times = new long[r.spans().size()];
      String[] ids = new String[times.length];
      for (int i = 0; i < times.length; i++) {
        SpanRow span = r.spans().get(i);
        times[i] = span.startTimeUnixNano();
        ids[i] = span.spanId();
      }
      consume(body);
      return new Outcome(nanos, Answer.of(times, ids), blocks(r.stats()), r.stats().tookMs());
    }
    byte[] doc = document(p).getBytes(StandardCharsets.UTF_8);
    long t0 = System.nanoTime();
    SearchResult r = q.search(Documents.search(doc, q.now()));
    byte[] body = ResponseJson.search(r);
    long nanos = System.nanoTime() - t0;
    consume(body);
    return new Outcome(nanos, answer(r.rows()), blocks(r.stats()), r.stats().tookMs());
  }

  /**
   * Asks a running Mira over HTTP, as a user's program would: the request sent on the client's
   * kept-alive HTTP/1.1 connection, the answer read whole and parsed by {@link MiraClient} (Jackson)
   * into typed rows. Timed from before the request is built to the parsed result.
   */
  public Outcome http(MiraClient c, Probes p) throws Exception {
    if (this == TRACE_BY_ID) {
      long t0 = System.nanoTime();
      TraceResult r = c.trace(p.traceId());
      long nanos = System.nanoTime() - t0;
      return new Outcome(nanos, answer(r.spans()), blocks(r.stats()), r.stats().tookMs());
    }
    byte[] doc = document(p).getBytes(StandardCharsets.UTF_8);
    long t0 = System.nanoTime();
    SearchResult r = c.search(doc);
    long nanos = System.nanoTime() - t0;
    return new Outcome(nanos, answer(r.rows()), blocks(r.stats()), r.stats().tookMs());
  }

  /** The rows' times, and for spans their ids. */
  private Answer answer(List<? extends Row> rows) {
    long[] times = new long[rows.size()];
    String[] ids = spans ? new String[times.length] : null;
    for (int i = 0; i < times.length; i++) {
      Row row = rows.get(i);
      times[i] = row.time();
      if (ids != null) {
        ids[i] = ((SpanRow) row).spanId();
      }
    }
    return Answer.of(times, ids);
  }

  /** Asks DuckDB through {@code ps}, a statement prepared from {@link #sql()}. */
  public Outcome duck(PreparedStatement ps, Probes p) throws SQLException {
    bind(ps, p);
    String timeColumn = spans ? "start_time_unix_nano" : "time_unix_nano";
    List<Long> times = new ArrayList<>();
    List<String> ids = spans ? new ArrayList<>() : null;
    long sink = 0;
    long t0 = System.nanoTime();
    try (ResultSet rs = ps.executeQuery()) {
      ResultSetMetaData md = rs.getMetaData();
      int columns = md.getColumnCount();
      int time = rs.findColumn(timeColumn);
      int spanId = spans ? rs.findColumn("span_id") : -1;
      while (rs.next()) {
        for (int c = 1; c <= columns; c++) {
          Object o = rs.getObject(c);
          sink += o == null ? 0 : 1;
        }
        times.add(rs.getLong(time));
        if (ids != null) {
          ids.add(rs.getString(spanId));
        }
      }
    }
    long nanos = System.nanoTime() - t0;
    consume(sink);
    long[] t = new long[times.size()];
    for (int i = 0; i < t.length; i++) {
      t[i] = times.get(i);
    }
    return new Outcome(nanos, Answer.of(t, ids == null ? null : ids.toArray(new String[0])), null, -1);
  }

  private static String blocks(Stats s) {
    return s.blocksScanned() + " of " + s.blocksTotal();
  }

  static String search(String signal, String term) {
    return "{\"signal\": \"" + signal + "\", \"from\": \"0\", \"to\": \"now\", \"limit\": 100"
        + (term.isEmpty() ? "" : ", \"where\": [" + term + "]") + "}";
  }

  /** A JSON string literal. */
  static String json(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }

  /** Keeps a result observable so that no call can be optimised away. */
  private static volatile long blackhole;

  private static void consume(byte[] body) {
    blackhole += body.length;
  }

  private static void consume(long v) {
    blackhole += v;
  }
}
