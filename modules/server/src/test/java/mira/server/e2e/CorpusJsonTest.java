package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.metrics.v1.Metric;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import mira.block.testing.LogsReadBack;
import mira.block.testing.MetricsReadBack;
import mira.block.testing.TracesReadBack;
import mira.proto.json.OtlpJson;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example requests published with opentelemetry-proto (test resources {@code otlp-examples/},
 * Apache-2.0, see the README there), POSTed as OTLP/JSON to a running node, land in its blocks in
 * full: every record, span and metric the file holds, field by field, and nothing else.
 *
 * <p>The expectation is the file decoded by {@link OtlpJson} (the decoder the receiver uses, pinned
 * against the hex and numbers in the files by the proto module's OtlpExamplesTest) and flattened by
 * the block oracles; a few values are also checked against the files' own text, so the comparison
 * cannot pass on two empty lists or on ids the decoder and the store got wrong together.
 */
class CorpusJsonTest {
  private static final ByteString TRACE_ID = ByteString.copyFrom(HexFormat.of().parseHex("5b8efff798038103d269b633813fc60c"));
  private static final ByteString SPAN_ID = ByteString.copyFrom(HexFormat.of().parseHex("eee19b7ec3c1b174"));

  @TempDir Path data;

  @Test
  void everyExamplePayloadIsStoredInFull() throws Exception {
    Map<String, String> pathOf = new LinkedHashMap<>();
    pathOf.put("logs.json", "/v1/logs");
    pathOf.put("events.json", "/v1/logs");
    pathOf.put("trace.json", "/v1/traces");
    pathOf.put("metrics.json", "/v1/metrics");

    try (Node node = new Node(data); ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
      // All at once: each answer waits for its block (up to the 2 s block age).
      Map<String, Future<HttpExchange>> answers = new LinkedHashMap<>();
      for (Map.Entry<String, String> e : pathOf.entrySet()) {
        byte[] body = example(e.getKey());
        answers.put(e.getKey(), clients.submit(() -> HttpExchange.post(node.http() + e.getValue(), "application/json", null, body)));
      }
      for (Map.Entry<String, Future<HttpExchange>> a : answers.entrySet()) {
        HttpExchange x = a.getValue().get(30, TimeUnit.SECONDS);
        assertThat(x.status()).as(a.getKey() + ": " + x.text()).isEqualTo(200);
        assertThat(x.header("Content-Type")).isEqualTo("application/json");
        assertThat(x.text()).isEqualTo("{}");
      }

      List<LogsReadBack.Flat> expectedLogs = new ArrayList<>();
      for (String file : List.of("logs.json", "events.json")) {
        byte[] json = example(file);
        expectedLogs.addAll(Stored.expectedLogs(OtlpJson.decodeLogs(json, 0, json.length)));
      }
      byte[] traceJson = example("trace.json");
      List<TracesReadBack.Flat> expectedSpans = TracesReadBack.flatten(OtlpJson.decodeTraces(traceJson, 0, traceJson.length));
      byte[] metricsJson = example("metrics.json");
      List<MetricsReadBack.Flat> expectedMetrics = MetricsReadBack.flatten(OtlpJson.decodeMetrics(metricsJson, 0, metricsJson.length));

      List<LogsReadBack.Flat> storedLogs = Stored.logs(node);
      assertThat(storedLogs).containsExactlyInAnyOrderElementsOf(expectedLogs);
      assertThat(storedLogs).hasSize(2);
      assertThat(storedLogs).anySatisfy(f -> {
        assertThat(f.record().getTraceId()).isEqualTo(TRACE_ID);
        assertThat(f.record().getSpanId()).isEqualTo(SPAN_ID);
        assertThat(f.record().getBody().getStringValue()).isEqualTo("Example log record");
        assertThat(f.record().getAttributesList()).hasSize(6);
      });
      assertThat(storedLogs).anySatisfy(f -> {
        assertThat(f.record().getEventName()).isEqualTo("browser.page_view");
        assertThat(f.record().getBody().getKvlistValue().getValuesList()).hasSize(4);
      });

      List<TracesReadBack.Flat> storedSpans = Stored.spans(node);
      assertThat(storedSpans).containsExactlyInAnyOrderElementsOf(expectedSpans);
      assertThat(storedSpans).singleElement().satisfies(f -> {
        assertThat(f.span().getName()).isEqualTo("I'm a server span");
        assertThat(f.span().getTraceId()).isEqualTo(TRACE_ID);
        assertThat(f.span().getSpanId()).isEqualTo(SPAN_ID);
        assertThat(f.span().getEndTimeUnixNano() - f.span().getStartTimeUnixNano()).isEqualTo(1_000_000_000L);
      });

      List<MetricsReadBack.Flat> storedMetrics = Stored.metrics(node);
      assertThat(storedMetrics).containsExactlyInAnyOrderElementsOf(expectedMetrics);
      assertThat(storedMetrics).extracting(f -> f.metric().getDataCase()).containsExactlyInAnyOrder(
          Metric.DataCase.SUM, Metric.DataCase.GAUGE, Metric.DataCase.HISTOGRAM, Metric.DataCase.EXPONENTIAL_HISTOGRAM);
      assertThat(storedMetrics).allSatisfy(f ->
          assertThat(f.resource().getAttributes(0).getValue().getStringValue()).isEqualTo("my.service"));
    }
  }

  private static byte[] example(String name) throws IOException {
    try (InputStream in = CorpusJsonTest.class.getResourceAsStream("/otlp-examples/" + name)) {
      assertThat(in).as("test resource otlp-examples/" + name).isNotNull();
      byte[] bytes = in.readAllBytes();
      assertThat(new String(bytes, StandardCharsets.UTF_8)).startsWith("{");
      return bytes;
    }
  }
}
