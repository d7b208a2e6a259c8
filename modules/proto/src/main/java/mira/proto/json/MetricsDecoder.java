package mira.proto.json;

import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogram;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.metrics.v1.Summary;

/**
 * The metrics signal down to the five metric kinds; their data points are {@link
 * DataPointDecoder}'s. Conventions as {@link CommonDecoder}.
 */
final class MetricsDecoder {
  private MetricsDecoder() {}

  static ResourceMetrics resourceMetrics(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    ResourceMetrics.Builder b = ResourceMetrics.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "resource" -> b.setResource(CommonDecoder.resource(in));
        case "scopeMetrics", "scope_metrics" -> {
          in.enterArray();
          while (in.nextElement()) b.addScopeMetrics(scopeMetrics(in));
        }
        case "schemaUrl", "schema_url" -> b.setSchemaUrl(in.string());
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static ScopeMetrics scopeMetrics(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    ScopeMetrics.Builder b = ScopeMetrics.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "scope" -> b.setScope(CommonDecoder.scope(in));
        case "metrics" -> {
          in.enterArray();
          while (in.nextElement()) b.addMetrics(metric(in));
        }
        case "schemaUrl", "schema_url" -> b.setSchemaUrl(in.string());
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static Metric metric(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    Metric.Builder b = Metric.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "name" -> b.setName(in.string());
        case "description" -> b.setDescription(in.string());
        case "unit" -> b.setUnit(in.string());
        case "gauge" -> b.setGauge(gauge(in));
        case "sum" -> b.setSum(sum(in));
        case "histogram" -> b.setHistogram(histogram(in));
        case "exponentialHistogram", "exponential_histogram" ->
            b.setExponentialHistogram(exponentialHistogram(in));
        case "summary" -> b.setSummary(summary(in));
        case "metadata" -> {
          in.enterArray();
          while (in.nextElement()) b.addMetadata(CommonDecoder.keyValue(in));
        }
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static Gauge gauge(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    Gauge.Builder b = Gauge.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "dataPoints", "data_points" -> {
          in.enterArray();
          while (in.nextElement()) b.addDataPoints(DataPointDecoder.number(in));
        }
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static Sum sum(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    Sum.Builder b = Sum.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "dataPoints", "data_points" -> {
          in.enterArray();
          while (in.nextElement()) b.addDataPoints(DataPointDecoder.number(in));
        }
        case "aggregationTemporality", "aggregation_temporality" ->
            b.setAggregationTemporalityValue(temporality(in));
        case "isMonotonic", "is_monotonic" -> b.setIsMonotonic(in.bool());
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static Histogram histogram(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    Histogram.Builder b = Histogram.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "dataPoints", "data_points" -> {
          in.enterArray();
          while (in.nextElement()) b.addDataPoints(DataPointDecoder.histogram(in));
        }
        case "aggregationTemporality", "aggregation_temporality" ->
            b.setAggregationTemporalityValue(temporality(in));
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static ExponentialHistogram exponentialHistogram(JsonInput in)
      throws OtlpJsonException {
    in.enterObject();
    ExponentialHistogram.Builder b = ExponentialHistogram.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "dataPoints", "data_points" -> {
          in.enterArray();
          while (in.nextElement()) b.addDataPoints(DataPointDecoder.exponentialHistogram(in));
        }
        case "aggregationTemporality", "aggregation_temporality" ->
            b.setAggregationTemporalityValue(temporality(in));
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static Summary summary(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    Summary.Builder b = Summary.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "dataPoints", "data_points" -> {
          in.enterArray();
          while (in.nextElement()) b.addDataPoints(DataPointDecoder.summary(in));
        }
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static int temporality(JsonInput in) throws OtlpJsonException {
    return in.enumNumber(AggregationTemporality.getDescriptor());
  }
}
