package mira.query.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import mira.proto.wire.Signal;
import mira.query.result.QueryException;
import org.junit.jupiter.api.Test;

class DocumentsTest {
  static final long NOW = 1_767_225_600_000_000_000L; // 2026-01-01T00:00:00Z
  static final long MIN = 60_000_000_000L;

  static SearchQuery search(String json) throws QueryException {
    return Documents.search(json.getBytes(StandardCharsets.UTF_8), NOW);
  }

  static String error(String json) {
    try {
      search(json);
    } catch (QueryException e) {
      return e.getMessage();
    }
    throw new AssertionError("accepted: " + json);
  }

  @Test
  void defaultsAreTheLastHourAndAHundredRows() throws Exception {
    SearchQuery q = search("{\"signal\": \"logs\"}");
    assertThat(q.signal()).isEqualTo(Signal.LOGS);
    assertThat(q.from()).isEqualTo(NOW - 60 * MIN);
    assertThat(q.to()).isEqualTo(NOW);
    assertThat(q.limit()).isEqualTo(100);
    assertThat(q.where()).isEmpty();
    assertThat(q.after()).isNull();
  }

  @Test
  void unknownTopLevelKeyIsNamedWithTheImplementedKeys() {
    String m = error("{\"signal\": \"logs\", \"filters\": []}");
    assertThat(m).contains("\"filters\"").contains("signal, from, to, where, q, limit, after");
  }

  @Test
  void unknownTermKeyIsNamedWithTheImplementedKeys() {
    String m = error("{\"signal\": \"logs\", \"where\": [{\"attr\": \"k\", \"equals\": 1}]}");
    assertThat(m).contains("where[0]").contains("\"equals\"")
        .contains("attr, field, text, entity, not, eq, gt, gte, lt, lte, contains, in, exists");
  }

  @Test
  void unknownFieldIsNamedWithTheSignalsFields() {
    assertThat(error("{\"signal\": \"logs\", \"where\": [{\"field\": \"kind\", \"eq\": 1}]}"))
        .contains("\"kind\" is not a field of logs")
        .contains("severity_number, severity_text, body, event_name, trace_id, span_id, flags");
    assertThat(error("{\"signal\": \"traces\", \"where\": [{\"field\": \"body\", \"eq\": 1}]}"))
        .contains("name, kind, status_code, duration_nano, trace_id, span_id, parent_span_id");
  }

  @Test
  void limitMustBeOneToTenThousand() throws Exception {
    assertThat(search("{\"signal\": \"logs\", \"limit\": 1}").limit()).isEqualTo(1);
    assertThat(search("{\"signal\": \"logs\", \"limit\": 10000}").limit()).isEqualTo(10000);
    assertThat(error("{\"signal\": \"logs\", \"limit\": 0}")).contains("limit").contains("1..10000");
    assertThat(error("{\"signal\": \"logs\", \"limit\": 10001}")).contains("limit").contains("1..10000");
    assertThat(error("{\"signal\": \"logs\", \"limit\": -5}")).contains("limit");
    assertThat(error("{\"signal\": \"logs\", \"limit\": 99999999999}")).contains("limit");
    assertThat(error("{\"signal\": \"logs\", \"limit\": 2.5}")).contains("limit");
    assertThat(error("{\"signal\": \"logs\", \"limit\": \"10\"}")).contains("limit");
  }

  @Test
  void everyTimeForm() throws Exception {
    assertThat(Times.parse("now", "from", NOW)).isEqualTo(NOW);
    assertThat(Times.parse("-15m", "from", NOW)).isEqualTo(NOW - 15 * MIN);
    assertThat(Times.parse("-1h", "from", NOW)).isEqualTo(NOW - 60 * MIN);
    assertThat(Times.parse("-7d", "from", NOW)).isEqualTo(NOW - 7 * 24 * 60 * MIN);
    assertThat(Times.parse("-30s", "from", NOW)).isEqualTo(NOW - 30_000_000_000L);
    assertThat(Times.parse("-250ms", "from", NOW)).isEqualTo(NOW - 250_000_000L);
    assertThat(Times.parse("-2w", "from", NOW)).isEqualTo(NOW - 14 * 24 * 60 * MIN);
    assertThat(Times.parse("1767225600000000001", "from", NOW)).isEqualTo(NOW + 1);
    assertThat(Times.parse("0", "from", NOW)).isZero();
    assertThat(Times.parse("2026-01-01T00:00:00Z", "from", NOW)).isEqualTo(NOW);
    assertThat(Times.parse("2026-01-01T00:00:00.000000123Z", "from", NOW)).isEqualTo(NOW + 123);
    assertThat(Times.parse("2026-01-01T02:00:00.5+02:00", "from", NOW)).isEqualTo(NOW + 500_000_000L);
    assertThat(Times.parse("2026-01-01t00:00:00z", "from", NOW)).isEqualTo(NOW);
    assertThat(Times.parse("2026-01-01 00:00:00Z", "from", NOW)).isEqualTo(NOW);
    // A JSON integer is taken as nanoseconds too, exactly.
    SearchQuery q = search("{\"signal\": \"logs\", \"from\": 1767225600000000001, \"to\": \"2026-01-02T00:00:00Z\"}");
    assertThat(q.from()).isEqualTo(NOW + 1);
    assertThat(q.to()).isEqualTo(NOW + 24 * 60 * MIN);
  }

  @Test
  void badTimesAreNamed() {
    assertThat(error("{\"signal\": \"logs\", \"from\": \"yesterday\"}")).startsWith("from:").contains("RFC 3339")
        .contains("-15m");
    assertThat(error("{\"signal\": \"logs\", \"to\": \"-5y\"}")).startsWith("to:");
    assertThat(error("{\"signal\": \"logs\", \"to\": \"2026-13-01T00:00:00Z\"}")).startsWith("to:").contains("RFC 3339");
    assertThat(error("{\"signal\": \"logs\", \"from\": \"-99999999999d\"}")).startsWith("from:");
    assertThat(error("{\"signal\": \"logs\", \"from\": \"99999999999999999999\"}")).startsWith("from:");
    assertThat(error("{\"signal\": \"logs\", \"from\": \"now\", \"to\": \"-1h\"}")).contains("after to");
    assertThat(error("{\"signal\": \"logs\", \"from\": true}")).startsWith("from:");
  }

  @Test
  void termsKeepTheirJsonType() throws Exception {
    SearchQuery q = search("{\"signal\": \"traces\", \"where\": ["
        + "{\"attr\": \"http.response.status_code\", \"gte\": 500},"
        + "{\"attr\": \"code\", \"eq\": \"200\"},"
        + "{\"attr\": \"ratio\", \"lt\": 0.5},"
        + "{\"attr\": \"ok\", \"eq\": true},"
        + "{\"attr\": \"k\", \"exists\": false},"
        + "{\"field\": \"duration_nano\", \"gt\": \"1000\"},"
        + "{\"field\": \"trace_id\", \"eq\": \"0AF7651916CD43DD8448EB211C80319C\"},"
        + "{\"text\": \"NullPointerException\"}]}");
    assertThat(q.where()).containsExactly(
        new Term.Attr("http.response.status_code", Op.GTE, Scalar.integer(500)),
        new Term.Attr("code", Op.EQ, Scalar.string("200")),
        new Term.Attr("ratio", Op.LT, Scalar.dbl(0.5)),
        new Term.Attr("ok", Op.EQ, Scalar.bool(true)),
        new Term.Attr("k", Op.EXISTS, Scalar.bool(false)),
        new Term.Field(RootField.DURATION_NANO, Op.GT, Scalar.string("1000")),
        new Term.Field(RootField.TRACE_ID, Op.EQ, Scalar.string("0AF7651916CD43DD8448EB211C80319C")),
        new Term.Text("NullPointerException"));
  }

  @Test
  void malformedTermsAreRefused() {
    String base = "{\"signal\": \"logs\", \"where\": [";
    assertThat(error(base + "{\"attr\": \"k\"}]}")).contains("no operator");
    assertThat(error(base + "{\"attr\": \"k\", \"eq\": 1, \"gt\": 2}]}")).contains("one operator");
    assertThat(error(base + "{\"attr\": \"k\", \"field\": \"body\", \"eq\": 1}]}")).contains("attr and field");
    assertThat(error(base + "{\"eq\": 1}]}")).contains("names one of attr, field, text");
    assertThat(error(base + "{\"attr\": \"k\", \"eq\": null}]}")).contains("exists");
    assertThat(error(base + "{\"attr\": \"k\", \"eq\": [1]}]}")).contains("scalar");
    assertThat(error(base + "{\"attr\": \"k\", \"eq\": {\"a\": 1}}]}")).contains("scalar");
    assertThat(error(base + "{\"attr\": \"k\", \"exists\": 1}]}")).contains("exists takes true or false");
    assertThat(error(base + "{\"attr\": \"k\", \"gt\": true}]}")).contains("does not take a boolean");
    assertThat(error(base + "{\"text\": \"x\", \"eq\": \"y\"}]}")).contains("text term takes no operator");
    assertThat(error(base + "{\"field\": \"trace_id\", \"eq\": \"abc\"}]}")).contains("32 hex digits");
    assertThat(error(base + "{\"field\": \"span_id\", \"eq\": \"zz00000000000000\"}]}")).contains("not hex");
    assertThat(error(base + "{\"field\": \"span_id\", \"eq\": 5}]}")).contains("hex string");
    assertThat(error(base + "\"k\"]}")).contains("a term is an object");
    assertThat(error("{\"signal\": \"logs\", \"where\": {\"attr\": \"k\"}}")).contains("list of terms");
  }

  @Test
  void signalIsRequiredAndClosed() {
    assertThat(error("{}")).contains("signal is required");
    assertThat(error("{\"signal\": \"metrics\"}")).contains("/api/v1/series");
    assertThat(error("{\"signal\": \"spans\"}")).contains("\"logs\" or \"traces\"");
  }

  @Test
  void notJsonOrNotAnObjectIsRefused() {
    assertThat(error("")).contains("empty");
    assertThat(error("[1]")).contains("JSON object");
    assertThat(error("{\"signal\": \"logs\"")).contains("not valid JSON");
    assertThat(error("{\"signal\": \"logs\"} {}")).contains("after the document");
    assertThat(error("{\"signal\": \"logs\", \"signal\": \"traces\"}")).contains("twice");
  }

  @Test
  void cursorRoundTripsAndRejectsGarbage() throws Exception {
    Cursor c = new Cursor(NOW, 0xdeadbeef, 12, 345);
    assertThat(Cursor.parse(c.encode())).isEqualTo(c);
    assertThat(search("{\"signal\": \"logs\", \"after\": \"" + c.encode() + "\"}").after()).isEqualTo(c);
    assertThat(error("{\"signal\": \"logs\", \"after\": \"page-2\"}")).contains("not a cursor");
    assertThat(error("{\"signal\": \"logs\", \"after\": \"1.2.3.4\"}")).contains("not a cursor");
  }

  @Test
  void seriesDocumentIsClosedAndBounded() throws Exception {
    SeriesQuery q = Documents.series(("{\"name\": \"http.server.duration.count\", \"from\": \"-15m\","
        + " \"where\": [{\"attr\": \"service.name\", \"eq\": \"api\"}], \"max_series\": 5, \"max_points\": 7}")
        .getBytes(StandardCharsets.UTF_8), NOW);
    assertThat(q.name()).isEqualTo("http.server.duration.count");
    assertThat(q.from()).isEqualTo(NOW - 15 * MIN);
    assertThat(q.maxSeries()).isEqualTo(5);
    assertThat(q.maxPoints()).isEqualTo(7);
    assertThat(q.where()).containsExactly(new Term.Attr("service.name", Op.EQ, Scalar.string("api")));
    assertThatThrownBy(() -> Documents.series("{\"limit\": 5}".getBytes(StandardCharsets.UTF_8), NOW))
        .hasMessageContaining("\"limit\"").hasMessageContaining("name, from, to, where, q, max_series, max_points");
    assertThatThrownBy(() -> Documents.series("{\"max_series\": 0}".getBytes(StandardCharsets.UTF_8), NOW))
        .hasMessageContaining("max_series");
    assertThatThrownBy(() -> Documents.series("{\"where\": [{\"text\": \"x\"}]}".getBytes(StandardCharsets.UTF_8), NOW))
        .hasMessageContaining("attr terms").hasMessageContaining("entity terms only");
  }

  static String logs(String term) {
    return error("{\"signal\": \"logs\", \"where\": [" + term + "]}");
  }

  @Test
  void entityTermsParseInBothSpellings() throws Exception {
    SearchQuery q = Documents.search(("{\"signal\": \"traces\", \"where\": [{\"entity\": \"9A3C000000000001\"}, "
        + "{\"entity\": {\"in\": [\"ffffffffffffffff\", \"0000000000000002\"]}}]}").getBytes(StandardCharsets.UTF_8), NOW);
    assertThat(q.where()).containsExactly(new Term.Entity(java.util.Set.of(0x9a3c000000000001L)),
        new Term.Entity(java.util.Set.of(-1L, 2L)));
    SeriesQuery s = Documents.series("{\"where\": [{\"entity\": \"0000000000000003\"}]}".getBytes(StandardCharsets.UTF_8), NOW);
    assertThat(s.where()).containsExactly(new Term.Entity(java.util.Set.of(3L)));
  }

  @Test
  void badEntityTermsAreRefusedNamingTheProblem() {
    assertThat(logs("{\"entity\": \"9a3c\"}")).contains("where[0].entity").contains("\"9a3c\" is not an entity key")
        .contains("16 hex digits");
    assertThat(logs("{\"entity\": \"9a3c00000000000g\"}")).contains("is not an entity key");
    assertThat(logs("{\"entity\": \"0000000000000000\"}")).contains("names no entity");
    assertThat(logs("{\"entity\": 12}")).contains("an entity term is");
    assertThat(logs("{\"entity\": {\"in\": []}}")).contains("where[0].entity.in").contains("empty");
    assertThat(logs("{\"entity\": {\"eq\": \"9a3c000000000001\"}}")).contains("unknown key \"eq\"").contains("in");
    assertThat(logs("{\"entity\": {\"in\": [\"9a3c000000000001\", 7]}}")).contains("where[0].entity.in[1]");
    assertThat(logs("{\"entity\": \"9a3c000000000001\", \"eq\": 1}")).contains("takes no operator");
    StringBuilder many = new StringBuilder("{\"entity\": {\"in\": [");
    for (int i = 0; i <= Term.MAX_IN; i++) {
      many.append(i == 0 ? "" : ", ").append('"').append(String.format("%016x", i + 1)).append('"');
    }
    assertThat(logs(many + "]}}")).contains("more than 10000 entities");
  }

  @Test
  void inTermsParseAndBadOnesAreRefused() throws Exception {
    SearchQuery q = Documents.search(("{\"signal\": \"logs\", \"where\": [{\"attr\": \"k\", \"in\": [\"a\", 2, 0.5, true]}, "
        + "{\"field\": \"trace_id\", \"in\": [\"0AF7651916CD43DD8448EB211C80319C\"]}]}").getBytes(StandardCharsets.UTF_8), NOW);
    assertThat(q.where()).containsExactly(
        new Term.AttrIn("k", List.of(Scalar.string("a"), Scalar.integer(2), Scalar.dbl(0.5), Scalar.bool(true))),
        new Term.FieldIn(RootField.TRACE_ID, List.of(Scalar.string("0AF7651916CD43DD8448EB211C80319C"))));
    assertThat(logs("{\"attr\": \"k\", \"in\": []}")).contains("where[0].in").contains("empty");
    assertThat(logs("{\"attr\": \"k\", \"in\": \"a\"}")).contains("in takes a list");
    assertThat(logs("{\"attr\": \"k\", \"in\": [null]}")).contains("where[0].in[0]");
    assertThat(logs("{\"field\": \"trace_id\", \"in\": [\"abc\"]}")).contains("trace_id.in[0]").contains("32 hex digits");
    assertThat(logs("{\"field\": \"span_id\", \"in\": [\"zz00000000000000\"]}")).contains("is not hex");
    StringBuilder many = new StringBuilder("{\"attr\": \"k\", \"in\": [");
    for (int i = 0; i <= Term.MAX_IN; i++) {
      many.append(i == 0 ? "" : ", ").append(i);
    }
    assertThat(logs(many + "]}")).contains("more than 10000 values");
  }
}
