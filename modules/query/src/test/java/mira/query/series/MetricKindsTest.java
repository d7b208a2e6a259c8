package mira.query.series;

import static mira.query.testing.Metrics.attr;
import static mira.query.testing.Metrics.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogram;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.metrics.v1.Summary;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.result.QueryException;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import mira.query.testing.JsonTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Functions over every metric type through the query API: histogram averages, summary and
 * exponential-histogram quantiles, and the table of which (function, type) pairs are refused.
 */
class MetricKindsTest {
  static final long S = 1_000_000_000L;
  static final long STEP = 60 * S;
  static final long FROM = (Corpus.T0 / STEP) * STEP;
  static final long TO = FROM + 10 * STEP - 1;
  static final String WINDOW = "\"from\": \"" + FROM + "\", \"to\": \"" + TO + "\", \"step\": \"1m\"";

  @TempDir Path data;

  JsonTree.Obj series(String doc) throws Exception {
    try (LocalQueries q = LocalQueries.open(data, () -> TO)) {
      return JsonTree.parseObj(mira.query.render.SeriesJson.series(q.series(doc.getBytes(StandardCharsets.UTF_8))));
    }
  }

  static Map<Long, Double> points(JsonTree.Obj series) {
    Map<Long, Double> out = new LinkedHashMap<>();
    for (Object o : series.list("points")) {
      JsonTree.Obj p = (JsonTree.Obj) o;
      out.put((Long.parseLong(p.str("time_unix_nano")) - FROM) / STEP, ((Number) p.get("value")).doubleValue());
    }
    return out;
  }

  static HistogramDataPoint hist(long start, long t, long count, double sum, KeyValue... attrs) {
    return HistogramDataPoint.newBuilder().setStartTimeUnixNano(start).setTimeUnixNano(t).setCount(count).setSum(sum)
        .addExplicitBounds(10).addBucketCounts(count).addBucketCounts(0).addAllAttributes(List.of(attrs)).build();
  }

  static Metric histogram(String name, HistogramDataPoint... points) {
    return Metric.newBuilder().setName(name).setUnit("ms").setHistogram(Histogram.newBuilder()
        .setAggregationTemporalityValue(2).addAllDataPoints(List.of(points))).build();
  }

  @Test
  void histogramAvgIsTheGroupsSumIncreaseOverItsCountIncrease() throws Exception {
    long st = FROM;   // both pods started at the window's start, so their first points count whole
    Blocks.publish(data, Signal.METRICS, "n", 1, request("api", histogram("lat",
        hist(st, FROM + 10 * S, 4, 40, attr("pod", "a")), hist(st, FROM + STEP + 10 * S, 6, 100, attr("pod", "a")),
        hist(st, FROM + 20 * S, 1, 100, attr("pod", "b")), hist(st, FROM + STEP + 20 * S, 1, 100, attr("pod", "b")))),
        FROM);
    JsonTree.Obj r = series("{\"name\": \"lat\", " + WINDOW + ", \"fn\": \"avg\", \"group_by\": [\"service.name\"]}");
    assertThat(r.list("series")).hasSize(1);
    JsonTree.Obj s = (JsonTree.Obj) r.list("series").get(0);
    assertThat(s.str("name")).isEqualTo("lat");
    assertThat(s.str("type")).isEqualTo("histogram");
    // Step 0: (40 + 100) / (4 + 1) = 28, every observation weighed alike (not the mean of 10 and 100).
    // Step 1: pod a added 2 observations summing 60, pod b none: 60 / 2 = 30.
    assertThat(points(s)).isEqualTo(Map.of(0L, 28.0, 1L, 30.0));
    JsonTree.Obj perPod = series("{\"name\": \"lat\", " + WINDOW + ", \"fn\": \"avg\"}");
    assertThat(perPod.list("series")).hasSize(2);
    // Pod b observed nothing in step 1: no point (0 / 0), not a zero.
    assertThat(points((JsonTree.Obj) perPod.list("series").get(1))).isEqualTo(Map.of(0L, 100.0));
    assertThatThrownBy(() -> series("{\"name\": \"lat.count\", " + WINDOW + ", \"fn\": \"avg\"}"))
        .isInstanceOf(QueryException.class).hasMessageContaining("\"avg\"").hasMessageContaining("histogram \"lat.count\"");
  }

  static SummaryDataPoint summaryPoint(long t, long count, double sum, double p50, double p99, KeyValue... attrs) {
    return SummaryDataPoint.newBuilder().setTimeUnixNano(t).setCount(count).setSum(sum).addAllAttributes(List.of(attrs))
        .addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(0.5).setValue(p50))
        .addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(0.99).setValue(p99)).build();
  }

  static Metric summary(String name, SummaryDataPoint... points) {
    return Metric.newBuilder().setName(name).setUnit("s").setSummary(Summary.newBuilder().addAllDataPoints(List.of(points)))
        .build();
  }

  @Test
  void summaryAnswersOnlyTheQuantilesItCarries() throws Exception {
    Blocks.publish(data, Signal.METRICS, "n", 1, request("api", summary("gc",
        summaryPoint(FROM + S, 1, 1, 0.1, 0.9, attr("pod", "a")), summaryPoint(FROM + 30 * S, 2, 2, 0.2, 0.8, attr("pod", "a")),
        summaryPoint(FROM + STEP + S, 3, 3, 0.3, 0.7, attr("pod", "a")),
        summaryPoint(FROM + S, 1, 1, 0.5, 2.5, attr("pod", "b")))), FROM);
    JsonTree.Obj r = series("{\"name\": \"gc\", " + WINDOW + ", \"fn\": \"quantile\", \"quantile\": 0.99}");
    assertThat(r.list("series")).hasSize(2);
    // The step's last point that carries the quantile answers.
    assertThat(points((JsonTree.Obj) r.list("series").get(0))).isEqualTo(Map.of(0L, 0.8, 1L, 0.7));
    assertThat(points((JsonTree.Obj) r.list("series").get(1))).isEqualTo(Map.of(0L, 2.5));
    assertThatThrownBy(() -> series("{\"name\": \"gc\", " + WINDOW + ", \"fn\": \"quantile\", \"quantile\": 0.9}"))
        .isInstanceOf(QueryException.class).hasMessageContaining("summary \"gc\"")
        .hasMessageContaining("only the quantiles 0.5, 0.99").hasMessageContaining("not 0.9");
    assertThatThrownBy(() -> series("{\"name\": \"gc\", " + WINDOW
        + ", \"fn\": \"quantile\", \"quantile\": 0.5, \"group_by\": []}"))
        .isInstanceOf(QueryException.class).hasMessageContaining("agg: \"sum\"").hasMessageContaining("do not merge");
    JsonTree.Obj max = series("{\"name\": \"gc\", " + WINDOW
        + ", \"fn\": \"quantile\", \"quantile\": 0.5, \"group_by\": [], \"agg\": \"max\"}");
    assertThat(points((JsonTree.Obj) max.list("series").get(0))).isEqualTo(Map.of(0L, 0.5, 1L, 0.3));
  }

  static ExponentialHistogramDataPoint expPoint(long t, double[] values, int scale, KeyValue... attrs) {
    int[] off = new int[2];
    long[][] b = ExpHistTest.buckets(values, scale, 0, off);
    ExponentialHistogramDataPoint.Builder p = ExponentialHistogramDataPoint.newBuilder().setTimeUnixNano(t)
        .setStartTimeUnixNano(t - S).setScale(scale).setCount(values.length).setZeroCount(b[0][0])
        .addAllAttributes(List.of(attrs));
    ExponentialHistogramDataPoint.Buckets.Builder pos = ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(off[0]);
    for (long c : b[1]) {
      pos.addBucketCounts(c);
    }
    ExponentialHistogramDataPoint.Buckets.Builder neg = ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(off[1]);
    for (long c : b[2]) {
      neg.addBucketCounts(c);
    }
    return p.setPositive(pos).setNegative(neg).build();
  }

  static Metric exponential(String name, boolean delta, List<ExponentialHistogramDataPoint> points) {
    return Metric.newBuilder().setName(name).setUnit("ms").setExponentialHistogram(ExponentialHistogram.newBuilder()
        .setAggregationTemporalityValue(delta ? 1 : 2).addAllDataPoints(points)).build();
  }

  @Test
  void exponentialQuantilesMergeSeriesAtTheCoarsestScaleAndTheTruthLiesInTheAnsweringBucket() throws Exception {
    long seed = Long.getLong("mira.seed", System.nanoTime());
    System.out.println("MetricKindsTest seed " + seed);
    Random rnd = new Random(seed);
    // Delta points, two pods per service at different scales; the truth is each step's raw values.
    List<List<Double>> truth = new ArrayList<>();
    for (int k = 0; k < 10; k++) {
      truth.add(new ArrayList<>());
    }
    List<ExponentialHistogramDataPoint> points = new ArrayList<>();
    int[] scales = {5, 2};
    for (int pod = 0; pod < 2; pod++) {
      for (int k = 0; k < 10; k++) {
        double[] v = ExpHistTest.values(rnd, 1 + rnd.nextInt(100));
        for (double x : v) {
          truth.get(k).add(x);
        }
        points.add(expPoint(FROM + k * STEP + (10 + pod) * S, v, scales[pod], attr("pod", "p" + pod)));
      }
    }
    Blocks.publish(data, Signal.METRICS, "n", 1, request("api", exponential("rtt", true, points)), FROM);
    for (double q : new double[] {0.5, 0.99}) {
      JsonTree.Obj r = series("{\"name\": \"rtt\", " + WINDOW + ", \"fn\": \"quantile\", \"quantile\": " + q
          + ", \"group_by\": [\"service.name\"]}");
      assertThat(r.list("series")).hasSize(1);
      JsonTree.Obj s = (JsonTree.Obj) r.list("series").get(0);
      assertThat(s.str("name")).isEqualTo("rtt");
      assertThat(((Number) s.get("scale")).intValue()).isEqualTo(2);
      Map<Long, Double> got = points(s);
      assertThat(got).hasSize(10);
      for (int k = 0; k < 10; k++) {
        double[] all = truth.get(k).stream().mapToDouble(Double::doubleValue).toArray();
        double want = ExpHistTest.truth(all, q);
        double value = got.get((long) k);
        String what = "seed " + seed + " q " + q + " step " + k + " truth " + want + " answer " + value;
        if (want == 0) {
          assertThat(value).as(what).isEqualTo(0.0);
        } else {
          assertThat(Math.signum(value)).as(what).isEqualTo(Math.signum(want));
          // Same bucket at the reported scale (an answer at a bucket's top edge belongs to it).
          double a = Math.abs(value);
          assertThat(a >= Math.pow(2, ExpHistTest.index(Math.abs(want), 2) / 4.0) * (1 - 1e-9)
              && a <= Math.pow(2, (ExpHistTest.index(Math.abs(want), 2) + 1) / 4.0) * (1 + 1e-9)).as(what).isTrue();
        }
      }
    }
  }

  static NumberDataPoint num(long t, long v) {
    return NumberDataPoint.newBuilder().setStartTimeUnixNano(FROM).setTimeUnixNano(t).setAsInt(v).build();
  }

  @Test
  void everyFunctionOverEveryTypeIsAnsweredOrRefusedNamingBoth() throws Exception {
    Metric gauge = Metric.newBuilder().setName("g").setGauge(Gauge.newBuilder().addDataPoints(num(FROM + S, 1))).build();
    Metric mono = Metric.newBuilder().setName("c").setSum(Sum.newBuilder().setIsMonotonic(true)
        .setAggregationTemporalityValue(2).addDataPoints(num(FROM + S, 1)).addDataPoints(num(FROM + 2 * S, 3))).build();
    Metric updown = Metric.newBuilder().setName("u").setSum(Sum.newBuilder().setIsMonotonic(false)
        .setAggregationTemporalityValue(2).addDataPoints(num(FROM + S, 1))).build();
    Metric hist = histogram("h", hist(FROM, FROM + S, 2, 4));
    Metric exp = exponential("e", false, List.of(expPoint(FROM + 2 * S, new double[] {1, 2, 3}, 3)));
    Metric sum = summary("s", summaryPoint(FROM + S, 2, 4, 1, 2));
    Blocks.publish(data, Signal.METRICS, "n", 1, request("api", gauge, mono, updown, hist, exp, sum), FROM);
    // name -> its type as the refusal names it
    Map<String, String> names = new LinkedHashMap<>();
    names.put("g", "gauge");
    names.put("c", "sum");
    names.put("u", "non-monotonic sum");
    for (String[] d : new String[][] {{"h", "histogram"}, {"e", "exponential_histogram"}, {"s", "summary"}}) {
      names.put(d[0], d[1]);
      names.put(d[0] + ".count", d[1]);
      names.put(d[0] + ".sum", d[1]);
    }
    int answered = 0;
    int refused = 0;
    for (String fn : mira.query.doc.SeriesFn.FNS) {
      for (Map.Entry<String, String> e : names.entrySet()) {
        String name = e.getKey();
        String doc = "{\"name\": \"" + name + "\", " + WINDOW + ", \"fn\": \"" + fn + "\""
            + (fn.equals("quantile") ? ", \"quantile\": 0.5" : "") + "}";
        boolean meaningless = switch (fn) {
          case "rate", "increase" -> name.equals("g") || name.equals("u");
          case "quantile" -> name.equals("g") || name.equals("c") || name.equals("u") || name.endsWith(".sum");
          case "avg" -> name.endsWith(".count") || name.endsWith(".sum");
          default -> false;
        };
        String what = fn + " of " + name;
        if (meaningless) {
          assertThatThrownBy(() -> series(doc)).as(what).isInstanceOf(QueryException.class)
              .hasMessageContaining("\"" + fn + "\"").hasMessageContaining(e.getValue())
              .hasMessageContaining("\"" + name + "\"");
          refused++;
        } else {
          assertThat(series(doc).list("series")).as(what).isNotEmpty();
          answered++;
        }
      }
    }
    assertThat(answered + refused).isEqualTo(mira.query.doc.SeriesFn.FNS.size() * names.size());
    assertThat(refused).isEqualTo(2 * 2 + 3 + 3 + 2 * 3);
  }
}
