package mira.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mira.bench.FullBlock;
import mira.bench.peer.PeerClass.Outcome;
import mira.bench.peer.PeerClass.Probes;
import mira.bench.telemetry.Fleet;
import mira.bench.telemetry.TelemetryStream;
import mira.block.Decoders;
import mira.block.publish.Publisher;
import mira.block.table.Batch;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.doc.Documents;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DuckDB copy of a small published corpus against an oracle built from the OTLP requests
 * themselves, and both engines' answers to every class against each other.
 */
class DuckLoaderTest {
  static final int BLOCKS = 2;
  static final int EXPORTS_PER_BLOCK = 3;
  static final int RECORDS = 400;

  @TempDir
  static Path data;

  static final List<ExportLogsServiceRequest> LOGS = new ArrayList<>();
  static final List<ExportTraceServiceRequest> TRACES = new ArrayList<>();
  static BufferAllocator allocator;
  static long firstBlockMaxTime;

  @BeforeAll
  static void publish() throws Exception {
    allocator = new RootAllocator();
    TelemetryStream ts = new TelemetryStream(new Fleet(7), 7, 0);
    long now = FullBlock.EPOCH_2026 + 60_000_000_000L;
    for (Signal s : new Signal[] {Signal.LOGS, Signal.TRACES}) {
      Publisher p = new Publisher(data, s, "test", allocator);
      for (int b = 0; b < BLOCKS; b++) {
        Batch open = Decoders.empty(s);
        for (int e = 0; e < EXPORTS_PER_BLOCK; e++) {
          now += 1_000_000_000L;
          // The incident raises the failure rate, so error logs and 5xx spans are in the corpus.
          Message m = s == Signal.LOGS ? ts.logs(RECORDS, now, true) : ts.traces(RECORDS, now, true);
          if (m instanceof ExportLogsServiceRequest l) {
            LOGS.add(l);
          } else {
            TRACES.add((ExportTraceServiceRequest) m);
          }
          byte[] bytes = m.toByteArray();
          Batch decoded = Decoders.decode(s, bytes, 0, bytes.length, now);
          assertThat(open.tryAppend(decoded)).isTrue();
        }
        p.publish(open, b, 0);
        if (s == Signal.LOGS && b == 0) {
          firstBlockMaxTime = open.maxTime();
        }
      }
    }
  }

  @AfterAll
  static void close() {
    allocator.close();
  }

  static DuckDBConnection duck() throws Exception {
    Connection c = DriverManager.getConnection("jdbc:duckdb:");
    return c.unwrap(DuckDBConnection.class);
  }

  static long count(Connection c, String sql) throws Exception {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void loadsExactlyTheRowsThatWereSentAndThatMiraHolds() throws Exception {
    try (DuckDBConnection duck = duck(); LocalQueries q = LocalQueries.open(data)) {
      DuckLoader.Loaded l = DuckLoader.load(data, duck, allocator, 0, Long.MAX_VALUE, 2);
      long sent = (long) BLOCKS * EXPORTS_PER_BLOCK * RECORDS;
      assertThat(l.logs()).isEqualTo(sent);
      assertThat(l.spans()).isEqualTo(sent);
      assertThat(l.logBlocks()).isEqualTo(BLOCKS);
      assertThat(count(duck, "SELECT count(*) FROM logs")).isEqualTo(sent);
      assertThat(count(duck, "SELECT count(*) FROM spans")).isEqualTo(sent);
      // Mira's own count of the same window, paged through its query API.
      assertThat(miraRows(q, "logs")).isEqualTo(sent);
      assertThat(miraRows(q, "traces")).isEqualTo(sent);
    }
  }

  private static long miraRows(LocalQueries q, String signal) throws Exception {
    String doc = "{\"signal\": \"" + signal + "\", \"from\": \"0\", \"to\": \"now\", \"limit\": " + Documents.MAX_LIMIT + "}";
    return q.search(Documents.search(doc.getBytes(StandardCharsets.UTF_8), q.now())).rows().size();
  }

  @Test
  void theWindowBoundsTheRowsLoaded() throws Exception {
    long expected = 0;
    for (ExportLogsServiceRequest r : LOGS) {
      for (ResourceLogs rl : r.getResourceLogsList()) {
        for (ScopeLogs sl : rl.getScopeLogsList()) {
          for (LogRecord lr : sl.getLogRecordsList()) {
            expected += lr.getTimeUnixNano() <= firstBlockMaxTime ? 1 : 0;
          }
        }
      }
    }
    try (DuckDBConnection duck = duck()) {
      DuckLoader.Loaded l = DuckLoader.load(data, duck, allocator, 0, firstBlockMaxTime, 1);
      assertThat(expected).isEqualTo((long) EXPORTS_PER_BLOCK * RECORDS);
      assertThat(l.logs()).isEqualTo(expected);
      assertThat(count(duck, "SELECT count(*) FROM logs")).isEqualTo(expected);
    }
  }

  /** Canonical text of an OTLP scalar, written from the spec (docs/api.md), or null for none. */
  static String text(AnyValue v) {
    return switch (v.getValueCase()) {
      case STRING_VALUE -> v.getStringValue();
      case INT_VALUE -> Long.toString(v.getIntValue());
      case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
      case DOUBLE_VALUE -> {
        double d = v.getDoubleValue();
        yield d == Math.rint(d) && Math.abs(d) < 0x1p53 ? Long.toString((long) d) : Double.toString(d);
      }
      case BYTES_VALUE -> Base64.getEncoder().encodeToString(v.getBytesValue().toByteArray());
      default -> null;
    };
  }

  static Map<String, String> merged(List<KeyValue> resource, List<KeyValue> scope, List<KeyValue> record) {
    Map<String, String> m = new LinkedHashMap<>();
    for (List<KeyValue> level : List.of(resource, scope, record)) {
      for (KeyValue kv : level) {
        String t = text(kv.getValue());
        if (t != null) {
          m.put(kv.getKey(), t);
        }
      }
    }
    return new TreeMap<>(m);
  }

  static String service(List<KeyValue> resource) {
    for (KeyValue kv : resource) {
      if (kv.getKey().equals("service.name")) {
        return kv.getValue().getStringValue();
      }
    }
    return null;
  }

  static String hex(com.google.protobuf.ByteString b) {
    return b.isEmpty() ? null : HexFormat.of().formatHex(b.toByteArray());
  }

  @Test
  void everyLogRowCarriesItsFieldsAndMergedAttributes() throws Exception {
    List<String> expected = new ArrayList<>();
    for (ExportLogsServiceRequest r : LOGS) {
      for (ResourceLogs rl : r.getResourceLogsList()) {
        for (ScopeLogs sl : rl.getScopeLogsList()) {
          for (LogRecord lr : sl.getLogRecordsList()) {
            expected.add(String.join("|", Long.toString(lr.getTimeUnixNano()),
                Integer.toString(lr.getSeverityNumberValue()), lr.getSeverityText(),
                lr.getBody().hasStringValue() ? lr.getBody().getStringValue() : "null", String.valueOf(hex(lr.getTraceId())),
                String.valueOf(hex(lr.getSpanId())), service(rl.getResource().getAttributesList()),
                merged(rl.getResource().getAttributesList(), sl.getScope().getAttributesList(), lr.getAttributesList())
                    .toString()));
          }
        }
      }
    }
    List<String> actual = new ArrayList<>();
    try (DuckDBConnection duck = duck()) {
      DuckLoader.load(data, duck, allocator, 0, Long.MAX_VALUE, 2);
      try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(
          "SELECT time_unix_nano, severity_number, severity_text, body, trace_id, span_id, service_name, attributes "
              + "FROM logs")) {
        while (rs.next()) {
          actual.add(String.join("|", Long.toString(rs.getLong(1)), Integer.toString(rs.getInt(2)), rs.getString(3),
              String.valueOf(rs.getString(4)), String.valueOf(rs.getString(5)), String.valueOf(rs.getString(6)),
              rs.getString(7), new TreeMap<>((Map<?, ?>) rs.getObject(8)).toString()));
        }
      }
    }
    assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void everySpanRowCarriesItsFieldsAndMergedAttributes() throws Exception {
    List<String> expected = new ArrayList<>();
    for (ExportTraceServiceRequest r : TRACES) {
      for (ResourceSpans rs : r.getResourceSpansList()) {
        for (ScopeSpans ss : rs.getScopeSpansList()) {
          for (Span sp : ss.getSpansList()) {
            expected.add(String.join("|", hex(sp.getTraceId()), hex(sp.getSpanId()),
                String.valueOf(hex(sp.getParentSpanId())), sp.getName(), Integer.toString(sp.getKindValue()),
                Long.toString(sp.getStartTimeUnixNano()), Long.toString(sp.getEndTimeUnixNano()),
                Long.toString(sp.getEndTimeUnixNano() - sp.getStartTimeUnixNano()),
                Integer.toString(sp.getStatus().getCodeValue()),
                sp.getStatus().getMessage().isEmpty() ? "null" : sp.getStatus().getMessage(),
                service(rs.getResource().getAttributesList()),
                merged(rs.getResource().getAttributesList(), ss.getScope().getAttributesList(), sp.getAttributesList())
                    .toString()));
          }
        }
      }
    }
    List<String> actual = new ArrayList<>();
    try (DuckDBConnection duck = duck()) {
      DuckLoader.load(data, duck, allocator, 0, Long.MAX_VALUE, 1);
      try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(
          "SELECT trace_id, span_id, parent_span_id, name, kind, start_time_unix_nano, end_time_unix_nano, "
              + "duration_nano, status_code, status_message, service_name, attributes FROM spans")) {
        while (rs.next()) {
          List<String> f = new ArrayList<>();
          for (int c = 1; c <= 11; c++) {
            f.add(String.valueOf(rs.getString(c)));
          }
          f.add(new TreeMap<>((Map<?, ?>) rs.getObject(12)).toString());
          actual.add(String.join("|", f));
        }
      }
    }
    assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void bothEnginesGiveTheSameAnswerToEveryClassAndALostRowIsCaught() throws Exception {
    try (DuckDBConnection duck = duck(); LocalQueries q = LocalQueries.open(data)) {
      DuckLoader.load(data, duck, allocator, 0, Long.MAX_VALUE, 2);
      Probes probes = PeerCompare.probes(PeerOptions.parse(new String[] {"--data-dir", data.toString()}), duck);
      for (PeerClass k : PeerClass.values()) {
        Outcome m = k.mira(q, probes);
        Outcome d = k.duck(duck.prepareStatement(k.sql()), probes);
        assertThat(Answer.mismatch(m.answer(), d.answer())).as(k.label()).isNull();
        int rows = m.answer().rows();
        switch (k) {
          case LAST_100 -> assertThat(rows).as(k.label()).isEqualTo(100);
          case ATTR_MATCH, TRACE_BY_ID, SUBSTRING, ORDERED, STATUS_WINDOW -> assertThat(rows).as(k.label()).isPositive();
          case ATTR_ABSENT, SUBSTRING_ABSENT, ORDERED_EMPTY -> assertThat(rows).as(k.label()).isZero();
        }
      }
      // A row DuckDB lost is a mismatch, not a timing.
      try (Statement s = duck.createStatement()) {
        s.execute("DELETE FROM logs WHERE time_unix_nano = (SELECT max(time_unix_nano) FROM logs)");
      }
      Outcome m = PeerClass.LAST_100.mira(q, probes);
      Outcome d = PeerClass.LAST_100.duck(duck.prepareStatement(PeerClass.LAST_100.sql()), probes);
      assertThat(Answer.mismatch(m.answer(), d.answer())).contains("row times differ");
    }
  }

  @Test
  void aRunOverTheCorpusReportsEveryClassAndExitsCleanly() throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int status = new PeerCompare(new PrintStream(buf, true, StandardCharsets.UTF_8)).run(PeerOptions.parse(
        new String[] {"--data-dir", data.toString(), "--duckdb", ":memory:", "--iterations", "2", "--warmup", "1"}));
    String out = buf.toString(StandardCharsets.UTF_8);
    assertThat(status).as(out).isZero();
    for (PeerClass k : PeerClass.values()) {
      assertThat(out).contains("| " + k.label() + " |");
    }
    assertThat(out).contains("| same |").doesNotContain("MISMATCH");
  }

  /**
   * The HTTP side against the image this build made (the top-level {@code target/mira}), started on
   * a copy of the corpus: every class's parsed answer must agree with DuckDB's, and the table must
   * carry the HTTP columns. Skipped when no image has been built yet (the image is assembled after
   * this module's tests in a clean build).
   */
  @Test
  void overHttpTheServedCopyAnswersEveryClassLikeDuckDb() throws Exception {
    Path image = Path.of("../../target/mira").toAbsolutePath().normalize();
    Assumptions.assumeTrue(Files.isExecutable(image.resolve("bin/mira")), "no image at " + image);
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int status = new PeerCompare(new PrintStream(buf, true, StandardCharsets.UTF_8)).run(PeerOptions.parse(
        new String[] {"--data-dir", data.toString(), "--duckdb", ":memory:", "--iterations", "2", "--warmup", "1",
            "--serve", image.toString()}));
    String out = buf.toString(StandardCharsets.UTF_8);
    assertThat(status).as(out).isZero();
    assertThat(out).contains("| HTTP p50 |").contains("| same |").doesNotContain("MISMATCH");
    for (PeerClass k : PeerClass.values()) {
      assertThat(out).contains("| " + k.label() + " |");
    }
  }

  @Test
  void refusesToPutDuckDbInsideTheDataDirectory() throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int status = new PeerCompare(new PrintStream(buf, true, StandardCharsets.UTF_8)).run(PeerOptions.parse(
        new String[] {"--data-dir", data.toString(), "--duckdb", data.resolve("peer.duckdb").toString()}));
    assertThat(status).isEqualTo(2);
    assertThat(buf.toString(StandardCharsets.UTF_8)).contains("refusing");
    assertThat(data.resolve("peer.duckdb")).doesNotExist();
  }
}
