package mira.proto.json;

import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;

/**
 * The four data point shapes and their exemplars. Conventions as {@link CommonDecoder}.
 *
 * <p>Bucket counts arrive one JSON value per bucket and go straight into the builder's primitive
 * list; no intermediate boxed list.
 */
final class DataPointDecoder {
  private DataPointDecoder() {}

  static NumberDataPoint number(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    NumberDataPoint.Builder b = NumberDataPoint.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "attributes" -> {
          in.enterArray();
          while (in.nextElement()) b.addAttributes(CommonDecoder.keyValue(in));
        }
        case "startTimeUnixNano", "start_time_unix_nano" -> b.setStartTimeUnixNano(in.uint64());
        case "timeUnixNano", "time_unix_nano" -> b.setTimeUnixNano(in.uint64());
        case "asDouble", "as_double" -> b.setAsDouble(in.float64());
        case "asInt", "as_int" -> b.setAsInt(in.int64());
        case "exemplars" -> {
          in.enterArray();
          while (in.nextElement()) b.addExemplars(exemplar(in));
        }
        case "flags" -> b.setFlags(in.uint32());
        default -> in.skip();
      }
    }
    return b.build();
  }

  static HistogramDataPoint histogram(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    HistogramDataPoint.Builder b = HistogramDataPoint.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "attributes" -> {
          in.enterArray();
          while (in.nextElement()) b.addAttributes(CommonDecoder.keyValue(in));
        }
        case "startTimeUnixNano", "start_time_unix_nano" -> b.setStartTimeUnixNano(in.uint64());
        case "timeUnixNano", "time_unix_nano" -> b.setTimeUnixNano(in.uint64());
        case "count" -> b.setCount(in.uint64());
        case "sum" -> b.setSum(in.float64());
        case "bucketCounts", "bucket_counts" -> {
          in.enterArray();
          while (in.nextElement()) b.addBucketCounts(in.uint64());
        }
        case "explicitBounds", "explicit_bounds" -> {
          in.enterArray();
          while (in.nextElement()) b.addExplicitBounds(in.float64());
        }
        case "exemplars" -> {
          in.enterArray();
          while (in.nextElement()) b.addExemplars(exemplar(in));
        }
        case "flags" -> b.setFlags(in.uint32());
        case "min" -> b.setMin(in.float64());
        case "max" -> b.setMax(in.float64());
        default -> in.skip();
      }
    }
    return b.build();
  }

  static ExponentialHistogramDataPoint exponentialHistogram(JsonInput in)
      throws OtlpJsonException {
    in.enterObject();
    ExponentialHistogramDataPoint.Builder b = ExponentialHistogramDataPoint.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "attributes" -> {
          in.enterArray();
          while (in.nextElement()) b.addAttributes(CommonDecoder.keyValue(in));
        }
        case "startTimeUnixNano", "start_time_unix_nano" -> b.setStartTimeUnixNano(in.uint64());
        case "timeUnixNano", "time_unix_nano" -> b.setTimeUnixNano(in.uint64());
        case "count" -> b.setCount(in.uint64());
        case "sum" -> b.setSum(in.float64());
        case "scale" -> b.setScale(in.int32());
        case "zeroCount", "zero_count" -> b.setZeroCount(in.uint64());
        case "positive" -> b.setPositive(buckets(in));
        case "negative" -> b.setNegative(buckets(in));
        case "flags" -> b.setFlags(in.uint32());
        case "exemplars" -> {
          in.enterArray();
          while (in.nextElement()) b.addExemplars(exemplar(in));
        }
        case "min" -> b.setMin(in.float64());
        case "max" -> b.setMax(in.float64());
        case "zeroThreshold", "zero_threshold" -> b.setZeroThreshold(in.float64());
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static ExponentialHistogramDataPoint.Buckets buckets(JsonInput in)
      throws OtlpJsonException {
    in.enterObject();
    ExponentialHistogramDataPoint.Buckets.Builder b =
        ExponentialHistogramDataPoint.Buckets.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "offset" -> b.setOffset(in.int32());
        case "bucketCounts", "bucket_counts" -> {
          in.enterArray();
          while (in.nextElement()) b.addBucketCounts(in.uint64());
        }
        default -> in.skip();
      }
    }
    return b.build();
  }

  static SummaryDataPoint summary(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    SummaryDataPoint.Builder b = SummaryDataPoint.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "attributes" -> {
          in.enterArray();
          while (in.nextElement()) b.addAttributes(CommonDecoder.keyValue(in));
        }
        case "startTimeUnixNano", "start_time_unix_nano" -> b.setStartTimeUnixNano(in.uint64());
        case "timeUnixNano", "time_unix_nano" -> b.setTimeUnixNano(in.uint64());
        case "count" -> b.setCount(in.uint64());
        case "sum" -> b.setSum(in.float64());
        case "quantileValues", "quantile_values" -> {
          in.enterArray();
          while (in.nextElement()) b.addQuantileValues(quantile(in));
        }
        case "flags" -> b.setFlags(in.uint32());
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static SummaryDataPoint.ValueAtQuantile quantile(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    SummaryDataPoint.ValueAtQuantile.Builder b = SummaryDataPoint.ValueAtQuantile.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "quantile" -> b.setQuantile(in.float64());
        case "value" -> b.setValue(in.float64());
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static Exemplar exemplar(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    Exemplar.Builder b = Exemplar.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "filteredAttributes", "filtered_attributes" -> {
          in.enterArray();
          while (in.nextElement()) b.addFilteredAttributes(CommonDecoder.keyValue(in));
        }
        case "timeUnixNano", "time_unix_nano" -> b.setTimeUnixNano(in.uint64());
        case "asDouble", "as_double" -> b.setAsDouble(in.float64());
        case "asInt", "as_int" -> b.setAsInt(in.int64());
        case "spanId", "span_id" -> b.setSpanId(in.hexId(8));
        case "traceId", "trace_id" -> b.setTraceId(in.hexId(16));
        default -> in.skip();
      }
    }
    return b.build();
  }
}
