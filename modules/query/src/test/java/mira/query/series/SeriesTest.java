package mira.query.series;

import static mira.query.testing.JsonTree.obj;
import static mira.query.testing.Metrics.attr;
import static mira.query.testing.Metrics.doublePoint;
import static mira.query.testing.Metrics.gauge;
import static mira.query.testing.Metrics.histPoint;
import static mira.query.testing.Metrics.histogram;
import static mira.query.testing.Metrics.intPoint;
import static mira.query.testing.Metrics.request;
import static mira.query.testing.Metrics.summary;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.doc.Documents;
import mira.query.doc.FilterTextException;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import mira.query.testing.JsonTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeriesTest {
  static final long T0 = Corpus.T0;
  static final long NOW = T0 + 3_600_000_000_000L;
  static final String WINDOW = "\"from\": \"" + (T0 - 1) + "\", \"to\": \"" + NOW + "\"";

  @TempDir Path data;

  JsonTree.Obj series(String doc) throws Exception {
    try (LocalQueries q = LocalQueries.open(data, () -> NOW)) {
      return JsonTree.parseObj(mira.query.render.SeriesJson.series(q.series(doc.getBytes(StandardCharsets.UTF_8))));
    }
  }

  @SuppressWarnings("unchecked")
  static List<JsonTree.Obj> list(JsonTree.Obj o, String name) {
    return (List<JsonTree.Obj>) (List<?>) o.list(name);
  }

  static List<String> names(JsonTree.Obj r) {
    return list(r, "series").stream().map(s -> s.str("name")).toList();
  }

  @Test
  void pointsGroupByResourceAndPointAttributesOldestFirst() throws Exception {
    Blocks.publish(data, Signal.METRICS, "n", 1, request("api",
        gauge("cpu", "1", intPoint(T0 + 2, 20, attr("core", 0)), intPoint(T0 + 1, 10, attr("core", 0)),
            doublePoint(T0 + 3, 0.5, attr("core", 1)))), T0);
    Blocks.publish(data, Signal.METRICS, "n", 2, request("db", gauge("cpu", "1", intPoint(T0 + 4, 7, attr("core", 0)))),
        T0);
    JsonTree.Obj r = series("{\"name\": \"cpu\", " + WINDOW + "}");
    List<JsonTree.Obj> s = list(r, "series");
    assertThat(s).hasSize(3);
    JsonTree.Obj first = s.get(0);
    assertThat(first.str("name")).isEqualTo("cpu");
    assertThat(first.str("type")).isEqualTo("gauge");
    assertThat(first.str("unit")).isEqualTo("1");
    assertThat(first.str("description")).isEqualTo("cpu description");
    assertThat(first.obj("resource").obj("attributes")).isEqualTo(obj("service.name", "api"));
    // The resource's entity (service rule: service.name alone): the same for both cores of api, another for db.
    assertThat(first.obj("resource").str("entity")).matches("[0-9a-f]{16}");
    assertThat(s.get(1).obj("resource").str("entity")).isEqualTo(first.obj("resource").str("entity"));
    assertThat(s.get(2).obj("resource").str("entity")).matches("[0-9a-f]{16}")
        .isNotEqualTo(first.obj("resource").str("entity"));
    assertThat(first.obj("attributes")).isEqualTo(obj("core", "0"));
    assertThat(first.list("points")).isEqualTo(List.of(
        obj("time_unix_nano", Long.toString(T0 + 1), "value", "10"),
        obj("time_unix_nano", Long.toString(T0 + 2), "value", "20")));
    assertThat(s.get(1).obj("attributes")).isEqualTo(obj("core", "1"));
    assertThat(s.get(1).list("points")).isEqualTo(List.of(obj("time_unix_nano", Long.toString(T0 + 3), "value", 0.5)));
    assertThat(s.get(2).obj("resource").obj("attributes")).isEqualTo(obj("service.name", "db"));
    assertThat(r.obj("stats").str("dropped_series")).isEqualTo("0");
    assertThat(r.obj("stats").get("blocks_scanned")).isEqualTo(2L);
  }

  @Test
  void histogramsAndSummariesReadAsCountAndSumAndThoseNamesAreAcceptedBack() throws Exception {
    ByteString trace = ByteString.copyFrom(new byte[16]);
    Blocks.publish(data, Signal.METRICS, "n", 1, request("api",
        histogram("latency", histPoint(T0 + 1, 3, 4.5, trace), histPoint(T0 + 2, 5, 6.0, null)),
        summary("sizes", T0 + 3, 9, 100.0)), T0);
    JsonTree.Obj both = series("{\"name\": \"latency\", " + WINDOW + "}");
    assertThat(names(both)).containsExactly("latency.count", "latency.sum");
    JsonTree.Obj count = list(both, "series").get(0);
    assertThat(count.str("type")).isEqualTo("histogram");
    assertThat(count.list("points")).isEqualTo(List.of(
        obj("time_unix_nano", Long.toString(T0 + 1), "value", "3"),
        obj("time_unix_nano", Long.toString(T0 + 2), "value", "5")));
    // The exemplar rides with its series.
    assertThat(count.list("exemplars")).isEqualTo(List.of(obj("time_unix_nano", Long.toString(T0 + 1), "value", 4.5,
        "trace_id", "00000000000000000000000000000000", "span_id", "0102030405060708", "attributes", obj("x", "y"))));
    assertThat(list(both, "series").get(1).list("points")).isEqualTo(List.of(
        obj("time_unix_nano", Long.toString(T0 + 1), "value", 4.5),
        obj("time_unix_nano", Long.toString(T0 + 2), "value", 6.0)));

    assertThat(names(series("{\"name\": \"latency.count\", " + WINDOW + "}"))).containsExactly("latency.count");
    assertThat(names(series("{\"name\": \"latency.sum\", " + WINDOW + "}"))).containsExactly("latency.sum");
    JsonTree.Obj sizes = series("{\"name\": \"sizes.sum\", " + WINDOW + "}");
    assertThat(names(sizes)).containsExactly("sizes.sum");
    assertThat(list(sizes, "series").get(0).list("points"))
        .isEqualTo(List.of(obj("time_unix_nano", Long.toString(T0 + 3), "value", 100.0)));
    // No name: every metric, derived names included.
    assertThat(names(series("{" + WINDOW + "}"))).containsExactly("latency.count", "latency.sum", "sizes.count",
        "sizes.sum");
  }

  @Test
  void anExactNameWinsOverTheSuffixReading() throws Exception {
    Blocks.publish(data, Signal.METRICS, "n", 1, request("api",
        histogram("latency", histPoint(T0 + 1, 3, 4.5, null))), T0);
    Blocks.publish(data, Signal.METRICS, "n", 2, request("api", gauge("latency.count", "1", intPoint(T0 + 2, 42))), T0);
    JsonTree.Obj r = series("{\"name\": \"latency.count\", " + WINDOW + "}");
    assertThat(names(r)).containsExactly("latency.count");
    assertThat(list(r, "series").get(0).str("type")).isEqualTo("gauge");
    assertThat(list(r, "series").get(0).list("points"))
        .isEqualTo(List.of(obj("time_unix_nano", Long.toString(T0 + 2), "value", "42")));
  }

  @Test
  void maxSeriesKeepsTheSmallestKeysAcrossBlocksAndCountsTheRest() throws Exception {
    for (int b = 0; b < 3; b++) {
      List<NumberDataPoint> points = new ArrayList<>();
      for (int k = 0; k < 10; k++) {
        points.add(intPoint(T0 + b, k, attr("k", "v" + ((k * 7 + b * 3) % 10))));
      }
      Blocks.publish(data, Signal.METRICS, "n", b + 1, request("api",
          gauge("m", "1", points.toArray(new NumberDataPoint[0]))), T0);
    }
    JsonTree.Obj r = series("{\"name\": \"m\", \"max_series\": 3, " + WINDOW + "}");
    List<JsonTree.Obj> s = list(r, "series");
    assertThat(s.stream().map(x -> x.obj("attributes").str("k")).toList()).containsExactly("v0", "v1", "v2");
    for (JsonTree.Obj x : s) {
      assertThat(x.list("points")).hasSize(3);
    }
    assertThat(r.obj("stats").str("dropped_series")).isEqualTo("7");
  }

  @Test
  void maxPointsKeepsTheNewestWhileScanningAndCountsTheRest() throws Exception {
    int n = 0;
    for (int b = 0; b < 3; b++) {
      List<NumberDataPoint> points = new ArrayList<>();
      for (int k = 0; k < 17; k++) {
        points.add(intPoint(T0 + (k * 3 + b) * 1000L, n++));
      }
      Blocks.publish(data, Signal.METRICS, "n", b + 1, request("api", gauge("m", "1",
          points.toArray(new NumberDataPoint[0]))), T0);
    }
    JsonTree.Obj r = series("{\"name\": \"m\", \"max_points\": 7, " + WINDOW + "}");
    JsonTree.Obj s = list(r, "series").get(0);
    List<Object> times = new ArrayList<>();
    for (Object p : s.list("points")) {
      times.add(((JsonTree.Obj) p).str("time_unix_nano"));
    }
    List<Object> want = new ArrayList<>();
    for (int t = 51 - 7; t < 51; t++) {
      want.add(Long.toString(T0 + t * 1000L));
    }
    assertThat(times).isEqualTo(want);
    assertThat(s.str("dropped_points")).isEqualTo("44");
  }

  @Test
  void whereSelectsByResourceAndPointAttributes() throws Exception {
    Blocks.publish(data, Signal.METRICS, "n", 1, request("api",
        gauge("cpu", "1", intPoint(T0 + 1, 1, attr("core", 0)), intPoint(T0 + 2, 2, attr("core", 1)))), T0);
    Blocks.publish(data, Signal.METRICS, "n", 2, request("db", gauge("cpu", "1", intPoint(T0 + 3, 3, attr("core", 1)))),
        T0);
    JsonTree.Obj r = series("{\"name\": \"cpu\", " + WINDOW + ", \"where\": [{\"attr\": \"service.name\", \"eq\": \"api\"},"
        + " {\"attr\": \"core\", \"gte\": \"1\"}]}");
    List<JsonTree.Obj> s = list(r, "series");
    assertThat(s).hasSize(1);
    assertThat(s.get(0).list("points")).isEqualTo(List.of(obj("time_unix_nano", Long.toString(T0 + 2), "value", "2")));
    assertThat(list(series("{\"name\": \"cpu\", " + WINDOW + ", \"where\": [{\"attr\": \"core\", \"exists\": false}]}"),
        "series")).isEmpty();
  }

  @Test
  void notAndFilterTextSelectSeriesByWhatTheyLack() throws Exception {
    Blocks.publish(data, Signal.METRICS, "n", 1, request("api",
        gauge("cpu", "1", intPoint(T0 + 1, 1, attr("core", 0)), intPoint(T0 + 2, 2, attr("core", 1)))), T0);
    Blocks.publish(data, Signal.METRICS, "n", 2, request("db", gauge("cpu", "1", intPoint(T0 + 3, 3, attr("core", 1)))),
        T0);
    JsonTree.Obj other = series("{\"name\": \"cpu\", " + WINDOW + ", \"q\": \"service.name!=api\"}");
    assertThat(list(other, "series")).singleElement().satisfies(s ->
        assertThat(s.list("points")).isEqualTo(List.of(obj("time_unix_nano", Long.toString(T0 + 3), "value", "3"))));
    JsonTree.Obj notZero = series("{\"name\": \"cpu\", " + WINDOW + ", \"where\": [{\"not\": {\"attr\": \"core\", "
        + "\"eq\": 0}}]}");
    assertThat(list(notZero, "series")).hasSize(2);
    // where and q both apply.
    JsonTree.Obj both = series("{\"name\": \"cpu\", " + WINDOW + ", \"where\": [{\"not\": {\"attr\": \"core\", "
        + "\"eq\": 0}}], \"q\": \"service.name=api\"}");
    assertThat(list(both, "series")).singleElement().satisfies(s ->
        assertThat(s.list("points")).isEqualTo(List.of(obj("time_unix_nano", Long.toString(T0 + 2), "value", "2"))));
    // A key nothing has: every series lacks it.
    assertThat(list(series("{\"name\": \"cpu\", " + WINDOW + ", \"q\": \"nope!=1\"}"), "series")).hasSize(3);
    assertThat(list(series("{\"name\": \"cpu\", " + WINDOW + ", \"q\": \"-core?\"}"), "series")).isEmpty();
    assertThatThrownBy(() -> Documents.series(("{\"q\": \"core=1 timeout\"}").getBytes(StandardCharsets.UTF_8), T0))
        .isInstanceOf(FilterTextException.class).hasMessageContaining("column 8").hasMessageContaining("\"timeout\"");
  }

  @Test
  void metricNamesInTheWindowWithTypeUnitAndDescription() throws Exception {
    Blocks.publish(data, Signal.METRICS, "n", 1, request("api", gauge("cpu", "1", intPoint(T0 + 1, 1)),
        histogram("latency", histPoint(T0 + 2, 1, 1.0, null))), T0);
    Blocks.publish(data, Signal.METRICS, "n", 2, request("api", gauge("old", "s", intPoint(T0 - 5_000_000_000L, 1))),
        T0 - 5_000_000_000L);
    try (LocalQueries q = LocalQueries.open(data, () -> NOW)) {
      JsonTree.Obj r = JsonTree.parseObj(mira.query.render.SeriesJson.metrics(q.metrics(Long.toString(T0), "now")));
      assertThat(r.list("metrics")).isEqualTo(List.of(
          obj("name", "cpu", "type", "gauge", "unit", "1", "description", "cpu description", "temporality", null,
              "monotonic", null, "attribute_keys", List.of(), "bounds", List.of()),
          // A histogram point with no explicit bounds (one +Inf bucket) lists its empty bounds array.
          obj("name", "latency", "type", "histogram", "unit", "ms", "description", "", "temporality", "cumulative",
              "monotonic", null, "attribute_keys", List.of(), "bounds", List.of(List.of()))));
      JsonTree.Obj all = JsonTree.parseObj(mira.query.render.SeriesJson.metrics(q.metrics("-7d", null)));
      assertThat(all.list("metrics")).hasSize(3);
    }
  }
}
