package mira.block.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.nio.charset.StandardCharsets;
import java.util.List;
import mira.block.Decoders;
import mira.block.table.Batch;
import mira.block.testing.SampleRequests;
import mira.proto.wire.Signal;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The trigram filter of text.idx: never a false negative, what it rules out, and its file. */
class TextIndexTest {
  static Batch logs(List<AnyValue> bodies) throws Exception {
    ScopeLogs.Builder s = ScopeLogs.newBuilder();
    for (AnyValue b : bodies) {
      s.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(SampleRequests.T0).setBody(b));
    }
    byte[] b = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(s))
        .build().toByteArray();
    return Decoders.decode(Signal.LOGS, b, 0, b.length, SampleRequests.T0);
  }

  static AnyValue str(String s) {
    return AnyValue.newBuilder().setStringValue(s).build();
  }

  @Provide
  Arbitrary<List<String>> texts() {
    Arbitrary<String> word = Arbitraries.strings().withCharRange('a', 'f').withCharRange('A', 'C')
        .withChars(' ', ':', '/', 'é', '€').ofMinLength(0).ofMaxLength(40);
    // Some with a character outside the BMP (a surrogate pair in Java, four bytes in UTF-8).
    return Arbitraries.oneOf(word, word.map(w -> w + "\uD83D\uDE00" + w)).list().ofMinSize(1).ofMaxSize(20);
  }

  /** Every substring of every body, at every offset and length from three bytes up, may be there. */
  @Property(tries = 200)
  void everySubstringOfAStoredBodyMayBeThere(@ForAll("texts") List<String> bodies) throws Exception {
    TextIndex idx = TextIndex.build(logs(bodies.stream().map(TextIndexTest::str).toList()));
    TextIndex read = TextIndex.parse(idx.toBytes());
    assertThat(read.known()).isTrue();
    for (String body : bodies) {
      for (int i = 0; i < body.length(); i++) {
        for (int j = i + 1; j <= body.length(); j++) {
          String needle = body.substring(i, j);
          if (Character.isLowSurrogate(needle.charAt(0)) || Character.isHighSurrogate(needle.charAt(needle.length() - 1))) {
            continue;   // half a character: no term is made of that
          }
          assertThat(read.mightContain(TextIndex.probe(needle))).as("%s in %s", needle, body).isTrue();
        }
      }
    }
  }

  @Test
  void aNeedleWithATrigramNoBodyHasIsRuledOutEvenInsideAWord() throws Exception {
    TextIndex idx = TextIndex.build(logs(List.of(str("boom: NullPointerException at Foo.bar"), str("GET /a 200"))));
    assertThat(idx.mightContain(TextIndex.probe("Pointer"))).as("inside a word: not a whole token, still found").isTrue();
    assertThat(idx.mightContain(TextIndex.probe("/a 2"))).as("across a space").isTrue();
    assertThat(idx.mightContain(TextIndex.probe("TimeoutException"))).isFalse();
    assertThat(idx.mightContain(TextIndex.probe("GET /b"))).isFalse();
    assertThat(idx.mightContain(TextIndex.probe("pointer"))).as("case-sensitive, as the term is").isFalse();
    assertThat(TextIndex.probe("ab")).as("two bytes: nothing to test").isNull();
    assertThat(idx.mightContain(TextIndex.probe("zz"))).isTrue();
    assertThat(idx.trigrams()).isPositive();
  }

  @Test
  void stringsNestedInArrayAndKvlistBodiesAreIndexed() throws Exception {
    AnyValue array = AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addValues(str("first"))
        .addValues(str("connection refused"))).build();
    AnyValue map = AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder().addValues(
        KeyValue.newBuilder().setKey("msg").setValue(str("disk quota exceeded")))).build();
    TextIndex idx = TextIndex.build(logs(List.of(array, map)));
    assertThat(idx.mightContain(TextIndex.probe("refused"))).isTrue();
    assertThat(idx.mightContain(TextIndex.probe("quota exc"))).isTrue();
    assertThat(idx.mightContain(TextIndex.probe("deadlock"))).isFalse();
  }

  @Test
  void spansIndexTheirNameAndStatusMessageAndMetricsGetNoIndex() throws Exception {
    Span span = Span.newBuilder().setTraceId(com.google.protobuf.ByteString.copyFrom(new byte[16]))
        .setSpanId(com.google.protobuf.ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}))
        .setName("SELECT orders").setStartTimeUnixNano(SampleRequests.T0).setEndTimeUnixNano(SampleRequests.T0 + 5)
        .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR).setMessage("deadline exceeded")).build();
    byte[] t = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
        .addScopeSpans(ScopeSpans.newBuilder().addSpans(span))).build().toByteArray();
    TextIndex idx = TextIndex.build(Decoders.decode(Signal.TRACES, t, 0, t.length, SampleRequests.T0));
    assertThat(idx.mightContain(TextIndex.probe("orders"))).isTrue();
    assertThat(idx.mightContain(TextIndex.probe("deadline"))).isTrue();
    assertThat(idx.mightContain(TextIndex.probe("INSERT"))).isFalse();

    byte[] m = ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.newBuilder()
        .addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(Metric.newBuilder().setName("cpu")
            .setGauge(Gauge.newBuilder().addDataPoints(NumberDataPoint.newBuilder()
                .setTimeUnixNano(SampleRequests.T0).setAsDouble(1)))))).build().toByteArray();
    assertThat(TextIndex.build(Decoders.decode(Signal.METRICS, m, 0, m.length, SampleRequests.T0))).isNull();
  }

  @Test
  void pastTheCapThereIsNoIndexAndADamagedFileKnowsNothing() throws Exception {
    Batch b = logs(List.of(str("abcdefghij")));
    assertThat(TextIndex.build(b, 7)).as("8 distinct trigrams over a cap of 7").isNull();
    assertThat(TextIndex.build(b, 8)).isNotNull();

    byte[] file = TextIndex.build(b).toBytes();
    for (int at = 0; at < file.length; at++) {
      byte[] bad = file.clone();
      bad[at] ^= 0x10;
      TextIndex damaged = TextIndex.parse(bad);
      assertThat(damaged.known()).as("flipped byte %d", at).isFalse();
      assertThat(damaged.mightContain(TextIndex.probe("zzzz"))).isTrue();
    }
    assertThat(TextIndex.parse("not a sidecar".getBytes(StandardCharsets.UTF_8)).known()).isFalse();
  }
}
