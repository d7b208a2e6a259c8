package mira.proto.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsPartialSuccess;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.trace.v1.Span;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** What {@link OtlpJson#encode} writes, byte for byte, for the cases that differ from proto3 JSON. */
class EncodeTest {

  @Test
  void emptyResponsesEncodeAsAnEmptyObject() {
    assertThat(json(ExportLogsServiceResponse.getDefaultInstance())).isEqualTo("{}");
    assertThat(json(ExportTraceServiceResponse.getDefaultInstance())).isEqualTo("{}");
    assertThat(json(ExportMetricsServiceResponse.getDefaultInstance())).isEqualTo("{}");
  }

  @Test
  void partialSuccessWritesTheRejectedCountAsAString() {
    var logs = ExportLogsServiceResponse.newBuilder()
        .setPartialSuccess(
            ExportLogsPartialSuccess.newBuilder().setRejectedLogRecords(5).setErrorMessage("too old"))
        .build();
    assertThat(json(logs))
        .isEqualTo("{\"partialSuccess\":{\"rejectedLogRecords\":\"5\",\"errorMessage\":\"too old\"}}");
    var traces = ExportTraceServiceResponse.newBuilder()
        .setPartialSuccess(ExportTracePartialSuccess.getDefaultInstance())
        .build();
    assertThat(json(traces)).isEqualTo("{\"partialSuccess\":{}}");
  }

  @Test
  void idsAreLowercaseHexAndOtherBytesAreBase64() {
    byte[] trace = HexFormat.of().parseHex("5B8EFFF798038103D269B633813FC60C");
    Span s = Span.newBuilder()
        .setTraceId(ByteString.copyFrom(trace))
        .setParentSpanId(ByteString.copyFrom(HexFormat.of().parseHex("00000000000000ff")))
        .build();
    assertThat(json(s))
        .isEqualTo("{\"traceId\":\"5b8efff798038103d269b633813fc60c\",\"parentSpanId\":\"00000000000000ff\"}");
    AnyValue bytes =
        AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(new byte[] {(byte) 0xfb, (byte) 0xff})).build();
    assertThat(json(bytes)).isEqualTo("{\"bytesValue\":\"+/8=\"}");
  }

  @Test
  void sixtyFourBitIntegersAreStringsUnsignedWhereTheFieldIs() {
    LogRecord r =
        LogRecord.newBuilder().setTimeUnixNano(-1L).setBody(AnyValue.newBuilder().setIntValue(-1L)).build();
    assertThat(json(r)).isEqualTo("{\"timeUnixNano\":\"18446744073709551615\",\"body\":{\"intValue\":\"-1\"}}");
    NumberDataPoint p = NumberDataPoint.newBuilder().setAsInt(Long.MIN_VALUE).build();
    assertThat(json(p)).isEqualTo("{\"asInt\":\"-9223372036854775808\"}");
  }

  @Test
  void thirtyTwoBitIntegersAreNumbersUnsignedWhereTheFieldIs() {
    LogRecord r = LogRecord.newBuilder().setFlags(-1).setDroppedAttributesCount(3).build();
    assertThat(json(r)).isEqualTo("{\"droppedAttributesCount\":3,\"flags\":4294967295}");
  }

  @Test
  void enumsAreNumbers() {
    LogRecord r = LogRecord.newBuilder().setSeverityNumber(SeverityNumber.SEVERITY_NUMBER_WARN).build();
    assertThat(json(r)).isEqualTo("{\"severityNumber\":13}");
  }

  @Test
  void nonFiniteDoublesAreNamedStrings() {
    HistogramDataPoint p = HistogramDataPoint.newBuilder()
        .addExplicitBounds(Double.NEGATIVE_INFINITY).addExplicitBounds(1.5)
        .setSum(Double.NaN).setMax(Double.POSITIVE_INFINITY).build();
    assertThat(json(p))
        .isEqualTo("{\"sum\":\"NaN\",\"explicitBounds\":[\"-Infinity\",1.5],\"max\":\"Infinity\"}");
  }

  @Test
  void defaultValuesAreLeftOutButPresenceIsKept() {
    assertThat(json(Span.newBuilder().setName("n").setKind(Span.SpanKind.SPAN_KIND_UNSPECIFIED).build()))
        .isEqualTo("{\"name\":\"n\"}");
    // A oneof member or optional field at its default is still present, so still written.
    assertThat(json(AnyValue.newBuilder().setStringValue("").build())).isEqualTo("{\"stringValue\":\"\"}");
    assertThat(json(HistogramDataPoint.newBuilder().setSum(0).build())).isEqualTo("{\"sum\":0.0}");
  }

  @Test
  void messageNestedBeyondTheJsonLimitIsRefused() {
    AnyValue v = AnyValue.newBuilder().setStringValue("leaf").build();
    for (int i = 0; i < OtlpJson.MAX_JSON_DEPTH; i++) {
      v = AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addValues(v)).build();
    }
    AnyValue deep = v;
    assertThatIllegalArgumentException().isThrownBy(() -> OtlpJson.encode(deep))
        .withMessageContaining("deeper than 512");
  }

  private static String json(Message m) {
    return new String(OtlpJson.encode(m), StandardCharsets.UTF_8);
  }
}
