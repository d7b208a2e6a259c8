package mira.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import mira.query.doc.Cursor;
import mira.query.render.AttributeJson;
import mira.query.render.FrameJson;
import mira.query.render.MapJson;
import mira.query.render.ResponseJson;
import mira.query.render.SeriesJson;
import mira.query.result.Attribute;
import mira.query.result.AttributeList;
import mira.query.result.FacetList;
import mira.query.result.CorrelateResult;
import mira.query.result.Frame;
import mira.query.result.ServiceMap;
import mira.query.result.LogRow;
import mira.query.result.MetricList;
import mira.query.result.Refused;
import mira.query.result.Resource;
import mira.query.result.Row;
import mira.query.result.Scope;
import mira.query.result.SearchResult;
import mira.query.result.SeriesPoints;
import mira.query.result.SeriesResult;
import mira.query.result.SpanRow;
import mira.query.result.Stats;
import mira.query.result.TraceResult;
import mira.query.result.Value;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The one renderer and the one reader agree: what {@link ResponseJson} writes, {@link ResultReader}
 * reads back into equal records (render → parse → equal), for every value type JSON can carry.
 */
class ResultReaderTest {
  @Property(tries = 300)
  void aSearchPageReadsBackEqual(@ForAll("pages") SearchResult page) throws IOException {
    assertThat(ResultReader.search(ResponseJson.search(page))).isEqualTo(page);
  }

  @Property(tries = 200)
  void aTraceReadsBackEqual(@ForAll("traces") TraceResult trace) throws IOException {
    assertThat(ResultReader.trace(ResponseJson.trace(trace))).isEqualTo(trace);
  }

  @Property(tries = 200)
  void aCompactTraceReadsBackEqualToTheFullOne(@ForAll("compactTraces") TraceResult trace) throws IOException {
    byte[] compact = ResponseJson.traceCompact(trace);
    assertThat(ResultReader.trace(compact)).isEqualTo(trace);
    assertThat(ResultReader.trace(compact)).isEqualTo(ResultReader.trace(ResponseJson.trace(trace)));
  }

  @Test
  void aCompactTraceListsEachResourceAndScopeOnceAndLeavesDefaultsOut() throws IOException {
    Resource other = new Resource(List.of(new Attribute("service.name", new Value.Str("cart"))), 0, null, Resource.NO_ENTITY);
    String id = "0af7651916cd43dd8448eb211c80319c";
    List<SpanRow> spans = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      // Equal records that are not the same object, as a merged cluster answer holds them.
      Resource r = i % 2 == 0 ? new Resource(List.copyOf(RES.attributes()), 0, null, RES.entity()) : other;
      spans.add(new SpanRow(i, -1, -1, -1, id, "00000000000000" + i + "0", i == 0 ? "" : "0000000000000000", "", 0,
          "s" + i, 0, i, i + 5, 5, 0, "", List.of(), 0, List.of(), 0, List.of(), 0, r, SCOPE));
    }
    TraceResult t = new TraceResult(id, spans, new Stats(1, 0, 1, 4, 4, 0), List.of());
    String json = new String(ResponseJson.traceCompact(t), StandardCharsets.UTF_8);
    assertThat(json).contains("\"shape\":\"compact\"").containsOnlyOnce("\"checkout\"").containsOnlyOnce("\"cart\"")
        .containsOnlyOnce("\"lib\"").containsOnlyOnce(id).doesNotContain("\"status\"").doesNotContain("\"events\"")
        .doesNotContain("\"kind\"").doesNotContain("\"trace_state\"");
    assertThat(json).contains("\"resource\":0,\"scope\":0}").contains("\"resource\":1,\"scope\":0}");
    assertThat(ResultReader.trace(json.getBytes(StandardCharsets.UTF_8))).isEqualTo(t);
    assertThatThrownBy(() -> ResultReader.trace(json.replace("\"resource\":1", "\"resource\":2").getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IOException.class).hasMessageContaining("not an index");
  }

  @Provide
  Arbitrary<TraceResult> compactTraces() {
    String id = "0af7651916cd43dd8448eb211c80319c";
    Arbitrary<Resource> resources = Arbitraries.of(RES, new Resource(List.of(), 3, "https://r", Resource.NO_ENTITY),
        new Resource(List.of(new Attribute("service.name", new Value.Str("cart"))), 0, null, 0x9a3c_0000_0000_0002L));
    Arbitrary<Scope> scopes = Arbitraries.of(SCOPE, new Scope("", "", List.of(), 0, null));
    Arbitrary<SpanRow> rows = Combinators.combine(spans(), resources, scopes, Arbitraries.of(true, false),
        Arbitraries.of(true, false)).as((s, r, sc, same, defaults) -> new SpanRow(s.time(), -1, -1, -1,
            same ? id : s.traceId(), s.spanId(), defaults ? "" : "00f067aa0ba902b7", defaults ? "" : "k=v",
            defaults ? 0 : 1, s.name(), defaults ? 0 : s.kind(), s.startTimeUnixNano(), s.endTimeUnixNano(),
            s.durationNano(), defaults ? 0 : s.statusCode(), defaults ? "" : s.statusMessage(),
            defaults ? List.of() : s.attributes(), defaults ? 0 : 4, defaults ? List.of() : s.events(),
            defaults ? 0 : s.droppedEventsCount(), defaults ? List.of() : s.links(), defaults ? 0 : 7, r, sc));
    return rows.list().ofMaxSize(6).map(s -> new TraceResult(id, s, new Stats(1, 0, 1, 9, s.size(), 0), List.of()));
  }

  @Property(tries = 200)
  void aSeriesAnswerReadsBackEqual(@ForAll("seriesAnswers") SeriesResult r) throws IOException {
    assertThat(ResultReader.series(SeriesJson.series(r))).usingRecursiveComparison()
        .withEqualsForType(Double::equals, Double.class).isEqualTo(r);
  }

  @Property(tries = 100)
  void aMetricListReadsBackEqual(@ForAll("metricLists") MetricList m) throws IOException {
    assertThat(ResultReader.metrics(SeriesJson.metrics(m))).isEqualTo(m);
  }

  @Test
  void anUnsignedCountAboveTheSignedRangeReadsBackUnsigned() throws IOException {
    SeriesResult.Series s = new SeriesResult.Series("h.count", "histogram", "", "", List.of(), List.of(),
        List.of(new SeriesResult.Point(1, SeriesResult.UNSIGNED, -1L, 0)), List.of(), 0);
    SeriesResult r = new SeriesResult(List.of(s), 0, new Stats(1, 0, 1, 1, 1, 0), List.of());
    SeriesResult got = ResultReader.series(SeriesJson.series(r));
    assertThat(got.series().get(0).points().get(0)).isEqualTo(new SeriesResult.Point(1, SeriesResult.UNSIGNED, -1L, 0));
    assertThatThrownBy(() -> ResultReader.series("{\"series\": [{\"name\": \"x\"}]}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IOException.class).hasMessageContaining("type");
  }

  @Test
  void aNodesStoredPointsReadBackEqualWithEveryShape() throws IOException {
    List<Attribute> res = List.of(new Attribute("service.name", new Value.Str("api")),
        new Attribute("ok", new Value.Bool(true)), new Attribute("ratio", new Value.F64(0.5)));
    SeriesResult.Exemplar x = new SeriesResult.Exemplar(7, SeriesResult.DOUBLE, 0, 12.5,
        "0102030405060708090a0b0c0d0e0f10", "0102030405060708", List.of(new Attribute("user", new Value.Str("u1"))));
    SeriesPoints sent = new SeriesPoints(List.of(
        new SeriesPoints.Stored("requests", "sum", "1", "served", res, List.of(), 0x8000000000000001L, 2, true, 3,
            List.of(new SeriesPoints.Point(10, 4, 99, 0, SeriesResult.LONG, Long.MIN_VALUE, 0, 5, List.of(x), null, null,
                    null, null, null),
                new SeriesPoints.Point(11, 4, 99, 1, SeriesResult.DOUBLE, 0, Double.NaN, 0, List.of(), null, null, null,
                    null, null),
                new SeriesPoints.Point(12, 4, 99, 2, SeriesResult.NULL, 0, 0, 0, List.of(), null, null, null, null,
                    null))),
        new SeriesPoints.Stored("latency.count", "histogram", "ms", "", res,
            List.of(new Attribute("route", new Value.Str("/a"))), 0, 1, true, 0,
            List.of(new SeriesPoints.Point(20, 1, 2, 3, SeriesResult.UNSIGNED, -1L, 0, 19, List.of(),
                new long[] {-1L, 0, 7}, new double[] {10.0, Double.POSITIVE_INFINITY}, null, null, null))),
        new SeriesPoints.Stored("size.count", "exponential_histogram", "By", "", res, List.of(), 0, 2, true, 0,
            List.of(new SeriesPoints.Point(30, 1, 2, 4, SeriesResult.UNSIGNED, 9, 0, 0, List.of(), null, null,
                new SeriesPoints.Exp(-3, 1.0, -2, new double[] {1, 0, 4}, 5, new double[] {3}), null, null))),
        new SeriesPoints.Stored("rtt.count", "summary", "s", "", res, List.of(), 0, 0, true, 0,
            List.of(new SeriesPoints.Point(40, 1, 2, 5, SeriesResult.UNSIGNED, 4, 0, 0, List.of(), null, null, null,
                new double[] {0.5, 0.99}, new double[] {0.25, Double.NaN})))),
        false, 2, new Stats(3, 1, 2, 900, 120, 4), List.of(new Refused("metrics/b1", "bad crc")));
    SeriesPoints got = ResultReader.seriesPoints(SeriesJson.points(sent));
    assertThat(got).usingRecursiveComparison().withEqualsForType(Double::equals, Double.class).isEqualTo(sent);
    assertThat(got.series().get(1).points().get(0).counts()).containsExactly(-1L, 0, 7);
  }

  @Test
  void aPointsAnswerOfTheWrongShapeNamesWhatIsWrong() {
    String series = "{\"name\": \"m\", \"type\": \"sum\", \"unit\": \"\", \"description\": \"\", \"resource\": {},"
        + " \"attributes\": {}, \"entity\": \"0\", \"temporality\": 2, \"monotonic\": true, \"dropped_points\": \"0\",";
    String tail = "], \"dropped_series\": \"0\", \"stats\": {\"blocks_total\": 0, \"blocks_pruned\": 0,"
        + " \"blocks_scanned\": 0, \"rows_scanned\": \"0\", \"rows_matched\": \"0\", \"took_ms\": \"0\"}}";
    String point = "{\"t\": \"5\", \"node\": 1, \"seq\": \"2\", \"id\": 0, \"kind\": 1, \"l\": \"7\", \"start\": \"0\"}";
    assertThatThrownBy(() -> ResultReader.seriesPoints(bytes("{\"series\": {}}")))
        .isInstanceOf(IOException.class).hasMessageContaining("\"series\" is missing or not an array");
    assertThatThrownBy(() -> ResultReader.seriesPoints(bytes("{\"series\": [" + series + " \"points\": 3}" + tail)))
        .isInstanceOf(IOException.class).hasMessageContaining("\"points\" is missing");
    assertThatThrownBy(() -> ResultReader.seriesPoints(bytes("{\"series\": [" + series + " \"points\": ["
        + point.replace("\"t\": \"5\", ", "") + "]}" + tail)))
        .isInstanceOf(IOException.class).hasMessageContaining("\"t\" is missing or not an integer");
    assertThatThrownBy(() -> ResultReader.seriesPoints(bytes("{\"series\": [" + series + " \"points\": ["
        + point.replace("\"seq\": \"2\"", "\"seq\": \"two\"") + "]}" + tail)))
        .isInstanceOf(IOException.class).hasMessageContaining("\"seq\" is not an integer: two");
    assertThatThrownBy(() -> ResultReader.seriesPoints(bytes("{\"series\": [" + series + " \"points\": [" + point
        + "]}" + tail + " {}"))).isInstanceOf(IOException.class).hasMessageContaining("trailing content");
  }

  @Test
  void aPointsAnswerKeepsTheFirstOfARepeatedMemberAsEveryReaderDoes() throws IOException {
    String body = "{\"series\": [{\"name\": \"m\", \"type\": \"sum\", \"unit\": \"\", \"description\": \"\","
        + " \"resource\": {}, \"attributes\": {}, \"entity\": \"0\", \"temporality\": 2, \"monotonic\": true,"
        + " \"dropped_points\": \"0\", \"points\": [{\"t\": \"5\", \"t\": \"6\", \"node\": 1, \"seq\": \"2\","
        + " \"id\": 0, \"kind\": 1, \"l\": \"7\", \"start\": \"0\"}]}], \"dropped_series\": \"0\","
        + " \"stats\": {\"blocks_total\": 0, \"blocks_pruned\": 0, \"blocks_scanned\": 0, \"rows_scanned\": \"0\","
        + " \"rows_matched\": \"0\", \"took_ms\": \"0\"}}";
    SeriesPoints.Point got = ResultReader.seriesPoints(bytes(body)).series().get(0).points().get(0);
    assertThat(got.time()).isEqualTo(5);
    assertThat(got.l()).isEqualTo(7);
    assertThat(got.d()).isZero();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void typesJsonCannotCarryComeBackAsTheirText() throws IOException {
    LogRow sent = log(0, List.of(new Attribute("i", new Value.Int(Long.MIN_VALUE)),
        new Attribute("b", new Value.Bytes(new byte[] {0, 1, (byte) 0xFF})),
        new Attribute("nan", new Value.F64(Double.NaN)),
        new Attribute("whole", new Value.F64(2.0))), new Value.Int(42));
    LogRow got = (LogRow) ResultReader.search(ResponseJson.search(page(List.of(sent), false))).rows().get(0);
    assertThat(got.attributes()).containsExactly(new Attribute("i", new Value.Str("-9223372036854775808")),
        new Attribute("b", new Value.Str("AAH/")), new Attribute("nan", new Value.Str("NaN")),
        new Attribute("whole", new Value.F64(2.0)));
    assertThat(got.body()).isEqualTo(new Value.Str("42"));
  }

  @Test
  void anAnswerOfTheWrongShapeNamesWhatIsWrong() {
    assertThatThrownBy(() -> ResultReader.search("{\"stats\": {}}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IOException.class).hasMessageContaining("rows");
    assertThatThrownBy(() -> ResultReader.search("{\"rows\": [{\"time_unix_nano\": \"x\"}]}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IOException.class).hasMessageContaining("time_unix_nano");
    assertThatThrownBy(() -> ResultReader.search("{\"rows\": []} {}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IOException.class).hasMessageContaining("trailing");
    assertThat(ResultReader.error("{\"error\": \"field \\\"x\\\" is unknown\"}".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("field \"x\" is unknown");
  }

  // --- generators: only what a JSON answer can carry (see ResultReader's class comment) ---

  static final Resource RES = new Resource(List.of(new Attribute("service.name", new Value.Str("checkout"))), 0, null,
      0x9a3c_0000_0000_0001L);
  static final Scope SCOPE = new Scope("lib", "1.0", List.of(), 0, "https://schema");

  static LogRow log(long time, List<Attribute> attrs, Value body) {
    return new LogRow(time, -1, -1, -1, time + 1, 9, "INFO", "", body, "", "", 0, attrs, 0, RES, SCOPE);
  }

  static SearchResult page(List<? extends Row> rows, boolean next) {
    List<Row> out = new ArrayList<>(rows);
    String cursor = null;
    if (next && !out.isEmpty()) {
      Row last = out.get(out.size() - 1);
      Cursor c = new Cursor(last.time(), 7, 12345, 42);
      cursor = c.encode();
      out.set(out.size() - 1, switch (last) {
        case LogRow l -> new LogRow(l.time(), c.node(), c.seq(), c.row(), l.observedTimeUnixNano(), l.severityNumber(),
            l.severityText(), l.eventName(), l.body(), l.traceId(), l.spanId(), l.flags(), l.attributes(),
            l.droppedAttributesCount(), l.resource(), l.scope());
        case SpanRow s -> new SpanRow(s.time(), c.node(), c.seq(), c.row(), s.traceId(), s.spanId(),
            s.parentSpanId(), s.traceState(), s.flags(), s.name(), s.kind(), s.startTimeUnixNano(),
            s.endTimeUnixNano(), s.durationNano(), s.statusCode(), s.statusMessage(), s.attributes(),
            s.droppedAttributesCount(), s.events(), s.droppedEventsCount(), s.links(), s.droppedLinksCount(),
            s.resource(), s.scope());
      });
    }
    return new SearchResult(out, cursor, new Stats(3, 1, 2, 100, out.size(), 4),
        List.of(new Refused("logs/p=1/a", "bad crc")));
  }

  static Arbitrary<String> text() {
    return Arbitraries.strings().all().ofMaxLength(12).filter(s -> s.codePoints().allMatch(Character::isDefined)
        && s.chars().noneMatch(c -> Character.isSurrogate((char) c)));
  }

  static Arbitrary<Value> values(int depth) {
    List<Arbitrary<? extends Value>> leaves = List.of(
        text().map(Value.Str::new),
        Arbitraries.of(true, false).map(Value.Bool::new),
        Arbitraries.doubles().between(-1e12, 1e12).map(Value.F64::new),
        Arbitraries.just(Value.Empty.INSTANCE));
    if (depth == 0) {
      return Arbitraries.oneOf(leaves);
    }
    List<Arbitrary<? extends Value>> all = new ArrayList<>(leaves);
    all.add(values(depth - 1).list().ofMaxSize(3).map(Value.Array::new));
    all.add(attributes(depth - 1).map(Value.KvList::new));
    return Arbitraries.oneOf(all);
  }

  static Arbitrary<List<Attribute>> attributes(int depth) {
    return Combinators.combine(Arbitraries.of("a", "b", "k8s.pod.name", "é", ""), values(depth))
        .as(Attribute::new).list().ofMaxSize(4);
  }

  static Arbitrary<String> hex(int bytes) {
    return Arbitraries.oneOf(Arbitraries.just(""),
        Arbitraries.strings().withChars("0123456789abcdef").ofLength(bytes * 2));
  }

  static Arbitrary<Resource> resources() {
    return Combinators.combine(attributes(2), Arbitraries.longs().between(0, 4_294_967_295L),
        Arbitraries.of("https://opentelemetry.io/schemas/1.21.0", null),
        Arbitraries.oneOf(Arbitraries.just(Resource.NO_ENTITY), Arbitraries.longs())).as(Resource::new);
  }

  static Arbitrary<Scope> scopes() {
    return Combinators.combine(text(), text(), attributes(1), Arbitraries.longs().between(0, 5),
        Arbitraries.of("s", null)).as(Scope::new);
  }

  static Arbitrary<LogRow> logs() {
    Arbitrary<Long> times = Arbitraries.longs().between(0, Long.MAX_VALUE);
    Arbitrary<List<String>> ids = Combinators.combine(hex(16), hex(8)).as(List::of);
    return Combinators.combine(times, Arbitraries.integers().between(0, 24), text(), values(2).filter(v -> !(v instanceof Value.Empty)).injectNull(0.2),
        ids, attributes(2), resources(), scopes())
        .as((t, sev, st, body, id, attrs, res, sc) ->
            new LogRow(t, -1, -1, -1, t / 2, sev, st, "ev", body, id.get(0), id.get(1), 1, attrs, 3, res, sc));
  }

  static Arbitrary<SpanRow> spans() {
    Arbitrary<Long> times = Arbitraries.longs().between(0, Long.MAX_VALUE / 2);
    Arbitrary<SpanRow.Event> events = Combinators.combine(times, text(), attributes(1))
        .as((t, n, a) -> new SpanRow.Event(t, n, a, 0));
    Arbitrary<SpanRow.Link> links = Combinators.combine(hex(16), hex(8), attributes(1))
        .as((t, s, a) -> new SpanRow.Link(t, s, "k=v", 256, a, 1));
    return Combinators.combine(times, hex(16), hex(8), text(), Arbitraries.integers().between(0, 5),
        attributes(2), events.list().ofMaxSize(3), links.list().ofMaxSize(2))
        .as((t, trace, span, name, kind, attrs, evs, lns) -> new SpanRow(t, -1, -1, -1, trace, span, "", "",
            0, name, kind, t, t + 5, 5, kind % 3, "msg", attrs, 0, evs, 2, lns, 0, RES, SCOPE));
  }

  @Provide
  Arbitrary<SearchResult> pages() {
    Arbitrary<List<Row>> rows = Arbitraries.oneOf(logs().list().ofMaxSize(5).map(l -> new ArrayList<Row>(l)),
        spans().list().ofMaxSize(5).map(l -> new ArrayList<Row>(l)));
    return Combinators.combine(rows, Arbitraries.of(true, false)).as(ResultReaderTest::page);
  }

  /** Series whose kinds follow the reader's rule: integers are unsigned exactly on histogram and summary series. */
  static Arbitrary<SeriesResult.Series> series() {
    Arbitrary<String> types = Arbitraries.of("gauge", "sum", "histogram", "summary", "exponential_histogram");
    return types.flatMap(type -> {
      boolean unsigned = !type.equals("gauge") && !type.equals("sum");
      Arbitrary<Long> times = Arbitraries.longs().between(0, Long.MAX_VALUE);
      Arbitrary<SeriesResult.Point> points = Combinators.combine(times, Arbitraries.integers().between(0, 2),
          Arbitraries.longs(), Arbitraries.frequencyOf(Tuple.of(9, Arbitraries.doubles().between(-1e15, 1e15)),
              Tuple.of(1, Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY))))
          .as((t, k, l, d) -> switch (k) {
            case 0 -> new SeriesResult.Point(t, SeriesResult.NULL, 0, 0);
            case 1 -> new SeriesResult.Point(t, unsigned ? SeriesResult.UNSIGNED : SeriesResult.LONG, l, 0);
            default -> new SeriesResult.Point(t, SeriesResult.DOUBLE, 0, d);
          });
      Arbitrary<SeriesResult.Exemplar> exemplars = Combinators.combine(times, Arbitraries.longs(), hex(16), hex(8),
          attributes(1)).as((t, l, tr, sp, a) -> new SeriesResult.Exemplar(t, SeriesResult.LONG, l, 0, tr, sp, a));
      Arbitrary<double[]> bounds = Arbitraries.doubles().between(0, 1e6).array(double[].class).ofMaxSize(5)
          .injectNull(0.5);
      Arbitrary<Integer> scale = Arbitraries.integers().between(-10, 20).injectNull(0.5);
      return Combinators.combine(Combinators.combine(text(), scale).as((n, s) -> new Object[] {n, s}),
          Arbitraries.longs(), attributes(2), attributes(2), points.list().ofMaxSize(6),
          exemplars.list().ofMaxSize(2), Arbitraries.longs().between(0, 1000), bounds)
          .as((ns, entity, res, attrs, pts, ex, dropped, b) ->
              new SeriesResult.Series((String) ns[0], type, "ms", "d", res, attrs, pts, ex, dropped, b, entity,
                  (Integer) ns[1]));
    });
  }

  @Provide
  Arbitrary<SeriesResult> seriesAnswers() {
    return Combinators.combine(series().list().ofMaxSize(4), Arbitraries.longs().between(0, 99))
        .as((s, dropped) -> new SeriesResult(s, dropped, new Stats(5, 1, 4, 1000, 10, 3),
            List.of(new Refused("metrics/p=1/b", "bad crc"))));
  }

  @Provide
  Arbitrary<MetricList> metricLists() {
    Arbitrary<String> temporality = Arbitraries.of("delta", "cumulative", "unspecified").injectNull(0.3);
    Arbitrary<Boolean> monotonic = Arbitraries.of(true, false).injectNull(0.3);
    Arbitrary<List<List<Double>>> bounds = Arbitraries.doubles().between(-1e6, 1e6).list().ofMaxSize(4).list()
        .ofMaxSize(2);
    Arbitrary<MetricList.Metric> metrics = Combinators.combine(text(), Arbitraries.of("gauge", "sum", "histogram"),
        text(), text(), temporality, monotonic, text().list().ofMaxSize(3), bounds).as(MetricList.Metric::new);
    return metrics.list().ofMaxSize(5).map(m -> new MetricList(m, new Stats(2, 0, 2, 40, 40, 1), List.of()));
  }

  @Provide
  Arbitrary<TraceResult> traces() {
    return spans().list().ofMaxSize(6).map(s -> new TraceResult("0af7651916cd43dd8448eb211c80319c", s,
        new Stats(1, 0, 1, 9, s.size(), 0), List.of()));
  }

  @Property(tries = 100)
  void aCorrelateAnswerReadsBackEqual(@ForAll("correlations") CorrelateResult r) throws IOException {
    assertThat(ResultReader.correlate(FrameJson.correlate(r))).isEqualTo(r);
  }

  @Property(tries = 100)
  void aServiceMapReadsBackEqual(@ForAll("maps") ServiceMap m) throws IOException {
    assertThat(ResultReader.map(MapJson.map(m))).usingRecursiveComparison()
        .withEqualsForType(Double::equals, Double.class).isEqualTo(m);
  }

  @Provide
  Arbitrary<CorrelateResult> correlations() {
    Arbitrary<List<Attribute>> identity = Combinators.combine(text(), text())
        .as((k, v) -> List.of(new Attribute("service.instance.id", new Value.Str(k)), new Attribute("x", new Value.Str(v))));
    Arbitrary<Frame.Member> members = Combinators.combine(Arbitraries.longs().filter(l -> l != Resource.NO_ENTITY),
        text().injectNull(0.3), identity).as(Frame.Member::new);
    Arbitrary<Frame> frames = Combinators.combine(Arbitraries.longs().between(0, Long.MAX_VALUE / 2),
        Arbitraries.longs().between(0, 1_000_000_000_000L), members.list().ofMaxSize(4), hex(16).list().ofMaxSize(4))
        .as((from, len, m, t) -> new Frame(from, from + len, m, t));
    return Combinators.combine(frames, Arbitraries.of(true, false), Arbitraries.of(true, false),
        Arbitraries.integers().between(0, 1000))
        .as((f, t, e, n) -> new CorrelateResult(f, t, e, n, new Stats(3, 1, 2, 100, 7, 4), List.of()));
  }

  @Provide
  Arbitrary<ServiceMap> maps() {
    Arbitrary<Double> ms = Arbitraries.frequencyOf(Tuple.of(9, Arbitraries.doubles().between(0, 1e6)),
        Tuple.of(1, Arbitraries.of(Double.NaN)));
    Arbitrary<ServiceMap.Node> nodes = Combinators.combine(text(), Arbitraries.integers().between(0, 50),
        Arbitraries.longs().between(0, Long.MAX_VALUE), Arbitraries.longs().between(0, 1000), ms, ms, Arbitraries.of(true, false))
        .as(ServiceMap.Node::new);
    Arbitrary<ServiceMap.Edge> edges = Combinators.combine(text(), text(), Arbitraries.longs().between(0, Long.MAX_VALUE),
        Arbitraries.longs().between(0, 1000), ms, ms, Arbitraries.of("rpc", "messaging", "link")).as(ServiceMap.Edge::new);
    return Combinators.combine(nodes.list().ofMaxSize(4), edges.list().ofMaxSize(4), Arbitraries.of(true, false))
        .as((n, e, t) -> new ServiceMap(n, e, t, new Stats(2, 0, 2, 30, 30, 1), List.of(new Refused("traces/b", "bad crc"))));
  }

  @Test
  void attributeListsAndFacetsReadBackEqualWithEveryValueInItsType() throws IOException {
    Stats st = new Stats(3, 1, 2, 900, 120, 4);
    AttributeList keys = new AttributeList("traces", 120, List.of(
        new AttributeList.Key("resource", "service.name", List.of("string"), 120),
        new AttributeList.Key("record", "http.status_code", List.of("string", "int"), Long.MAX_VALUE)),
        st, List.of(new Refused("traces/b1", "bad crc")));
    assertThat(ResultReader.attributes(AttributeJson.attributes(keys))).isEqualTo(keys);

    // An int64, bytes and a double are written as text or numbers; the type beside them brings each back.
    FacetList facets = new FacetList("logs", 120, List.of(
        new FacetList.Facet("k", "record", 119, 7, List.of(
            new FacetList.ValueCount(new Value.Int(Long.MIN_VALUE), 50),
            new FacetList.ValueCount(new Value.Str("12"), 40),
            new FacetList.ValueCount(new Value.F64(2.0), 10),
            new FacetList.ValueCount(new Value.F64(Double.NaN), 5),
            new FacetList.ValueCount(new Value.Bytes(new byte[] {0, -1, 7}), 4),
            new FacetList.ValueCount(new Value.Bool(false), 3)), 7)), List.of("absent.key"), st, List.of());
    FacetList back = ResultReader.facets(AttributeJson.facets(facets));
    assertThat(back).isEqualTo(facets);
    assertThat(back.facets().get(0).values().get(0).value()).isEqualTo(new Value.Int(Long.MIN_VALUE));
  }

  @Test
  void theAlertsDocumentReadsIntoRules() throws IOException {
    String doc = """
        {"enabled": true, "rules_file": "rules.kyaml", "loaded_at": "2026-12-01T11:00:00Z", "reload_error": null,
         "alerts": [
          {"name": "checkout-errors", "kind": "count", "signal": "logs", "state": "firing", "since": "2026-12-01T12:00:30Z",
           "value": 12, "threshold": {"above": 10}, "counts": {"query": 12, "of": null},
           "over": "5m", "every": "30s", "for": "2m", "repeat": "4h", "labels": {"team": "payments"},
           "evaluated_at": "2026-12-01T12:00:30Z", "took_ms": 3.2, "evaluations": 121,
           "window": {"from": "2026-12-01T11:55:30Z", "to": "2026-12-01T12:00:29.999999999Z"}, "refused_blocks": 0,
           "filter": "service.name=checkout severity_number>=\\\"17\\\"", "link": null, "error": null, "targets": []},
          {"name": "slow", "kind": "ratio", "signal": "traces", "state": "ok", "since": null, "value": null,
           "threshold": {"below": 0.5}, "counts": {"query": null, "of": null}, "over": "1m", "every": "30s", "for": "0s",
           "repeat": "4h", "labels": {}, "evaluated_at": null, "took_ms": 0, "evaluations": 0, "window": null,
           "refused_blocks": 0, "filter": "duration_ns>1000", "of_filter": "", "link": null, "error": "busy",
           "targets": []}]}
        """;
    AlertList a = ResultReader.alerts(doc.getBytes(StandardCharsets.UTF_8));
    assertThat(a.enabled()).isTrue();
    assertThat(a.alerts()).containsExactly(
        new AlertList.Alert("checkout-errors", "count", "logs", "firing", "2026-12-01T12:00:30Z", 12.0, true, 10, "5m",
            "service.name=checkout severity_number>=\"17\"", null, "2026-12-01T11:55:30Z", "2026-12-01T12:00:29.999999999Z",
            null),
        new AlertList.Alert("slow", "ratio", "traces", "ok", null, null, false, 0.5, "1m", "duration_ns>1000", "", null, null,
            "busy"));
    AlertList off = ResultReader.alerts("{\"enabled\": false, \"alerts\": []}".getBytes(StandardCharsets.UTF_8));
    assertThat(off.enabled()).isFalse();
    assertThat(off.alerts()).isEmpty();
  }
}
