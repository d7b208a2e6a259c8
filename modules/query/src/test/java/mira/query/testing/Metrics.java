package mira.query.testing;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Summary;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import io.opentelemetry.proto.resource.v1.Resource;

/** Hand-built metrics requests for series tests. */
public final class Metrics {
  private Metrics() {}

  public static KeyValue attr(String k, String v) {
    return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setStringValue(v)).build();
  }

  public static KeyValue attr(String k, long v) {
    return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setIntValue(v)).build();
  }

  public static NumberDataPoint intPoint(long time, long value, KeyValue... attrs) {
    return NumberDataPoint.newBuilder().setTimeUnixNano(time).setAsInt(value)
        .addAllAttributes(java.util.List.of(attrs)).build();
  }

  public static NumberDataPoint doublePoint(long time, double value, KeyValue... attrs) {
    return NumberDataPoint.newBuilder().setTimeUnixNano(time).setAsDouble(value)
        .addAllAttributes(java.util.List.of(attrs)).build();
  }

  public static Metric gauge(String name, String unit, NumberDataPoint... points) {
    return Metric.newBuilder().setName(name).setUnit(unit).setDescription(name + " description")
        .setGauge(Gauge.newBuilder().addAllDataPoints(java.util.List.of(points))).build();
  }

  public static HistogramDataPoint histPoint(long time, long count, double sum, ByteString traceId, KeyValue... attrs) {
    HistogramDataPoint.Builder b = HistogramDataPoint.newBuilder().setTimeUnixNano(time).setCount(count).setSum(sum)
        .addBucketCounts(count).addAllAttributes(java.util.List.of(attrs));
    if (traceId != null) {
      b.addExemplars(Exemplar.newBuilder().setTimeUnixNano(time).setAsDouble(sum).setTraceId(traceId)
          .setSpanId(ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8})).addFilteredAttributes(attr("x", "y")));
    }
    return b.build();
  }

  public static Metric histogram(String name, HistogramDataPoint... points) {
    return Metric.newBuilder().setName(name).setUnit("ms")
        .setHistogram(Histogram.newBuilder().setAggregationTemporalityValue(2)
            .addAllDataPoints(java.util.List.of(points))).build();
  }

  public static Metric summary(String name, long time, long count, double sum) {
    return Metric.newBuilder().setName(name).setUnit("By")
        .setSummary(Summary.newBuilder().addDataPoints(SummaryDataPoint.newBuilder().setTimeUnixNano(time)
            .setCount(count).setSum(sum))).build();
  }

  public static ExportMetricsServiceRequest request(String service, Metric... metrics) {
    return ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.newBuilder()
        .setResource(Resource.newBuilder().addAttributes(attr("service.name", service)))
        .addScopeMetrics(ScopeMetrics.newBuilder().addAllMetrics(java.util.List.of(metrics)))).build();
  }
}
