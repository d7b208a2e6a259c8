package mira.block.metrics;

import static mira.block.testing.MetricsReadBack.flatten;
import static mira.block.testing.MetricsReadBack.readBack;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import mira.block.catalog.BlockName;
import mira.block.publish.Publisher;
import mira.block.table.Batch;
import mira.block.testing.ArrowTables;
import mira.proto.wire.Signal;
import mira.proto.wire.WireException;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetricsRoundTripTest {
  @TempDir Path tmp;

  static final long T0 = 1_767_225_600_000_000_000L; // 2026-01-01T00:00:00Z
  static final List<Double> LATENCY_BOUNDS = List.of(5.0, 10.0, 25.0, 50.0, 100.0);
  static final ByteString TRACE = ByteString.copyFrom(HexFormat.of().parseHex("5b8efff798038103d269b633813fc60c"));
  static final ByteString SPAN = ByteString.copyFrom(HexFormat.of().parseHex("eee19b7ec3c1b174"));

  private Path publish(Batch b, long seq) throws Exception {
    try (BufferAllocator a = new RootAllocator()) {
      Publisher p = new Publisher(tmp, Signal.METRICS, "node-a", a);
      Path dir = p.publish(b, seq, 0);
      assertThat(a.getAllocatedMemory()).as("every Arrow buffer is released after publish").isZero();
      return dir;
    }
  }

  static MetricsBatch decode(ExportMetricsServiceRequest req) throws Exception {
    return decode(req.toByteArray());
  }

  static MetricsBatch decode(byte[] b) throws Exception {
    return new MetricsDecoder().decode(b, 0, b.length, T0);
  }

  static KeyValue kv(String k, AnyValue v) {
    return KeyValue.newBuilder().setKey(k).setValue(v).build();
  }

  static AnyValue str(String s) {
    return AnyValue.newBuilder().setStringValue(s).build();
  }

  static AnyValue num(long v) {
    return AnyValue.newBuilder().setIntValue(v).build();
  }

  static Exemplar exemplar(long t, String attr) {
    return Exemplar.newBuilder().setTimeUnixNano(t).setTraceId(TRACE).setSpanId(SPAN)
        .addFilteredAttributes(kv(attr, str("v-" + attr))).build();
  }

  static HistogramDataPoint.Builder latency(long t, long... counts) {
    HistogramDataPoint.Builder p = HistogramDataPoint.newBuilder().setStartTimeUnixNano(T0).setTimeUnixNano(t)
        .addAllExplicitBounds(LATENCY_BOUNDS);
    long total = 0;
    for (long c : counts) {
      p.addBucketCounts(c);
      total += c;
    }
    return p.setCount(total);
  }

  static ExportMetricsServiceRequest request(Metric... metrics) {
    return ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.newBuilder()
        .addScopeMetrics(ScopeMetrics.newBuilder().addAllMetrics(List.of(metrics)))).build();
  }

  static Metric histogram(String name, HistogramDataPoint... points) {
    return Metric.newBuilder().setName(name)
        .setHistogram(Histogram.newBuilder().addAllDataPoints(List.of(points))
            .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA)).build();
  }

  /** Every metric type and every field, around two resources (one repeated) and two scopes. */
  static ExportMetricsServiceRequest sample() {
    Resource res = Resource.newBuilder()
        .addAttributes(kv("service.name", str("checkout")))
        .addAttributes(kv("service.instance.id", str("pod-7")))
        .setDroppedAttributesCount(1)
        .build();
    InstrumentationScope scope = InstrumentationScope.newBuilder().setName("io.mira.metrics").setVersion("0.9")
        .addAttributes(kv("scope.attr", AnyValue.newBuilder().setBoolValue(true).build())).build();
    Metric gauge = Metric.newBuilder().setName("process.cpu.utilization").setDescription("CPU share").setUnit("1")
        .addMetadata(kv("prometheus.type", str("gauge")))
        .addMetadata(kv("tags", AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addValues(str("a"))).build()))
        .setGauge(Gauge.newBuilder()
            .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T0 + 10).setAsInt(-3)
                .addAttributes(kv("cpu", num(0))).addAttributes(kv("state", str("user")))
                .addExemplars(exemplar(T0 + 9, "gauge.int").toBuilder().setAsInt(-3)))
            .addDataPoints(NumberDataPoint.newBuilder().setStartTimeUnixNano(T0 + 1).setTimeUnixNano(T0 + 20)
                .setAsDouble(0.75).setFlags(1)
                .addExemplars(Exemplar.newBuilder().setTimeUnixNano(T0 + 19).setAsDouble(0.5))))
        .build();
    Metric sum = Metric.newBuilder().setName("http.server.requests").setUnit("{request}")
        .setSum(Sum.newBuilder().setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE)
            .setIsMonotonic(true)
            .addDataPoints(NumberDataPoint.newBuilder().setStartTimeUnixNano(T0).setTimeUnixNano(T0 + 30).setAsInt(1234)
                .addAttributes(kv("http.route", str("/cart")))
                .addExemplars(exemplar(T0 + 29, "sum.a").toBuilder().setAsInt(1))
                .addExemplars(exemplar(T0 + 28, "sum.b").toBuilder().setAsDouble(2.5)))
            .addDataPoints(NumberDataPoint.newBuilder().setStartTimeUnixNano(T0).setTimeUnixNano(T0 + 31)
                .setFlags(1)))
        .build();
    Metric hist = Metric.newBuilder().setName("http.server.duration").setDescription("Request latency").setUnit("ms")
        .setHistogram(Histogram.newBuilder()
            .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA)
            .addDataPoints(latency(T0 + 40, 1, 2, 3, 4, 5, 6).setSum(321.5).setMin(0.5).setMax(250)
                .addAttributes(kv("http.route", str("/cart")))
                .addExemplars(exemplar(T0 + 39, "hist").toBuilder().setAsDouble(7.25)))
            .addDataPoints(latency(T0 + 41, 0, 0, 0, 0, 0, 0))
            .addDataPoints(latency(T0 + 42, 9, 0, 0, 0, 0, -1L).setSum(0).setFlags(1))
            .addDataPoints(HistogramDataPoint.newBuilder().setTimeUnixNano(T0 + 43).setCount(3)
                .addBucketCounts(1).addBucketCounts(2).addBucketCounts(0).addExplicitBounds(1).addExplicitBounds(2)))
        .build();
    Metric exp = Metric.newBuilder().setName("rpc.duration").setUnit("s")
        .setExponentialHistogram(ExponentialHistogram.newBuilder()
            .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE)
            .addDataPoints(ExponentialHistogramDataPoint.newBuilder().setStartTimeUnixNano(T0).setTimeUnixNano(T0 + 50)
                .setCount(17).setSum(-4.5).setScale(-3).setZeroCount(2).setZeroThreshold(1e-9)
                .setPositive(ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(-2).addBucketCounts(1)
                    .addBucketCounts(2).addBucketCounts(3))
                .setNegative(ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(-70000).addBucketCounts(4)
                    .addBucketCounts(Long.MIN_VALUE).addBucketCounts(-1L))
                .setMin(-3).setMax(2.75).setFlags(1)
                .addAttributes(kv("rpc.method", str("Get")))
                .addExemplars(exemplar(T0 + 49, "exp").toBuilder().setAsInt(5)))
            .addDataPoints(ExponentialHistogramDataPoint.newBuilder().setTimeUnixNano(T0 + 51).setScale(20)
                .setPositive(ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(5).addBucketCounts(8))))
        .build();
    Metric summary = Metric.newBuilder().setName("gc.pause").setDescription("GC pauses")
        .setSummary(Summary.newBuilder()
            .addDataPoints(SummaryDataPoint.newBuilder().setStartTimeUnixNano(T0).setTimeUnixNano(T0 + 60).setCount(40)
                .setSum(812.5).setFlags(1)
                .addQuantileValues(q(0, 1.5)).addQuantileValues(q(0.5, 12)).addQuantileValues(q(0.99, 80))
                .addQuantileValues(q(1, 95.25))
                .addAttributes(kv("gc", str("G1 Young"))))
            .addDataPoints(SummaryDataPoint.newBuilder().setTimeUnixNano(T0 + 61)))
        .build();
    Metric bare = Metric.newBuilder().setName("no.data.yet").addMetadata(kv("why", str("declared only"))).build();
    Metric other = Metric.newBuilder().setName("queue.depth")
        .setGauge(Gauge.newBuilder().addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T0 + 70).setAsInt(7)
            .addAttributes(kv("queue", str("q1"))))).build();
    return ExportMetricsServiceRequest.newBuilder()
        .addResourceMetrics(ResourceMetrics.newBuilder().setResource(res).setSchemaUrl("https://opentelemetry.io/schemas/1.26.0")
            .addScopeMetrics(ScopeMetrics.newBuilder().setScope(scope).setSchemaUrl("scope-schema")
                .addMetrics(gauge).addMetrics(sum).addMetrics(hist).addMetrics(exp).addMetrics(summary).addMetrics(bare))
            .addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(other)))
        .addResourceMetrics(ResourceMetrics.newBuilder()
            .addScopeMetrics(ScopeMetrics.newBuilder().setScope(scope).addMetrics(other)))
        // The first resource again: stored once.
        .addResourceMetrics(ResourceMetrics.newBuilder().setResource(res).setSchemaUrl("https://opentelemetry.io/schemas/1.26.0")
            .addScopeMetrics(ScopeMetrics.newBuilder().setScope(scope).setSchemaUrl("scope-schema").addMetrics(gauge)))
        .build();
  }

  static SummaryDataPoint.ValueAtQuantile q(double quantile, double value) {
    return SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(quantile).setValue(value).build();
  }

  /** Data points in {@link #sample()}. */
  static final int SAMPLE_POINTS = 2 + 2 + 4 + 2 + 2 + 0 + 1 + 1 + 2;

  @Test
  void everyMetricTypeAndFieldSurvivesDecodePublishAndArrowRead() throws Exception {
    ExportMetricsServiceRequest req = sample();
    MetricsBatch b = decode(req);
    assertThat(b.records()).isEqualTo(SAMPLE_POINTS);
    assertThat(b.rows()).as("metrics").isEqualTo(9);
    Path dir = publish(b, 1);
    assertThat(readBack(dir)).containsExactlyElementsOf(flatten(req));
    assertThat(ArrowTables.read(dir, "resources.arrow").size()).as("the repeated resource is stored once").isEqualTo(2);
    assertThat(ArrowTables.read(dir, "hist_bounds.arrow").size()).as("two distinct bounds arrays").isEqualTo(2);
    assertThat(ArrowTables.read(dir, "exemplars.arrow").size()).isEqualTo(8);
  }

  @Test
  void pointsWithTheSameBoundsShareOneBoundsRow() throws Exception {
    List<HistogramDataPoint> points = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      points.add(latency(T0 + i, i, 1, 2, 3, 4, 5).build());
    }
    ExportMetricsServiceRequest req = request(histogram("a", points.subList(0, 20).toArray(HistogramDataPoint[]::new)),
        histogram("b", points.subList(20, 50).toArray(HistogramDataPoint[]::new)));
    MetricsBatch b = decode(req);
    assertThat(b.table(MetricsBatch.HIST_BOUNDS).rows()).isEqualTo(1);
    Path dir = publish(b, 1);
    ArrowTables.Rows bounds = ArrowTables.read(dir, "hist_bounds.arrow");
    assertThat(bounds.size()).isEqualTo(1);
    assertThat(bounds.get(0).get("bounds")).isEqualTo(LATENCY_BOUNDS);
    for (Map<String, Object> p : ArrowTables.read(dir, "hist_dp.arrow").rows()) {
      assertThat(p.get("bounds_id")).isEqualTo(0L);
    }
    assertThat(readBack(dir)).containsExactlyElementsOf(flatten(req));
  }

  @Test
  void appendedBatchesInternBoundsAcrossTheBlock() throws Exception {
    HistogramDataPoint x = latency(T0 + 1, 1, 1, 1, 1, 1, 1).build();
    HistogramDataPoint y = HistogramDataPoint.newBuilder().setTimeUnixNano(T0 + 2).addExplicitBounds(0.5).build();
    HistogramDataPoint z = HistogramDataPoint.newBuilder().setTimeUnixNano(T0 + 3).addExplicitBounds(-0.0).build();
    ExportMetricsServiceRequest a = request(histogram("a", x, y, x));
    // b's own ids are z=0, y=1, x=2; in the block they must become 2, 1, 0.
    ExportMetricsServiceRequest b = request(histogram("b", z, y, x, z));
    MetricsBatch open = new MetricsBatch();
    assertThat(open.tryAppend(decode(a))).isTrue();
    assertThat(open.tryAppend(decode(a))).isTrue();
    assertThat(open.table(MetricsBatch.HIST_BOUNDS).rows()).as("the same bounds appended twice").isEqualTo(2);
    assertThat(open.tryAppend(decode(b))).isTrue();
    Path dir = publish(open, 1);
    ArrowTables.Rows bounds = ArrowTables.read(dir, "hist_bounds.arrow");
    assertThat(bounds.rows()).extracting(r -> r.get("bounds"))
        .containsExactly(LATENCY_BOUNDS, List.of(0.5), List.of(-0.0));
    assertThat(ArrowTables.read(dir, "hist_dp.arrow").rows()).extracting(r -> r.get("bounds_id"))
        .containsExactly(0L, 1L, 0L, 0L, 1L, 0L, 2L, 1L, 0L, 2L);
    List<mira.block.testing.MetricsReadBack.Flat> expected = new ArrayList<>(flatten(a));
    expected.addAll(flatten(a));
    expected.addAll(flatten(b));
    assertThat(readBack(dir)).containsExactlyElementsOf(expected);
  }

  @Test
  void appendedBatchesRebasePointIdsAndTheirChildren() throws Exception {
    ExportMetricsServiceRequest a = sample();
    ExportMetricsServiceRequest b = sample();
    MetricsBatch open = new MetricsBatch();
    assertThat(open.tryAppend(decode(a))).isTrue();
    assertThat(open.tryAppend(decode(b))).isTrue();
    assertThat(open.records()).isEqualTo(2L * SAMPLE_POINTS);
    Path dir = publish(open, 2);
    List<mira.block.testing.MetricsReadBack.Flat> expected = new ArrayList<>(flatten(a));
    expected.addAll(flatten(b));
    // readBack checks point ids run 0..n-1 in metric order over all four tables.
    assertThat(readBack(dir)).containsExactlyElementsOf(expected);

    int metrics = decode(a).rows();
    int exemplars = decode(a).table(MetricsBatch.EXEMPLARS).rows();
    for (String f : List.of("number_dp.arrow", "hist_dp.arrow", "exp_hist_dp.arrow", "summary_dp.arrow")) {
      assertSecondHalfOffset(dir, f, "id", SAMPLE_POINTS);
      assertSecondHalfOffset(dir, f, "parent_id", metrics);
    }
    assertSecondHalfOffset(dir, "dp_attrs.arrow", "parent_id", SAMPLE_POINTS);
    assertSecondHalfOffset(dir, "exemplars.arrow", "parent_id", SAMPLE_POINTS);
    assertSecondHalfOffset(dir, "exemplars.arrow", "id", exemplars);
    assertSecondHalfOffset(dir, "exemplar_attrs.arrow", "parent_id", exemplars);
    assertSecondHalfOffset(dir, "metric_attrs.arrow", "parent_id", metrics);
    assertThat(ArrowTables.read(dir, "resources.arrow").size()).isEqualTo(2);
    assertThat(ArrowTables.read(dir, "hist_bounds.arrow").size()).isEqualTo(2);
  }

  /** Rows of the second appended copy carry the first copy's value of {@code column} plus {@code delta}. */
  private static void assertSecondHalfOffset(Path dir, String file, String column, long delta) throws IOException {
    ArrowTables.Rows rows = ArrowTables.read(dir, file);
    assertThat(rows.size() % 2).as(file).isZero();
    int half = rows.size() / 2;
    assertThat(half).as(file + " has rows").isPositive();
    for (int i = 0; i < half; i++) {
      assertThat((Long) rows.get(half + i).get(column)).as(file + "." + column + " row " + (half + i))
          .isEqualTo((Long) rows.get(i).get(column) + delta);
    }
  }

  @Test
  void aSnapshotKeepsThePointSequenceAndInternedBounds() throws Exception {
    ExportMetricsServiceRequest a = sample();
    MetricsBatch open = new MetricsBatch();
    assertThat(open.tryAppend(decode(a))).isTrue();
    Batch snap = open.snapshot();
    assertThat(snap.records()).isEqualTo(SAMPLE_POINTS);
    assertThat(snap.tryAppend(decode(a))).isTrue();
    assertThat(open.records()).as("the block the snapshot came from is untouched").isEqualTo(SAMPLE_POINTS);
    Path dir = publish(snap, 3);
    List<mira.block.testing.MetricsReadBack.Flat> expected = new ArrayList<>(flatten(a));
    expected.addAll(flatten(a));
    assertThat(readBack(dir)).containsExactlyElementsOf(expected);
    assertThat(ArrowTables.read(dir, "hist_bounds.arrow").size()).isEqualTo(2);
  }

  @Test
  void blockNameCarriesTheRangeOfPointTimes() throws Exception {
    Path dir = publish(decode(sample()), 42);
    BlockName n = BlockName.parse(dir.getFileName().toString()).orElseThrow();
    assertThat(n.minTime()).isEqualTo(T0 + 10);
    assertThat(n.maxTime()).isEqualTo(T0 + 70);
    assertThat(n.seq()).isEqualTo(42);
    assertThat(dir.getParent().getParent()).isEqualTo(tmp.resolve("metrics"));
    assertThat(tmp.resolve("metrics/.staging")).isEmptyDirectory();
  }

  @Test
  void aPointWithoutATimeTakesTheReceiveTime() throws Exception {
    ExportMetricsServiceRequest req = request(Metric.newBuilder().setName("m")
        .setGauge(Gauge.newBuilder().addDataPoints(NumberDataPoint.newBuilder().setAsInt(1))
            .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T0 + 5))).build());
    MetricsBatch b = decode(req);
    assertThat(b.minTime()).isEqualTo(T0);
    assertThat(b.maxTime()).isEqualTo(T0 + 5);
    ArrowTables.Rows points = ArrowTables.read(publish(b, 5), "number_dp.arrow");
    assertThat(points.get(0).get("time_unix_nano")).isEqualTo(T0);
    assertThat(points.get(0).get("start_time_unix_nano")).isNull();
    assertThat(points.get(1).get("int")).as("neither value sent").isNull();
    assertThat(points.get(1).get("double")).isNull();
  }

  @Test
  void metricsWithoutPointsAreStoredAtTheirArrival() throws Exception {
    ExportMetricsServiceRequest req = request(Metric.newBuilder().setName("declared").setUnit("By").build(),
        Metric.newBuilder().setName("empty.gauge").setGauge(Gauge.getDefaultInstance()).build());
    MetricsBatch b = decode(req);
    assertThat(b.records()).isZero();
    assertThat(b.minTime()).isEqualTo(T0);
    assertThat(b.maxTime()).isEqualTo(T0);
    Path dir = publish(b, 6);
    assertThat(readBack(dir)).containsExactlyElementsOf(flatten(req));
    assertThat(ArrowTables.read(dir, "metrics.arrow").rows()).extracting(r -> r.get("type")).containsExactly(0L, 1L);
    assertThat(dir.resolve("number_dp.arrow")).as("empty tables are not written").doesNotExist();
  }

  @Test
  void theLastDataFieldWinsAndItsRepeatsMerge() throws Exception {
    Metric gauge = Metric.newBuilder().setName("first").setGauge(Gauge.newBuilder()
        .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T0 + 1).setAsInt(1))).build();
    Metric sum1 = Metric.newBuilder().setName("second").setSum(Sum.newBuilder().setIsMonotonic(true)
        .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T0 + 2).setAsInt(2))).build();
    Metric sum2 = Metric.newBuilder().setSum(Sum.newBuilder().setAggregationTemporalityValue(2)
        .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T0 + 3).setAsDouble(3))).build();
    // One Metric whose bytes are three messages back to back, which protobuf reads as their merge.
    byte[] merged = concat(gauge.toByteArray(), sum1.toByteArray(), sum2.toByteArray());
    byte[] req = encode(o -> o.writeByteArray(1, encode(r -> r.writeByteArray(2, encode(s -> s.writeByteArray(2, merged))))));
    ExportMetricsServiceRequest parsed = ExportMetricsServiceRequest.parseFrom(req);
    Metric m = parsed.getResourceMetrics(0).getScopeMetrics(0).getMetrics(0);
    assertThat(m.hasSum()).isTrue();
    assertThat(m.getSum().getDataPointsCount()).isEqualTo(2);
    MetricsBatch b = decode(req);
    assertThat(b.records()).as("the gauge's point is dropped with the gauge").isEqualTo(2);
    assertThat(readBack(publish(b, 7))).containsExactlyElementsOf(flatten(parsed));
  }

  @Test
  void packedAndUnpackedRepeatedScalarsDecodeAlike() throws Exception {
    HistogramDataPoint packedHist = HistogramDataPoint.newBuilder().setTimeUnixNano(T0 + 1).setCount(6)
        .addBucketCounts(1).addBucketCounts(2).addBucketCounts(3).addExplicitBounds(1.0).addExplicitBounds(2.0).build();
    byte[] unpackedHist = encode(o -> {
      o.writeFixed64(3, T0 + 2);
      o.writeFixed64(4, 6);
      o.writeFixed64(6, 1);
      o.writeDouble(7, 1.0);
      o.writeFixed64(6, 2);
      o.writeFixed64(6, 3);
      o.writeDouble(7, 2.0);
    });
    byte[] unpackedBuckets = encode(o -> {
      o.writeSInt32(1, -3);
      o.writeUInt64(2, 5);
      o.writeUInt64(2, -1L);
    });
    byte[] unpackedExp = encode(o -> {
      o.writeFixed64(3, T0 + 3);
      o.writeSInt32(6, 2);
      o.writeByteArray(8, unpackedBuckets);
      o.writeByteArray(9, unpackedBuckets);
    });
    byte[] hist = encode(h -> {
      h.writeByteArray(1, packedHist.toByteArray());
      h.writeByteArray(1, unpackedHist);
      h.writeEnum(2, 2);
    });
    byte[] exp = encode(h -> h.writeByteArray(1, unpackedExp));
    byte[] metrics = encode(s -> {
      s.writeByteArray(2, encode(m -> {
        m.writeString(1, "h");
        m.writeByteArray(9, hist);
      }));
      s.writeByteArray(2, encode(m -> {
        m.writeString(1, "e");
        m.writeByteArray(10, exp);
      }));
    });
    byte[] req = encode(o -> o.writeByteArray(1, encode(r -> r.writeByteArray(2, metrics))));
    ExportMetricsServiceRequest parsed = ExportMetricsServiceRequest.parseFrom(req);
    ScopeMetrics sm = parsed.getResourceMetrics(0).getScopeMetrics(0);
    assertThat(sm.getMetrics(0).getHistogram().getDataPoints(1))
        .isEqualTo(packedHist.toBuilder().setTimeUnixNano(T0 + 2).build());
    assertThat(sm.getMetrics(1).getExponentialHistogram().getDataPoints(0).getNegative().getBucketCountsList())
        .containsExactly(5L, -1L);
    assertThat(unpackedHist.length).as("each value carries its own tag")
        .isEqualTo(2 * 9 + 3 * 9 + 2 * 9);

    MetricsBatch b = decode(req);
    assertThat(b.table(MetricsBatch.HIST_BOUNDS).rows()).as("the same bounds, however encoded").isEqualTo(1);
    assertThat(readBack(publish(b, 8))).containsExactlyElementsOf(flatten(parsed));
  }

  @Test
  void aTornPackedFieldIsRefusedNamingItsPath() throws Exception {
    byte[] point = encode(o -> {
      o.writeFixed64(3, T0);
      o.writeByteArray(6, new byte[7]);
    });
    byte[] metric = encode(m -> {
      m.writeString(1, "h");
      m.writeByteArray(9, encode(h -> h.writeByteArray(1, point)));
    });
    byte[] req = encode(o -> o.writeByteArray(1, encode(r -> r.writeByteArray(2, encode(s -> {
      s.writeByteArray(2, Metric.newBuilder().setName("ok").build().toByteArray());
      s.writeByteArray(2, metric);
    })))));
    assertThatThrownBy(() -> decode(req)).isInstanceOf(WireException.class)
        .hasMessage("resource_metrics[0].scope_metrics[0].metrics[1].histogram.data_points[0].bucket_counts: "
            + "packed length 7 is not a multiple of 8");
  }

  @Test
  void aWrongLengthExemplarTraceIdIsRefusedNamingTheField() {
    Metric m = Metric.newBuilder().setName("g").setGauge(Gauge.newBuilder()
        .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T0).setAsInt(1))
        .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T0).setAsInt(2)
            .addExemplars(exemplar(T0, "ok"))
            .addExemplars(Exemplar.newBuilder().setTraceId(ByteString.copyFrom(new byte[15]))))).build();
    assertThatThrownBy(() -> decode(request(m))).isInstanceOf(WireException.class)
        .hasMessage("resource_metrics[0].scope_metrics[0].metrics[0].gauge.data_points[1].exemplars[1].trace_id: "
            + "has 15 bytes, expected 16");
  }

  @Test
  void aWrongLengthExemplarSpanIdIsRefusedNamingTheField() {
    Metric m = histogram("h", HistogramDataPoint.newBuilder().setTimeUnixNano(T0)
        .addExemplars(Exemplar.newBuilder().setSpanId(ByteString.copyFrom(new byte[9]))).build());
    assertThatThrownBy(() -> decode(request(m))).isInstanceOf(WireException.class)
        .hasMessage("resource_metrics[0].scope_metrics[0].metrics[0].histogram.data_points[0].exemplars[0].span_id: "
            + "has 9 bytes, expected 8");
  }

  @Test
  void invalidUtf8InAMetricNameIsRefusedNamingTheField() {
    byte[] b = request(Metric.newBuilder().setName("x").build()).toByteArray();
    assertThat(b[b.length - 1]).isEqualTo((byte) 'x');
    b[b.length - 1] = (byte) 0xC3; // the 'x' becomes a lone lead byte
    assertThatThrownBy(() -> decode(b)).isInstanceOf(WireException.class)
        .hasMessage("resource_metrics[0].scope_metrics[0].metrics[0].name: is not valid UTF-8");
  }

  @Test
  void invalidUtf8InAPointAttributeIsRefusedNamingTheField() {
    Metric m = Metric.newBuilder().setName("s").setSummary(Summary.newBuilder()
        .addDataPoints(SummaryDataPoint.newBuilder().setTimeUnixNano(T0).addAttributes(kv("k", str("y"))))).build();
    byte[] b = request(m).toByteArray();
    assertThat(b[b.length - 1]).isEqualTo((byte) 'y');
    b[b.length - 1] = (byte) 0xE2;
    assertThatThrownBy(() -> decode(b)).isInstanceOf(WireException.class)
        .hasMessage("resource_metrics[0].scope_metrics[0].metrics[0].summary.data_points[0].attributes[0].value."
            + "string_value: is not valid UTF-8");
  }

  @Test
  void truncatedBytesAreRefused() {
    byte[] b = sample().toByteArray();
    for (int cut : new int[] {1, 7, 100, b.length / 2, b.length - 1}) {
      assertThatThrownBy(() -> new MetricsDecoder().decode(b, 0, cut, T0)).as("cut at " + cut)
          .isInstanceOf(WireException.class);
    }
  }

  @Provide
  Arbitrary<ExportMetricsServiceRequest> requests() {
    return Generators.metricsRequests();
  }

  @Property(tries = 50)
  void randomRequestsRoundTrip(@ForAll("requests") ExportMetricsServiceRequest req) throws Exception {
    // jqwik properties do not get JUnit's @TempDir.
    Path dir = Files.createTempDirectory("mira-metrics-prop");
    try (BufferAllocator a = new RootAllocator()) {
      Publisher p = new Publisher(dir, Signal.METRICS, "n", a);
      MetricsBatch b = decode(req);
      if (b.isEmpty()) {
        return;
      }
      Path block = p.publish(b, 0, 0);
      assertThat(a.getAllocatedMemory()).isZero();
      assertThat(readBack(block)).containsExactlyElementsOf(flatten(req));
      // The same request twice into one block: ids rebased, bounds still interned.
      MetricsBatch open = new MetricsBatch();
      assertThat(open.tryAppend(decode(req))).isTrue();
      assertThat(open.tryAppend(decode(req))).isTrue();
      assertThat(open.table(MetricsBatch.HIST_BOUNDS).rows()).isEqualTo(b.table(MetricsBatch.HIST_BOUNDS).rows());
      List<mira.block.testing.MetricsReadBack.Flat> twice = new ArrayList<>(flatten(req));
      twice.addAll(flatten(req));
      assertThat(readBack(p.publish(open, 1, 0))).containsExactlyElementsOf(twice);
    } finally {
      try (var s = Files.walk(dir)) {
        for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(f);
        }
      }
    }
  }

  interface Body {
    void write(CodedOutputStream out) throws IOException;
  }

  /** A message written field by field, for encodings protobuf-java's builders never produce. */
  static byte[] encode(Body body) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    body.write(out);
    out.flush();
    return bytes.toByteArray();
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
