package mira.proto.json;

import static mira.proto.json.Docs.RECORD;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** 64-bit integers as strings or numbers, 32-bit ones as numbers or strings, doubles with names. */
class NumberDecodingTest {

  @Test
  void int64ArrivesAsStringOrNumber() throws Exception {
    assertThat(intValue("\"10\"")).isEqualTo(10);
    assertThat(intValue("10")).isEqualTo(10);
    assertThat(intValue("-5")).isEqualTo(-5);
    assertThat(intValue("\"-9223372036854775808\"")).isEqualTo(Long.MIN_VALUE);
    assertThat(intValue("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void int64AsTwelveXIsRefused() {
    Docs.refusedAsLogs(Docs.attribute("{\"intValue\":\"12x\"}"))
        .withMessage(RECORD + ".attributes[0].value.intValue: \"12x\" is not an int64");
  }

  @Test
  void int64AsFractionIsRefused() {
    Docs.refusedAsLogs(Docs.attribute("{\"intValue\":1.5}"))
        .withMessage(RECORD + ".attributes[0].value.intValue: 1.5 is not an integer");
    Docs.refusedAsLogs(Docs.attribute("{\"intValue\":\"1.5\"}"))
        .withMessage(RECORD + ".attributes[0].value.intValue: 1.5 is not an integer");
  }

  @Test
  void integralDecimalSpellingsOfAnIntegerAreAccepted() throws Exception {
    // JavaScript writes integers from 1e21 up in exponent form; protobuf's own parser takes them.
    assertThat(intValue("1e3")).isEqualTo(1000);
    assertThat(intValue("\"2.50e1\"")).isEqualTo(25);
    assertThat(intValue("5.0")).isEqualTo(5);
  }

  @Test
  void int64BeyondItsRangeIsRefused() {
    Docs.refusedAsLogs(Docs.attribute("{\"intValue\":\"9223372036854775808\"}"))
        .withMessageEndingWith("9223372036854775808 is out of range for int64");
    Docs.refusedAsLogs(Docs.attribute("{\"intValue\":-9223372036854775809}"))
        .withMessageEndingWith("-9223372036854775809 is out of range for int64");
  }

  @Test
  void uint64UpToTwoToThe64MinusOneIsKeptAsTheSignedBitPattern() throws Exception {
    LogRecord quoted = Docs.decodeLogRecord("\"timeUnixNano\":\"18446744073709551615\"");
    LogRecord bare = Docs.decodeLogRecord("\"timeUnixNano\":18446744073709551615");
    LogRecord high = Docs.decodeLogRecord("\"observedTimeUnixNano\":\"9223372036854775808\"");
    assertThat(quoted.getTimeUnixNano()).isEqualTo(-1L);
    assertThat(bare.getTimeUnixNano()).isEqualTo(-1L);
    assertThat(high.getObservedTimeUnixNano()).isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void uint64BeyondItsRangeOrNegativeIsRefused() {
    Docs.refusedAsLogs(Docs.logRecord("\"timeUnixNano\":\"18446744073709551616\""))
        .withMessage(RECORD + ".timeUnixNano: 18446744073709551616 is out of range for uint64");
    Docs.refusedAsLogs(Docs.logRecord("\"timeUnixNano\":-1"))
        .withMessage(RECORD + ".timeUnixNano: -1 is out of range for uint64");
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void hugeExponentIsRefusedWithoutExpandingIt() {
    // Twelve characters that would be a billion digits if turned into a BigInteger first.
    Docs.refusedAsLogs(Docs.logRecord("\"timeUnixNano\":1e999999999"))
        .withMessageContaining("out of range");
    Docs.refusedAsLogs(Docs.logRecord("\"timeUnixNano\":\"1e999999999\""))
        .withMessageContaining("out of range");
    Docs.refusedAsLogs(Docs.logRecord("\"timeUnixNano\":\"1e-999999999\""))
        .withMessageContaining("is not an integer");
  }

  @Test
  void bucketCountElementsAreRefusedByIndex() {
    String points = "\"histogram\":{\"dataPoints\":[{\"bucketCounts\":[\"1\",\"2\",\"x\"]}]}";
    Docs.refusedAsMetrics(Docs.metric(points))
        .withMessage(Docs.METRIC + ".histogram.dataPoints[0].bucketCounts[2]: \"x\" is not a uint64");
  }

  @Test
  void int32ArrivesAsNumberOrNumericString() throws Exception {
    assertThat(Docs.decodeLogRecord("\"droppedAttributesCount\":7").getDroppedAttributesCount()).isEqualTo(7);
    assertThat(Docs.decodeLogRecord("\"droppedAttributesCount\":\"7\"").getDroppedAttributesCount())
        .isEqualTo(7);
    ExponentialHistogramDataPoint p = expPoint("\"scale\":\"-3\",\"positive\":{\"offset\":-2}");
    assertThat(p.getScale()).isEqualTo(-3);
    assertThat(p.getPositive().getOffset()).isEqualTo(-2);
  }

  @Test
  void uint32UpToTwoToThe32MinusOneIsKeptAsTheSignedBitPattern() throws Exception {
    assertThat(Docs.decodeLogRecord("\"flags\":4294967295").getFlags()).isEqualTo(-1);
  }

  @Test
  void uint32BeyondItsRangeOrNegativeIsRefused() {
    Docs.refusedAsLogs(Docs.logRecord("\"flags\":4294967296"))
        .withMessage(RECORD + ".flags: 4294967296 is out of range for uint32");
    Docs.refusedAsLogs(Docs.logRecord("\"droppedAttributesCount\":-1"))
        .withMessage(RECORD + ".droppedAttributesCount: -1 is out of range for uint32");
  }

  @Test
  void int32BeyondItsRangeIsRefused() {
    Docs.refusedAsMetrics(Docs.metric("\"exponentialHistogram\":{\"dataPoints\":[{\"scale\":2147483648}]}"))
        .withMessageEndingWith(".scale: 2147483648 is out of range for int32");
  }

  @Test
  void doubleArrivesAsNumberNumericStringOrNonFiniteName() throws Exception {
    assertThat(doubleValue("1.25")).isEqualTo(1.25);
    assertThat(doubleValue("3")).isEqualTo(3.0);
    assertThat(doubleValue("\"-1.5e-3\"")).isEqualTo(-1.5e-3);
    assertThat(doubleValue("\"NaN\"")).isNaN();
    assertThat(doubleValue("\"Infinity\"")).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(doubleValue("\"-Infinity\"")).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(Double.doubleToRawLongBits(doubleValue("-0.0"))).isEqualTo(Double.doubleToRawLongBits(-0.0));
  }

  @Test
  void doubleSpelledOtherwiseIsRefused() {
    for (String bad : new String[] {"nan", "inf", "0x1p3", " 1", "1d", "", "1e"}) {
      Docs.refusedAsLogs(Docs.attribute("{\"doubleValue\":\"" + bad + "\"}"))
          .as(bad)
          .withMessage(RECORD + ".attributes[0].value.doubleValue: \"" + bad + "\" is not a number");
    }
  }

  @Test
  void optionalDoublesAreSetEvenWhenZero() throws Exception {
    HistogramDataPoint p =
        Docs.decodeMetric("\"histogram\":{\"dataPoints\":[{\"sum\":0,\"min\":\"0\"}]}")
            .getHistogram()
            .getDataPoints(0);
    assertThat(p.hasSum()).isTrue();
    assertThat(p.hasMin()).isTrue();
    assertThat(p.hasMax()).isFalse();
  }

  @Test
  void numberOfTheWrongTypeIsRefused() {
    Docs.refusedAsLogs(Docs.logRecord("\"timeUnixNano\":true"))
        .withMessage(RECORD + ".timeUnixNano: expected a uint64 (a number or a decimal string), got a boolean");
    Docs.refusedAsLogs(Docs.attribute("{\"doubleValue\":[1]}"))
        .withMessage(RECORD + ".attributes[0].value.doubleValue: expected a number, got an array");
  }

  @Test
  void asIntAndAsDoubleKeepTheirOneofCase() throws Exception {
    NumberDataPoint i =
        Docs.decodeMetric("\"sum\":{\"dataPoints\":[{\"asInt\":\"-4\"}]}").getSum().getDataPoints(0);
    NumberDataPoint d =
        Docs.decodeMetric("\"gauge\":{\"dataPoints\":[{\"asDouble\":0}]}").getGauge().getDataPoints(0);
    assertThat(i.getValueCase()).isEqualTo(NumberDataPoint.ValueCase.AS_INT);
    assertThat(i.getAsInt()).isEqualTo(-4);
    assertThat(d.getValueCase()).isEqualTo(NumberDataPoint.ValueCase.AS_DOUBLE);
  }

  private static long intValue(String json) throws OtlpJsonException {
    AnyValue v = attr(json, "intValue");
    assertThat(v.getValueCase()).isEqualTo(AnyValue.ValueCase.INT_VALUE);
    return v.getIntValue();
  }

  private static double doubleValue(String json) throws OtlpJsonException {
    AnyValue v = attr(json, "doubleValue");
    assertThat(v.getValueCase()).isEqualTo(AnyValue.ValueCase.DOUBLE_VALUE);
    return v.getDoubleValue();
  }

  private static AnyValue attr(String json, String field) throws OtlpJsonException {
    return Docs.logs(Docs.attribute("{\"" + field + "\":" + json + "}"))
        .getResourceLogs(0).getScopeLogs(0).getLogRecords(0).getAttributes(0).getValue();
  }

  private static ExponentialHistogramDataPoint expPoint(String fields) throws OtlpJsonException {
    return Docs.decodeMetric("\"exponentialHistogram\":{\"dataPoints\":[{" + fields + "}]}")
        .getExponentialHistogram()
        .getDataPoints(0);
  }
}
