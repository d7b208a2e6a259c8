package mira.proto.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The example requests published with opentelemetry-proto (test resources {@code otlp-examples/},
 * Apache-2.0, see the README there) decode completely, ids to the bytes their hex spells.
 */
class OtlpExamplesTest {
  private static final long EXAMPLE_TIME = 1544712660300000000L;

  @Test
  void logsExampleDecodesEveryAttributeKind() throws Exception {
    byte[] json = resource("logs.json");
    ExportLogsServiceRequest req = OtlpJson.decodeLogs(json, 0, json.length);

    assertThat(req.getResourceLogsCount()).isEqualTo(1);
    assertThat(req.getResourceLogs(0).getResource().getAttributes(0))
        .isEqualTo(kv("service.name", AnyValue.newBuilder().setStringValue("my.service").build()));
    ScopeLogs scope = req.getResourceLogs(0).getScopeLogs(0);
    assertThat(scope.getScope().getName()).isEqualTo("my.library");
    assertThat(scope.getScope().getVersion()).isEqualTo("1.0.0");
    assertThat(scope.getLogRecordsCount()).isEqualTo(1);

    LogRecord rec = scope.getLogRecords(0);
    assertThat(rec.getTimeUnixNano()).isEqualTo(EXAMPLE_TIME);
    assertThat(rec.getObservedTimeUnixNano()).isEqualTo(EXAMPLE_TIME);
    assertThat(rec.getSeverityNumberValue()).isEqualTo(10);
    assertThat(rec.getSeverityText()).isEqualTo("Information");
    assertThat(rec.getTraceId()).isEqualTo(hex("5b8efff798038103d269b633813fc60c"));
    assertThat(rec.getSpanId()).isEqualTo(hex("eee19b7ec3c1b174"));
    assertThat(rec.getBody().getStringValue()).isEqualTo("Example log record");

    List<KeyValue> attrs = rec.getAttributesList();
    assertThat(attrs).extracting(KeyValue::getKey)
        .containsExactly("string.attribute", "boolean.attribute", "int.attribute",
            "double.attribute", "array.attribute", "map.attribute");
    assertThat(attrs.get(0).getValue().getStringValue()).isEqualTo("some string");
    assertThat(attrs.get(1).getValue().getBoolValue()).isTrue();
    assertThat(attrs.get(2).getValue().getIntValue()).isEqualTo(10);
    assertThat(attrs.get(3).getValue().getDoubleValue()).isEqualTo(637.704);
    assertThat(attrs.get(4).getValue().getArrayValue().getValuesList())
        .extracting(AnyValue::getStringValue).containsExactly("many", "values");
    KeyValue inMap = attrs.get(5).getValue().getKvlistValue().getValues(0);
    assertThat(inMap.getKey()).isEqualTo("some.map.key");
    assertThat(inMap.getValue().getStringValue()).isEqualTo("some value");
  }

  @Test
  void eventsExampleDecodesEventNameAndKvlistBody() throws Exception {
    byte[] json = resource("events.json");
    ExportLogsServiceRequest req = OtlpJson.decodeLogs(json, 0, json.length);

    LogRecord rec = req.getResourceLogs(0).getScopeLogs(0).getLogRecords(0);
    assertThat(rec.getEventName()).isEqualTo("browser.page_view");
    assertThat(rec.getSeverityNumberValue()).isEqualTo(9);
    assertThat(rec.getTraceId()).isEmpty();
    assertThat(rec.getAttributes(0).getValue().getStringValue()).isEqualTo("some event attribute");
    List<KeyValue> body = rec.getBody().getKvlistValue().getValuesList();
    assertThat(body).extracting(KeyValue::getKey).containsExactly("type", "url", "referrer", "title");
    assertThat(body.get(0).getValue().getValueCase()).isEqualTo(AnyValue.ValueCase.INT_VALUE);
    assertThat(body.get(0).getValue().getIntValue()).isZero();
    assertThat(body.get(3).getValue().getStringValue()).isEqualTo("Free Online GUID Generator");
  }

  @Test
  void traceExampleDecodesIdsKindAndTimes() throws Exception {
    byte[] json = resource("trace.json");
    ExportTraceServiceRequest req = OtlpJson.decodeTraces(json, 0, json.length);

    assertThat(req.getResourceSpans(0).getScopeSpans(0).getSpansCount()).isEqualTo(1);
    Span span = req.getResourceSpans(0).getScopeSpans(0).getSpans(0);
    assertThat(span.getTraceId()).isEqualTo(hex("5b8efff798038103d269b633813fc60c"));
    assertThat(span.getSpanId()).isEqualTo(hex("eee19b7ec3c1b174"));
    assertThat(span.getParentSpanId()).isEqualTo(hex("eee19b7ec3c1b173"));
    assertThat(span.getName()).isEqualTo("I'm a server span");
    assertThat(span.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_SERVER);
    assertThat(span.getStartTimeUnixNano()).isEqualTo(1544712660000000000L);
    assertThat(span.getEndTimeUnixNano()).isEqualTo(1544712661000000000L);
    assertThat(span.getAttributes(0).getKey()).isEqualTo("my.span.attr");
    assertThat(span.getAttributes(0).getValue().getStringValue()).isEqualTo("some value");
  }

  @Test
  void metricsExampleDecodesAllFourKinds() throws Exception {
    byte[] json = resource("metrics.json");
    ExportMetricsServiceRequest req = OtlpJson.decodeMetrics(json, 0, json.length);

    List<Metric> metrics = req.getResourceMetrics(0).getScopeMetrics(0).getMetricsList();
    assertThat(metrics).extracting(Metric::getDataCase)
        .containsExactly(Metric.DataCase.SUM, Metric.DataCase.GAUGE, Metric.DataCase.HISTOGRAM,
            Metric.DataCase.EXPONENTIAL_HISTOGRAM);

    Metric counter = metrics.get(0);
    assertThat(counter.getName()).isEqualTo("my.counter");
    assertThat(counter.getUnit()).isEqualTo("1");
    assertThat(counter.getDescription()).isEqualTo("I am a Counter");
    assertThat(counter.getSum().getAggregationTemporality())
        .isEqualTo(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA);
    assertThat(counter.getSum().getIsMonotonic()).isTrue();
    NumberDataPoint sumPoint = counter.getSum().getDataPoints(0);
    assertThat(sumPoint.getValueCase()).isEqualTo(NumberDataPoint.ValueCase.AS_DOUBLE);
    assertThat(sumPoint.getAsDouble()).isEqualTo(5.0);
    assertThat(sumPoint.getStartTimeUnixNano()).isEqualTo(EXAMPLE_TIME);
    assertThat(sumPoint.getAttributes(0).getValue().getStringValue()).isEqualTo("some value");

    assertThat(metrics.get(1).getGauge().getDataPoints(0).getAsDouble()).isEqualTo(10.0);

    HistogramDataPoint h = metrics.get(2).getHistogram().getDataPoints(0);
    assertThat(h.getCount()).isEqualTo(2);
    assertThat(h.getSum()).isEqualTo(2.0);
    assertThat(h.getBucketCountsList()).containsExactly(1L, 1L);
    assertThat(h.getExplicitBoundsList()).containsExactly(1.0);
    assertThat(h.hasMin()).isTrue();
    assertThat(h.getMin()).isEqualTo(0.0);
    assertThat(h.getMax()).isEqualTo(2.0);

    ExponentialHistogramDataPoint e = metrics.get(3).getExponentialHistogram().getDataPoints(0);
    assertThat(e.getCount()).isEqualTo(3);
    assertThat(e.getSum()).isEqualTo(10.0);
    assertThat(e.getScale()).isZero();
    assertThat(e.getZeroCount()).isEqualTo(1);
    assertThat(e.getPositive().getOffset()).isEqualTo(1);
    assertThat(e.getPositive().getBucketCountsList()).containsExactly(0L, 2L);
    assertThat(e.hasNegative()).isFalse();
    assertThat(e.getMax()).isEqualTo(5.0);
    assertThat(e.getAttributes(0).getKey()).isEqualTo("my.exponential.histogram.attr");

    assertThat(metrics.stream().mapToInt(OtlpExamplesTest::points).sum()).isEqualTo(4);
  }

  @Test
  void examplesSurviveEncodeThenDecode() throws Exception {
    for (String name : List.of("logs.json", "events.json")) {
      byte[] json = resource(name);
      ExportLogsServiceRequest m = OtlpJson.decodeLogs(json, 0, json.length);
      byte[] again = OtlpJson.encode(m);
      assertThat(OtlpJson.decodeLogs(again, 0, again.length)).as(name).isEqualTo(m);
    }
    byte[] t = resource("trace.json");
    ExportTraceServiceRequest trace = OtlpJson.decodeTraces(t, 0, t.length);
    byte[] t2 = OtlpJson.encode(trace);
    assertThat(OtlpJson.decodeTraces(t2, 0, t2.length)).isEqualTo(trace);
    byte[] m = resource("metrics.json");
    ExportMetricsServiceRequest metrics = OtlpJson.decodeMetrics(m, 0, m.length);
    byte[] m2 = OtlpJson.encode(metrics);
    assertThat(OtlpJson.decodeMetrics(m2, 0, m2.length)).isEqualTo(metrics);
  }

  private static int points(Metric m) {
    return switch (m.getDataCase()) {
      case GAUGE -> m.getGauge().getDataPointsCount();
      case SUM -> m.getSum().getDataPointsCount();
      case HISTOGRAM -> m.getHistogram().getDataPointsCount();
      case EXPONENTIAL_HISTOGRAM -> m.getExponentialHistogram().getDataPointsCount();
      case SUMMARY -> m.getSummary().getDataPointsCount();
      case DATA_NOT_SET -> 0;
    };
  }

  private static KeyValue kv(String key, AnyValue v) {
    return KeyValue.newBuilder().setKey(key).setValue(v).build();
  }

  private static ByteString hex(String s) {
    return ByteString.copyFrom(HexFormat.of().parseHex(s));
  }

  static byte[] resource(String name) throws IOException {
    try (InputStream in = OtlpExamplesTest.class.getResourceAsStream("/otlp-examples/" + name)) {
      assertThat(in).as("test resource otlp-examples/" + name).isNotNull();
      return in.readAllBytes();
    }
  }
}
