package mira.block.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogram;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.metrics.v1.Summary;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.IOException;
import mira.block.metrics.MetricsBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The oracle of the metrics round-trip tests: reads a published block with Arrow Java's reader and
 * rebuilds one protobuf Metric per metrics row, with its resource and scope. Along the way it checks
 * the id invariants: metric and exemplar ids equal their row, point ids run 0, 1, 2, ... in metric
 * order across all four point tables, and every bounds_id names a hist_bounds row.
 */
public final class MetricsReadBack {
  private MetricsReadBack() {}

  /** One metric with everything around it, as the block should give it back. */
  public record Flat(Resource resource, String resourceSchema, InstrumentationScope scope, String scopeSchema, Metric metric) {}

  /** The request as the block should give it back: one Flat per metric, in order. */
  public static List<Flat> flatten(ExportMetricsServiceRequest req) {
    List<Flat> out = new ArrayList<>();
    for (ResourceMetrics rm : req.getResourceMetricsList()) {
      for (ScopeMetrics sm : rm.getScopeMetricsList()) {
        for (Metric m : sm.getMetricsList()) {
          out.add(new Flat(rm.getResource(), rm.getSchemaUrl(), sm.getScope(), sm.getSchemaUrl(), normalize(m)));
        }
      }
    }
    return out;
  }

  /**
   * An exponential histogram's present-but-empty Buckets is stored like an absent one (offset 0, no
   * counts); both mean "no buckets", so the expectation drops it too.
   */
  public static Metric normalize(Metric m) {
    if (!m.hasExponentialHistogram()) {
      return m;
    }
    ExponentialHistogram.Builder h = m.getExponentialHistogram().toBuilder();
    for (int i = 0; i < h.getDataPointsCount(); i++) {
      ExponentialHistogramDataPoint.Builder p = h.getDataPointsBuilder(i);
      if (p.hasPositive() && p.getPositive().equals(ExponentialHistogramDataPoint.Buckets.getDefaultInstance())) {
        p.clearPositive();
      }
      if (p.hasNegative() && p.getNegative().equals(ExponentialHistogramDataPoint.Buckets.getDefaultInstance())) {
        p.clearNegative();
      }
    }
    return m.toBuilder().setExponentialHistogram(h).build();
  }

  /** Every table of the block, read once. */
  record Tables(ArrowTables.Rows metrics, ArrowTables.Rows number, ArrowTables.Rows hist, ArrowTables.Rows bounds,
      ArrowTables.Rows exp, ArrowTables.Rows summary, ArrowTables.Rows dpAttrs, ArrowTables.Rows exemplars,
      ArrowTables.Rows exemplarAttrs, ArrowTables.Rows metricAttrs) {
    static Tables read(Path block) throws IOException {
      return new Tables(
          ArrowTables.read(block, "metrics.arrow"),
          ArrowTables.read(block, "number_dp.arrow"),
          ArrowTables.read(block, "hist_dp.arrow"),
          ArrowTables.read(block, "hist_bounds.arrow"),
          ArrowTables.read(block, "exp_hist_dp.arrow"),
          ArrowTables.read(block, "summary_dp.arrow"),
          ArrowTables.read(block, "dp_attrs.arrow"),
          ArrowTables.read(block, "exemplars.arrow"),
          ArrowTables.read(block, "exemplar_attrs.arrow"),
          ArrowTables.read(block, "metric_attrs.arrow"));
    }

    int points() {
      return number.size() + hist.size() + exp.size() + summary.size();
    }
  }

  public static List<Flat> readBack(Path block) throws IOException {
    List<Rebuild.Res> resources = Rebuild.resources(block);
    List<Rebuild.Scope> scopes = Rebuild.scopes(block);
    Tables t = Tables.read(block);
    int points = t.points();
    List<List<KeyValue>> metadata = Rebuild.attributes(t.metricAttrs, t.metrics.size());
    List<List<KeyValue>> dpAttrs = Rebuild.attributes(t.dpAttrs, points);
    List<List<KeyValue>> exAttrs = Rebuild.attributes(t.exemplarAttrs, t.exemplars.size());
    List<List<Exemplar>> exemplars = new ArrayList<>();
    for (int i = 0; i < points; i++) {
      exemplars.add(new ArrayList<>());
    }
    for (int i = 0; i < t.exemplars.size(); i++) {
      Map<String, Object> r = t.exemplars.get(i);
      assertThat(r.get("id")).as("exemplar id").isEqualTo((long) i);
      Exemplar.Builder e = Exemplar.newBuilder()
          .setTimeUnixNano((Long) r.get("time_unix_nano"))
          .setSpanId(Rebuild.bytesOrEmpty(r.get("span_id")))
          .setTraceId(Rebuild.bytesOrEmpty(r.get("trace_id")))
          .addAllFilteredAttributes(exAttrs.get(i));
      if (r.get("int") != null) {
        e.setAsInt((Long) r.get("int"));
      } else if (r.get("double") != null) {
        e.setAsDouble((Double) r.get("double"));
      }
      exemplars.get(((Long) r.get("parent_id")).intValue()).add(e.build());
    }
    List<List<Double>> bounds = new ArrayList<>();
    for (int i = 0; i < t.bounds.size(); i++) {
      assertThat(t.bounds.get(i).get("id")).as("hist_bounds id").isEqualTo((long) i);
      bounds.add(doubles(t.bounds.get(i).get("bounds")));
    }
    Cursor number = new Cursor(t.number);
    Cursor hist = new Cursor(t.hist);
    Cursor exp = new Cursor(t.exp);
    Cursor summary = new Cursor(t.summary);
    int[] nextPoint = {0};
    List<Flat> out = new ArrayList<>();
    for (int i = 0; i < t.metrics.size(); i++) {
      Map<String, Object> r = t.metrics.get(i);
      assertThat(r.get("id")).as("metric id").isEqualTo((long) i);
      Metric.Builder m = Metric.newBuilder()
          .setName((String) r.get("name"))
          .setDescription(Rebuild.orEmpty(r.get("description")))
          .setUnit(Rebuild.orEmpty(r.get("unit")))
          .addAllMetadata(metadata.get(i));
      int type = ((Long) r.get("type")).intValue();
      int temporality = (int) Rebuild.longOrZero(r.get("aggregation_temporality"));
      assertThat(r.get("aggregation_temporality") != null).as("temporality set for sum and histograms")
          .isEqualTo(type == MetricsBatch.TYPE_SUM || type == MetricsBatch.TYPE_HISTOGRAM
              || type == MetricsBatch.TYPE_EXPONENTIAL_HISTOGRAM);
      assertThat(r.get("is_monotonic") != null).as("is_monotonic set for sum").isEqualTo(type == MetricsBatch.TYPE_SUM);
      switch (type) {
        case MetricsBatch.TYPE_NONE -> { }
        case MetricsBatch.TYPE_GAUGE -> {
          Gauge.Builder g = Gauge.newBuilder();
          for (Map<String, Object> p : number.of(i, nextPoint)) {
            g.addDataPoints(number(p, dpAttrs, exemplars));
          }
          m.setGauge(g);
        }
        case MetricsBatch.TYPE_SUM -> {
          Sum.Builder s = Sum.newBuilder().setAggregationTemporalityValue(temporality)
              .setIsMonotonic((Boolean) r.get("is_monotonic"));
          for (Map<String, Object> p : number.of(i, nextPoint)) {
            s.addDataPoints(number(p, dpAttrs, exemplars));
          }
          m.setSum(s);
        }
        case MetricsBatch.TYPE_HISTOGRAM -> {
          Histogram.Builder h = Histogram.newBuilder().setAggregationTemporalityValue(temporality);
          for (Map<String, Object> p : hist.of(i, nextPoint)) {
            h.addDataPoints(histogram(p, bounds, dpAttrs, exemplars));
          }
          m.setHistogram(h);
        }
        case MetricsBatch.TYPE_EXPONENTIAL_HISTOGRAM -> {
          ExponentialHistogram.Builder h = ExponentialHistogram.newBuilder().setAggregationTemporalityValue(temporality);
          for (Map<String, Object> p : exp.of(i, nextPoint)) {
            h.addDataPoints(exponential(p, dpAttrs, exemplars));
          }
          m.setExponentialHistogram(h);
        }
        case MetricsBatch.TYPE_SUMMARY -> {
          Summary.Builder s = Summary.newBuilder();
          for (Map<String, Object> p : summary.of(i, nextPoint)) {
            s.addDataPoints(summary(p, dpAttrs));
          }
          m.setSummary(s);
        }
        default -> throw new IOException("unknown metric type " + type);
      }
      Rebuild.Res res = resources.get(((Long) r.get("resource_id")).intValue());
      Rebuild.Scope sc = scopes.get(((Long) r.get("scope_id")).intValue());
      out.add(new Flat(res.resource(), res.schemaUrl(), sc.scope(), sc.schemaUrl(), m.build()));
    }
    assertThat(nextPoint[0]).as("every point belongs to a metric of its kind").isEqualTo(points);
    return out;
  }

  /** Walks one point table in row order, handing out each metric's run of points. */
  private static final class Cursor {
    private final ArrowTables.Rows rows;
    private int at;

    Cursor(ArrowTables.Rows rows) {
      this.rows = rows;
    }

    /** The points of metric {@code metric}; each must carry the next point id. */
    List<Map<String, Object>> of(int metric, int[] nextPoint) {
      List<Map<String, Object>> out = new ArrayList<>();
      while (at < rows.size() && ((Long) rows.get(at).get("parent_id")).intValue() == metric) {
        Map<String, Object> p = rows.get(at++);
        assertThat(p.get("id")).as("point ids run in decode order across the point tables").isEqualTo((long) nextPoint[0]++);
        out.add(p);
      }
      return out;
    }
  }

  private static int pid(Map<String, Object> p) {
    return ((Long) p.get("id")).intValue();
  }

  private static NumberDataPoint number(Map<String, Object> p, List<List<KeyValue>> attrs, List<List<Exemplar>> ex) {
    NumberDataPoint.Builder b = NumberDataPoint.newBuilder()
        .setStartTimeUnixNano(Rebuild.longOrZero(p.get("start_time_unix_nano")))
        .setTimeUnixNano((Long) p.get("time_unix_nano"))
        .addAllAttributes(attrs.get(pid(p)))
        .addAllExemplars(ex.get(pid(p)))
        .setFlags((int) Rebuild.longOrZero(p.get("flags")));
    assertThat(p.get("int") != null && p.get("double") != null).as("at most one of int and double").isFalse();
    if (p.get("int") != null) {
      b.setAsInt((Long) p.get("int"));
    } else if (p.get("double") != null) {
      b.setAsDouble((Double) p.get("double"));
    }
    return b.build();
  }

  private static HistogramDataPoint histogram(Map<String, Object> p, List<List<Double>> bounds,
      List<List<KeyValue>> attrs, List<List<Exemplar>> ex) {
    HistogramDataPoint.Builder b = HistogramDataPoint.newBuilder()
        .setStartTimeUnixNano(Rebuild.longOrZero(p.get("start_time_unix_nano")))
        .setTimeUnixNano((Long) p.get("time_unix_nano"))
        .setCount((Long) p.get("count"))
        .addAllBucketCounts(longs(p.get("bucket_counts")))
        .addAllExplicitBounds(bounds.get(((Long) p.get("bounds_id")).intValue()))
        .addAllAttributes(attrs.get(pid(p)))
        .addAllExemplars(ex.get(pid(p)))
        .setFlags((int) Rebuild.longOrZero(p.get("flags")));
    if (p.get("sum") != null) {
      b.setSum((Double) p.get("sum"));
    }
    if (p.get("min") != null) {
      b.setMin((Double) p.get("min"));
    }
    if (p.get("max") != null) {
      b.setMax((Double) p.get("max"));
    }
    return b.build();
  }

  private static ExponentialHistogramDataPoint exponential(Map<String, Object> p, List<List<KeyValue>> attrs,
      List<List<Exemplar>> ex) {
    ExponentialHistogramDataPoint.Builder b = ExponentialHistogramDataPoint.newBuilder()
        .setStartTimeUnixNano(Rebuild.longOrZero(p.get("start_time_unix_nano")))
        .setTimeUnixNano((Long) p.get("time_unix_nano"))
        .setCount((Long) p.get("count"))
        .setScale(((Long) p.get("scale")).intValue())
        .setZeroCount((Long) p.get("zero_count"))
        .setZeroThreshold((Double) p.get("zero_threshold"))
        .addAllAttributes(attrs.get(pid(p)))
        .addAllExemplars(ex.get(pid(p)))
        .setFlags((int) Rebuild.longOrZero(p.get("flags")));
    ExponentialHistogramDataPoint.Buckets pos = buckets(p.get("positive_offset"), p.get("positive_bucket_counts"));
    if (pos != null) {
      b.setPositive(pos);
    }
    ExponentialHistogramDataPoint.Buckets neg = buckets(p.get("negative_offset"), p.get("negative_bucket_counts"));
    if (neg != null) {
      b.setNegative(neg);
    }
    if (p.get("sum") != null) {
      b.setSum((Double) p.get("sum"));
    }
    if (p.get("min") != null) {
      b.setMin((Double) p.get("min"));
    }
    if (p.get("max") != null) {
      b.setMax((Double) p.get("max"));
    }
    return b.build();
  }

  private static ExponentialHistogramDataPoint.Buckets buckets(Object offset, Object counts) {
    int off = ((Long) offset).intValue();
    List<Long> c = longs(counts);
    if (off == 0 && c.isEmpty()) {
      return null;
    }
    return ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(off).addAllBucketCounts(c).build();
  }

  private static SummaryDataPoint summary(Map<String, Object> p, List<List<KeyValue>> attrs) {
    SummaryDataPoint.Builder b = SummaryDataPoint.newBuilder()
        .setStartTimeUnixNano(Rebuild.longOrZero(p.get("start_time_unix_nano")))
        .setTimeUnixNano((Long) p.get("time_unix_nano"))
        .setCount((Long) p.get("count"))
        .setSum((Double) p.get("sum"))
        .addAllAttributes(attrs.get(pid(p)))
        .setFlags((int) Rebuild.longOrZero(p.get("flags")));
    List<Double> q = doubles(p.get("quantiles"));
    List<Double> v = doubles(p.get("values"));
    assertThat(q).as("one value per quantile").hasSameSizeAs(v);
    for (int i = 0; i < q.size(); i++) {
      b.addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(q.get(i)).setValue(v.get(i)));
    }
    return b.build();
  }

  @SuppressWarnings("unchecked")
  public static List<Long> longs(Object list) {
    return (List<Long>) list;
  }

  @SuppressWarnings("unchecked")
  public static List<Double> doubles(Object list) {
    return (List<Double>) list;
  }
}
