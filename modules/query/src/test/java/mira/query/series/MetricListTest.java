package mira.query.series;

import static mira.query.testing.Metrics.attr;
import static mira.query.testing.Metrics.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.Sum;
import java.nio.file.Path;
import java.util.List;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.result.MetricList;
import mira.query.result.QueryException;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** GET /api/v1/metrics: filter text, and what each metric's matching points carried. */
class MetricListTest {
  static final long S = 1_000_000_000L;
  static final long FROM = Corpus.T0;
  static final long TO = FROM + 600 * S;

  @TempDir Path data;

  MetricList list(String q) throws Exception {
    try (LocalQueries lq = LocalQueries.open(data, () -> TO)) {
      return lq.metrics(Long.toString(FROM), Long.toString(TO), q);
    }
  }

  static HistogramDataPoint hist(long t, double... bounds) {
    HistogramDataPoint.Builder b = HistogramDataPoint.newBuilder().setTimeUnixNano(t).setCount(1).addBucketCounts(1)
        .addAttributes(attr("route", "/a"));
    for (double x : bounds) {
      b.addExplicitBounds(x).addBucketCounts(0);
    }
    return b.build();
  }

  @Test
  void metricsCarryTemporalityMonotonicityPointKeysAndBoundsAndFilterTextSelectsThem() throws Exception {
    Metric cpu = Metric.newBuilder().setName("cpu").setUnit("1").setGauge(Gauge.newBuilder()
        .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(FROM + S).setAsDouble(1).addAttributes(attr("core", 0)))
        .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(FROM + 2 * S).setAsDouble(1)
            .addAttributes(attr("state", "idle")))).build();
    Metric req = Metric.newBuilder().setName("req").setUnit("1").setSum(Sum.newBuilder().setIsMonotonic(true)
        .setAggregationTemporalityValue(1).addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(FROM + S)
            .setAsInt(3).addAttributes(attr("code", 200)))).build();
    Metric lat = Metric.newBuilder().setName("lat").setUnit("ms").setHistogram(Histogram.newBuilder()
        .setAggregationTemporalityValue(2).addDataPoints(hist(FROM + S, 5, 10)).addDataPoints(hist(FROM + 2 * S, 1)))
        .build();
    Blocks.publish(data, Signal.METRICS, "n", 1, request("api", cpu, lat), FROM);
    Blocks.publish(data, Signal.METRICS, "n", 2, request("db", req), FROM);
    MetricList all = list(null);
    assertThat(all.metrics()).containsExactly(
        new MetricList.Metric("cpu", "gauge", "1", "", null, null, List.of("core", "state"), List.of()),
        new MetricList.Metric("lat", "histogram", "ms", "", "cumulative", null, List.of("route"),
            List.of(List.of(1.0), List.of(5.0, 10.0))),
        new MetricList.Metric("req", "sum", "1", "", "delta", true, List.of("code"), List.of()));
    // A resource attribute selects metrics; a point attribute selects points, and so the keys listed.
    assertThat(list("service.name=db").metrics()).extracting(MetricList.Metric::name).containsExactly("req");
    MetricList idle = list("state=idle");
    assertThat(idle.metrics()).containsExactly(
        new MetricList.Metric("cpu", "gauge", "1", "", null, null, List.of("state"), List.of()));
    assertThat(idle.stats().rowsMatched()).isEqualTo(1);
    assertThat(list("service.name=api -route?").metrics()).extracting(MetricList.Metric::name).containsExactly("cpu");
    assertThat(list("service.name=nowhere").metrics()).isEmpty();
    assertThatThrownBy(() -> list("timeout")).isInstanceOf(QueryException.class);
  }
}
