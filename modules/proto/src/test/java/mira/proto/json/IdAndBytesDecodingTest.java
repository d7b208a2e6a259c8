package mira.proto.json;

import static mira.proto.json.Docs.RECORD;
import static mira.proto.json.Docs.SPAN;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.trace.v1.Span;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Trace and span ids are hex; every other bytes field is base64. */
class IdAndBytesDecodingTest {
  private static final String TRACE = "5b8efff798038103d269b633813fc60c";
  private static final String SPAN_ID = "eee19b7ec3c1b174";

  @Test
  void hexIdsInAnyCase() throws Exception {
    for (String spelling : new String[] {TRACE, TRACE.toUpperCase(), "5B8efff798038103D269b633813FC60c"}) {
      LogRecord r = Docs.decodeLogRecord("\"traceId\":\"" + spelling + "\"");
      assertThat(r.getTraceId()).as(spelling).isEqualTo(bytes(TRACE));
    }
    LogRecord r = Docs.decodeLogRecord("\"spanId\":\"EEE19b7ec3c1B174\"");
    assertThat(r.getSpanId()).isEqualTo(bytes(SPAN_ID));
  }

  @Test
  void traceIdWith31HexDigitsIsRefusedNamingTheField() {
    Docs.refusedAsLogs(Docs.logRecord("\"traceId\":\"" + TRACE.substring(1) + "\""))
        .withMessage(RECORD + ".traceId: expected 32 hex digits (16 bytes), got 31 characters");
  }

  @Test
  void spanIdOfTraceIdLengthIsRefused() {
    Docs.refusedAsTraces(Docs.span("\"spanId\":\"" + TRACE + "\""))
        .withMessage(SPAN + ".spanId: expected 16 hex digits (8 bytes), got 32 characters");
  }

  @Test
  void base64TraceIdIsRefusedRatherThanMisread() {
    // The same 16 bytes in base64: 24 characters, which a generic proto3 JSON decoder would take.
    String b64 = java.util.Base64.getEncoder().encodeToString(HexFormat.of().parseHex(TRACE));
    Docs.refusedAsLogs(Docs.logRecord("\"traceId\":\"" + b64 + "\""))
        .withMessageStartingWith(RECORD + ".traceId: expected 32 hex digits");
  }

  @Test
  void nonHexCharacterIsRefusedNamingItsPosition() {
    Docs.refusedAsLogs(Docs.logRecord("\"spanId\":\"eee19b7ec3c1b17g\""))
        .withMessage(RECORD + ".spanId: character 'g' at position 15 is not a hex digit");
  }

  @Test
  void emptyIdMeansUnset() throws Exception {
    LogRecord r = Docs.decodeLogRecord("\"traceId\":\"\",\"spanId\":\"\"");
    assertThat(r).isEqualTo(LogRecord.getDefaultInstance());
  }

  @Test
  void idThatIsNotAStringIsRefused() {
    Docs.refusedAsTraces(Docs.span("\"parentSpanId\":1234"))
        .withMessage(SPAN + ".parentSpanId: expected a hex string, got a number");
  }

  @Test
  void parentSpanIdAndLinkIdsAreHex() throws Exception {
    Span s =
        Docs.decodeSpan(
            "\"parentSpanId\":\"EEE19B7EC3C1B173\","
                + "\"links\":[{\"traceId\":\"" + TRACE.toUpperCase() + "\",\"spanId\":\"" + SPAN_ID + "\"}]");
    assertThat(s.getParentSpanId()).isEqualTo(bytes("eee19b7ec3c1b173"));
    assertThat(s.getLinks(0).getTraceId()).isEqualTo(bytes(TRACE));
    assertThat(s.getLinks(0).getSpanId()).isEqualTo(bytes(SPAN_ID));
  }

  @Test
  void badLinkIdIsRefusedNamingTheLink() {
    Docs.refusedAsTraces(Docs.span("\"links\":[{},{\"traceId\":\"abc\"}]"))
        .withMessageStartingWith(SPAN + ".links[1].traceId: expected 32 hex digits");
  }

  @Test
  void exemplarIdsAreHex() throws Exception {
    Exemplar e =
        Docs.decodeMetric(
                "\"gauge\":{\"dataPoints\":[{\"exemplars\":[{\"asInt\":\"3\",\"spanId\":\""
                    + SPAN_ID.toUpperCase() + "\",\"traceId\":\"" + TRACE + "\"}]}]}")
            .getGauge()
            .getDataPoints(0)
            .getExemplars(0);
    assertThat(e.getSpanId()).isEqualTo(bytes(SPAN_ID));
    assertThat(e.getTraceId()).isEqualTo(bytes(TRACE));
    assertThat(e.getAsInt()).isEqualTo(3);
  }

  @Test
  void bytesValueIsBase64InEitherAlphabetWithOrWithoutPadding() throws Exception {
    ByteString expected = ByteString.copyFrom(new byte[] {(byte) 0xfb, (byte) 0xff, (byte) 0xfe});
    ByteString two = ByteString.copyFrom(new byte[] {(byte) 0xfb, (byte) 0xff});
    assertThat(bytesValue("+//+")).isEqualTo(expected);
    assertThat(bytesValue("-__-")).isEqualTo(expected);
    assertThat(bytesValue("+/8=")).isEqualTo(two);
    assertThat(bytesValue("+/8")).isEqualTo(two);
    assertThat(bytesValue("-_8=")).isEqualTo(two);
    assertThat(bytesValue("-_8")).isEqualTo(two);
  }

  @Test
  void bytesValueThatIsHexIsReadAsBase64() throws Exception {
    // Only ids are hex: "00ff" in a bytes attribute is base64 for three bytes, not hex for two.
    assertThat(bytesValue("00ff")).isEqualTo(ByteString.copyFrom(new byte[] {(byte) 0xd3, 0x47, (byte) 0xdf}));
  }

  @Test
  void emptyBytesValueIsSetAndEmpty() throws Exception {
    var v = Docs.logs(Docs.attribute("{\"bytesValue\":\"\"}"))
        .getResourceLogs(0).getScopeLogs(0).getLogRecords(0).getAttributes(0).getValue();
    assertThat(v.hasBytesValue()).isTrue();
    assertThat(v.getBytesValue()).isEmpty();
  }

  @Test
  void bytesValueThatIsNotBase64IsRefused() {
    Docs.refusedAsLogs(Docs.attribute("{\"bytesValue\":\"a*b=\"}"))
        .withMessageStartingWith(RECORD + ".attributes[0].value.bytesValue: \"a*b=\" is not base64");
    Docs.refusedAsLogs(Docs.attribute("{\"bytesValue\":\"+_ab\"}"))
        .withMessageStartingWith(RECORD + ".attributes[0].value.bytesValue: \"+_ab\" is not base64");
  }

  private static ByteString bytesValue(String b64) throws OtlpJsonException {
    return Docs.logs(Docs.attribute("{\"bytesValue\":\"" + b64 + "\"}"))
        .getResourceLogs(0).getScopeLogs(0).getLogRecords(0).getAttributes(0).getValue().getBytesValue();
  }

  private static ByteString bytes(String hex) {
    return ByteString.copyFrom(HexFormat.of().parseHex(hex));
  }
}
