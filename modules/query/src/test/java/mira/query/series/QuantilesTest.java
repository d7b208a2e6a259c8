package mira.query.series;

import static mira.query.testing.Metrics.attr;
import static mira.query.testing.Metrics.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import mira.query.testing.JsonTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Histogram quantiles against a reference written from Prometheus's histogram_quantile algorithm. */
class QuantilesTest {
  static final long S = 1_000_000_000L;
  static final long STEP = 60 * S;
  static final long FROM = (Corpus.T0 / STEP) * STEP;
  static final long TO = FROM + 10 * STEP - 1;
  static final double[] BOUNDS = {5, 10, 25, 50, 100, 250, 500, 1000};

  @TempDir Path data;

  /**
   * Prometheus's bucketQuantile over cumulative "le" buckets (the last +Inf): find the first
   * bucket whose cumulative count reaches rank = q * total; if it is +Inf, answer the largest
   * finite bound; the first bucket's lower edge is 0 (when its bound is positive); interpolate.
   */
  static double reference(double q, double[] upper, double[] counts) {
    int n = counts.length;
    double[] cum = new double[n];
    double run = 0;
    for (int i = 0; i < n; i++) {
      run += counts[i];
      cum[i] = run;
    }
    double total = cum[n - 1];
    if (total == 0) {
      return Double.NaN;
    }
    double rank = q * total;
    int b = 0;
    while (b < n - 1 && cum[b] < rank) {
      b++;
    }
    if (b == n - 1) {
      return upper[n - 2];
    }
    if (b == 0 && upper[0] <= 0) {
      return upper[0];
    }
    double start = b == 0 ? 0 : upper[b - 1];
    double end = upper[b];
    double count = cum[b] - (b == 0 ? 0 : cum[b - 1]);
    double r = rank - (b == 0 ? 0 : cum[b - 1]);
    return start + (end - start) * (r / count);
  }

  @Test
  void quantileOfBucketsEqualsPrometheusReference() {
    long seed = Long.getLong("quantiles.seed", System.nanoTime());
    Random rnd = new Random(seed);
    for (int t = 0; t < 10_000; t++) {
      double[] counts = new double[BOUNDS.length + 1];
      for (int k = 0; k < counts.length; k++) {
        counts[k] = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(100);
      }
      counts[rnd.nextInt(counts.length)] += 1;
      double q = 0.001 + rnd.nextDouble() * 0.998;
      assertThat(Quantiles.quantile(q, BOUNDS, counts)).as("seed " + seed + " q " + q)
          .isCloseTo(reference(q, BOUNDS, counts), offset(1e-9));
    }
    assertThat(Quantiles.quantile(0.5, BOUNDS, new double[BOUNDS.length + 1])).isNaN();
    double[] onlyInf = new double[BOUNDS.length + 1];
    onlyInf[BOUNDS.length] = 3;
    assertThat(Quantiles.quantile(0.99, BOUNDS, onlyInf)).isEqualTo(1000.0);
  }

  static int bucketOf(double v) {
    int k = 0;
    while (k < BOUNDS.length && v > BOUNDS[k]) {
      k++;
    }
    return k;
  }

  @Test
  void fleetQuantileMergesBucketCountsAcrossSeriesBeforeInterpolating() throws Exception {
    long seed = Long.getLong("quantiles.seed", System.nanoTime());
    System.out.println("QuantilesTest seed " + seed);
    Random rnd = new Random(seed);
    int seq = 1;
    double[][][] perService = new double[2][10][BOUNDS.length + 1];
    String[] services = {"api", "db"};
    for (int sv = 0; sv < 2; sv++) {
      List<HistogramDataPoint> points = new ArrayList<>();
      for (String pod : List.of("p1", "p2", "p3")) {
        long[] cum = new long[BOUNDS.length + 1];
        long start = FROM;
        for (long t = FROM + rnd.nextInt(20) * S; t <= TO; t += (5 + rnd.nextInt(30)) * S) {
          if (rnd.nextInt(15) == 0) {
            cum = new long[BOUNDS.length + 1];
            start = Math.max(FROM, t - 1); // a restart at the window's first instant still starts inside it
          }
          int n = rnd.nextInt(30);
          for (int i = 0; i < n; i++) {
            double v = Math.exp(rnd.nextGaussian() * (sv + 1) + 3);
            int k = bucketOf(v);
            cum[k]++;
            perService[sv][(int) ((t - FROM) / STEP)][k]++;
          }
          HistogramDataPoint.Builder b = HistogramDataPoint.newBuilder().setStartTimeUnixNano(start).setTimeUnixNano(t)
              .addAttributes(attr("pod", pod));
          long count = 0;
          for (long c : cum) {
            b.addBucketCounts(c);
            count += c;
          }
          for (double x : BOUNDS) {
            b.addExplicitBounds(x);
          }
          points.add(b.setCount(count).build());
        }
      }
      Metric m = Metric.newBuilder().setName("latency").setUnit("ms").setHistogram(Histogram.newBuilder()
          .setAggregationTemporalityValue(2).addAllDataPoints(points)).build();
      Blocks.publish(data, Signal.METRICS, "n", seq++, request(services[sv], m), FROM);
    }
    for (double q : new double[] {0.5, 0.9, 0.99}) {
      JsonTree.Obj r;
      try (LocalQueries lq = LocalQueries.open(data, () -> TO)) {
        r = JsonTree.parseObj(mira.query.render.SeriesJson.series(lq.series(("{\"name\": \"latency\", \"from\": \"" + FROM + "\", \"to\": \"" + TO
            + "\", \"step\": \"1m\", \"fn\": \"quantile\", \"quantile\": " + q + ", \"group_by\": [\"service.name\"]}")
            .getBytes(StandardCharsets.UTF_8))));
      }
      List<?> series = r.list("series");
      assertThat(series).hasSize(2);
      for (int sv = 0; sv < 2; sv++) {
        JsonTree.Obj s = (JsonTree.Obj) series.get(sv);
        assertThat(s.str("name")).isEqualTo("latency");
        assertThat(s.obj("attributes").str("service.name")).isEqualTo(services[sv]);
        assertThat(s.list("bounds")).hasSize(BOUNDS.length);
        int checked = 0;
        for (Object o : s.list("points")) {
          JsonTree.Obj p = (JsonTree.Obj) o;
          int b = (int) ((Long.parseLong(p.str("time_unix_nano")) - FROM) / STEP);
          assertThat(((Number) p.get("value")).doubleValue()).as("seed " + seed + " q " + q + " step " + b)
              .isCloseTo(reference(q, BOUNDS, perService[sv][b]), offset(1e-9));
          checked++;
        }
        assertThat(checked).isGreaterThan(5);
      }
    }
  }
}
