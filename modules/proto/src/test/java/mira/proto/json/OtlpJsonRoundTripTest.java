package mira.proto.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Encode, then decode, and get the same message back; and the same again when the JSON is spelled
 * every other legal way. jqwik prints the seed of a failing try; rerun it with {@code
 * @Property(seed = "...")}.
 */
class OtlpJsonRoundTripTest {

  @Property(tries = 300)
  void logsSurviveEncodeThenDecode(@ForAll("logs") ExportLogsServiceRequest m) throws Exception {
    byte[] json = OtlpJson.encode(m);
    assertThat(OtlpJson.decodeLogs(json, 0, json.length)).isEqualTo(m);
  }

  @Property(tries = 300)
  void tracesSurviveEncodeThenDecode(@ForAll("traces") ExportTraceServiceRequest m)
      throws Exception {
    byte[] json = OtlpJson.encode(m);
    assertThat(OtlpJson.decodeTraces(json, 0, json.length)).isEqualTo(m);
  }

  @Property(tries = 300)
  void metricsSurviveEncodeThenDecode(@ForAll("metrics") ExportMetricsServiceRequest m)
      throws Exception {
    byte[] json = OtlpJson.encode(m);
    assertThat(OtlpJson.decodeMetrics(json, 0, json.length)).isEqualTo(m);
  }

  @Property(tries = 300)
  void logsSurviveAnyLegalSpelling(
      @ForAll("logs") ExportLogsServiceRequest m, @ForAll("randoms") Random spelling)
      throws Exception {
    byte[] json = SloppyJsonWriter.write(m, spelling);
    assertThat(OtlpJson.decodeLogs(json, 0, json.length)).isEqualTo(m);
  }

  @Property(tries = 300)
  void tracesSurviveAnyLegalSpelling(
      @ForAll("traces") ExportTraceServiceRequest m, @ForAll("randoms") Random spelling)
      throws Exception {
    byte[] json = SloppyJsonWriter.write(m, spelling);
    assertThat(OtlpJson.decodeTraces(json, 0, json.length)).isEqualTo(m);
  }

  @Property(tries = 300)
  void metricsSurviveAnyLegalSpelling(
      @ForAll("metrics") ExportMetricsServiceRequest m, @ForAll("randoms") Random spelling)
      throws Exception {
    byte[] json = SloppyJsonWriter.write(m, spelling);
    assertThat(OtlpJson.decodeMetrics(json, 0, json.length)).isEqualTo(m);
  }

  @Provide
  Arbitrary<ExportLogsServiceRequest> logs() {
    return Arbitraries.randomValue(r -> new RandomOtlp(r).build(ExportLogsServiceRequest.newBuilder()));
  }

  @Provide
  Arbitrary<ExportTraceServiceRequest> traces() {
    return Arbitraries.randomValue(r -> new RandomOtlp(r).build(ExportTraceServiceRequest.newBuilder()));
  }

  @Provide
  Arbitrary<ExportMetricsServiceRequest> metrics() {
    return Arbitraries.randomValue(
        r -> new RandomOtlp(r).build(ExportMetricsServiceRequest.newBuilder()));
  }

  @Provide
  Arbitrary<Random> randoms() {
    return Arbitraries.randoms();
  }
}
