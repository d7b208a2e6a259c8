package mira.query.series;

import static mira.query.testing.Metrics.attr;
import static mira.query.testing.Metrics.gauge;
import static mira.query.testing.Metrics.intPoint;
import static mira.query.testing.Metrics.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.Sum;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.result.QueryException;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import mira.query.testing.JsonTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * rate and increase against a brute-force oracle: the true traffic (increments) that produced
 * random cumulative counters with resets and restarts, and delta counters of the same traffic.
 */
class SeriesFunctionsTest {
  static final long S = 1_000_000_000L;
  static final long STEP = 60 * S;
  /** A multiple of the step, so the grid starts at the window's start. */
  static final long FROM = (Corpus.T0 / STEP) * STEP;
  static final long TO = FROM + 30 * STEP - 1;
  static final String WINDOW = "\"from\": \"" + FROM + "\", \"to\": \"" + TO + "\"";

  @TempDir Path data;

  JsonTree.Obj series(String doc) throws Exception {
    try (LocalQueries q = LocalQueries.open(data, () -> TO)) {
      return JsonTree.parseObj(mira.query.render.SeriesJson.series(q.series(doc.getBytes(StandardCharsets.UTF_8))));
    }
  }

  static Metric sum(String name, boolean delta, List<NumberDataPoint> points) {
    return Metric.newBuilder().setName(name).setUnit("1").setSum(Sum.newBuilder().setIsMonotonic(true)
        .setAggregationTemporalityValue(delta ? 1 : 2).addAllDataPoints(points)).build();
  }

  /** One counter's traffic: increments at point times; the cumulative and delta points that report it. */
  static final class Traffic {
    final List<NumberDataPoint> cumulative = new ArrayList<>();
    final List<NumberDataPoint> delta = new ArrayList<>();
    final TreeMap<Long, Long> perBucket = new TreeMap<>();

    Traffic(Random rnd, String route) {
      long t = FROM + rnd.nextInt(30) * S;
      long start = Math.max(FROM, t - rnd.nextInt(5) * S);   // the process started inside the window
      long total = 0;
      long prev = start;
      while (t <= TO) {
        long inc = rnd.nextInt(50);
        if (rnd.nextInt(12) == 0 && !cumulative.isEmpty()) {
          // A restart just after the previous point: a new start time, the count from zero.
          start = prev + 1;
          total = 0;
        }
        total += inc;
        cumulative.add(NumberDataPoint.newBuilder().setStartTimeUnixNano(start).setTimeUnixNano(t).setAsInt(total)
            .addAttributes(attr("route", route)).build());
        delta.add(NumberDataPoint.newBuilder().setStartTimeUnixNano(prev).setTimeUnixNano(t).setAsInt(inc)
            .addAttributes(attr("route", route)).build());
        perBucket.merge((t - FROM) / STEP, inc, Long::sum);
        prev = t;
        t += (1 + rnd.nextInt(40)) * S;
      }
    }
  }

  @Test
  void rateAndIncreaseOfCumulativeAndDeltaCountersEqualTheTrafficThatMadeThem() throws Exception {
    long seed = Long.getLong("mira.seed", System.nanoTime());
    System.out.println("SeriesFunctionsTest seed " + seed);
    Random rnd = new Random(seed);
    TreeMap<String, TreeMap<Long, Long>> byService = new TreeMap<>();
    int seq = 1;
    for (String service : List.of("api", "db")) {
      List<NumberDataPoint> cum = new ArrayList<>();
      List<NumberDataPoint> del = new ArrayList<>();
      for (String route : List.of("/a", "/b", "/c")) {
        Traffic tr = new Traffic(rnd, route);
        cum.addAll(tr.cumulative);
        del.addAll(tr.delta);
        tr.perBucket.forEach((k, v) -> byService.computeIfAbsent(service, x -> new TreeMap<>()).merge(k, v, Long::sum));
      }
      // Split across blocks, so a series is assembled from several.
      int half = cum.size() / 2;
      Blocks.publish(data, Signal.METRICS, "n", seq++, request(service, sum("req.cum", false, cum.subList(0, half)),
          sum("req.delta", true, del.subList(0, half))), FROM);
      Blocks.publish(data, Signal.METRICS, "n", seq++, request(service,
          sum("req.cum", false, cum.subList(half, cum.size())), sum("req.delta", true, del.subList(half, del.size()))),
          FROM);
    }
    for (String name : List.of("req.cum", "req.delta")) {
      JsonTree.Obj inc = series("{\"name\": \"" + name + "\", " + WINDOW
          + ", \"step\": \"1m\", \"fn\": \"increase\", \"group_by\": [\"service.name\"]}");
      JsonTree.Obj rate = series("{\"name\": \"" + name + "\", " + WINDOW
          + ", \"step\": \"1m\", \"fn\": \"rate\", \"group_by\": [\"service.name\"], \"agg\": \"sum\"}");
      List<?> incSeries = inc.list("series");
      assertThat(incSeries).as(name).hasSize(2);
      for (int i = 0; i < 2; i++) {
        JsonTree.Obj s = (JsonTree.Obj) incSeries.get(i);
        JsonTree.Obj r = (JsonTree.Obj) rate.list("series").get(i);
        String service = s.obj("attributes").str("service.name");
        TreeMap<Long, Long> want = byService.get(service);
        TreeMap<Long, Double> gotInc = new TreeMap<>();
        for (Object o : s.list("points")) {
          JsonTree.Obj p = (JsonTree.Obj) o;
          gotInc.put((Long.parseLong(p.str("time_unix_nano")) - FROM) / STEP, ((Number) p.get("value")).doubleValue());
        }
        assertThat(gotInc.keySet()).as(name + " " + service + " seed " + seed).isEqualTo(want.keySet());
        want.forEach((k, v) -> assertThat(gotInc.get(k)).as(name + " bucket " + k + " seed " + seed).isEqualTo((double) v));
        for (Object o : r.list("points")) {
          JsonTree.Obj p = (JsonTree.Obj) o;
          long k = (Long.parseLong(p.str("time_unix_nano")) - FROM) / STEP;
          assertThat(((Number) p.get("value")).doubleValue()).isCloseTo(want.get(k) / 60.0,
              org.assertj.core.data.Offset.offset(1e-9));
        }
      }
    }
  }

  @Test
  void lastMinMaxOfAGaugeOnTheStepGridAndTheCapsAfterGrouping() throws Exception {
    Blocks.publish(data, Signal.METRICS, "n", 1, request("api", gauge("cpu", "1",
        intPoint(FROM + S, 5, attr("core", 0)), intPoint(FROM + 2 * S, 9, attr("core", 0)),
        intPoint(FROM + 3 * S, 1, attr("core", 1)), intPoint(FROM + STEP + S, 4, attr("core", 1)))), FROM);
    Blocks.publish(data, Signal.METRICS, "n", 2, request("db", gauge("cpu", "1", intPoint(FROM + S, 100))), FROM);
    String g = "{\"name\": \"cpu\", " + WINDOW + ", \"step\": \"1m\", \"group_by\": [\"service.name\"], ";
    JsonTree.Obj max = series(g + "\"fn\": \"last\", \"agg\": \"max\"}");
    JsonTree.Obj api = (JsonTree.Obj) max.list("series").get(0);
    assertThat(api.obj("attributes")).isEqualTo(JsonTree.obj("service.name", "api"));
    // Bucket 0: last of core 0 is 9, of core 1 is 1; max 9. Bucket 1: core 1 only, 4.
    assertThat(api.list("points")).isEqualTo(List.of(
        JsonTree.obj("time_unix_nano", Long.toString(FROM), "value", 9.0),
        JsonTree.obj("time_unix_nano", Long.toString(FROM + STEP), "value", 4.0)));
    JsonTree.Obj min = series(g + "\"fn\": \"min\", \"agg\": \"count\", \"max_series\": 1, \"max_points\": 1}");
    assertThat(min.list("series")).hasSize(1);
    JsonTree.Obj only = (JsonTree.Obj) min.list("series").get(0);
    assertThat(only.list("points")).isEqualTo(List.of(JsonTree.obj("time_unix_nano", Long.toString(FROM + STEP),
        "value", 1.0)));
    assertThat(only.str("dropped_points")).isEqualTo("1");
    assertThat(min.obj("stats").str("dropped_series")).isEqualTo("1");
  }

  @Test
  void aFunctionWithoutMeaningForTheMetricIsRefusedNamingBoth() throws Exception {
    Blocks.publish(data, Signal.METRICS, "n", 1, request("api", gauge("cpu", "1", intPoint(FROM + S, 5))), FROM);
    assertThatThrownBy(() -> series("{\"name\": \"cpu\", " + WINDOW + ", \"step\": \"1m\", \"fn\": \"rate\"}"))
        .isInstanceOf(QueryException.class).hasMessageContaining("\"rate\"").hasMessageContaining("gauge \"cpu\"");
    assertThatThrownBy(() -> series("{\"name\": \"cpu\", " + WINDOW
        + ", \"step\": \"1m\", \"fn\": \"quantile\", \"quantile\": 0.99}"))
        .isInstanceOf(QueryException.class).hasMessageContaining("\"quantile\"").hasMessageContaining("gauge \"cpu\"");
    assertThatThrownBy(() -> series("{\"name\": \"cpu\", " + WINDOW + ", \"fn\": \"last\"}"))
        .isInstanceOf(QueryException.class).hasMessageContaining("step: required");
    assertThatThrownBy(() -> series("{\"name\": \"cpu\", " + WINDOW
        + ", \"step\": \"1m\", \"fn\": \"quantile\", \"quantile\": 1.5}"))
        .isInstanceOf(QueryException.class).hasMessageContaining("outside [0, 1]");
    assertThatThrownBy(() -> series("{\"name\": \"cpu\", " + WINDOW + ", \"step\": \"0s\", \"fn\": \"last\"}"))
        .isInstanceOf(QueryException.class).hasMessageContaining("not a positive duration");
  }
}
