package mira.server.e2e;

import static mira.server.e2e.McpClientTest.runClient;
import static mira.server.e2e.QueryApiTest.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Answers sized for an agent, through the official client: a 5,000-span trace comes back as a
 * summary and the top of its tree, long log bodies are cut with a marker, a page over its budget
 * keeps the rows that fit and its cursor reads on from the last of them — and each cut says how
 * to get the rest, which the test then does.
 */
class McpBudgetTest {
  @TempDir Path data;

  @BeforeAll
  static void installClient() throws Exception {
    McpClientTest.installClient();
  }

  private static SdkTracerProvider tracing(Node node, String service) {
    return SdkTracerProvider.builder()
        .setResource(Resource.create(Attributes.builder().put("service.name", service).build()))
        .addSpanProcessor(BatchSpanProcessor.builder(
            OtlpHttpSpanExporter.builder().setEndpoint(node.http() + "/v1/traces").build())
            .setMaxQueueSize(10_000).setMaxExportBatchSize(1_000).build())
        .build();
  }

  /** frontend's root, 49 checkout calls under it, each with 101 payment spans under it: 4,999 spans. */
  private static String bigTrace(Node node) {
    SdkTracerProvider front = tracing(node, "frontend");
    SdkTracerProvider back = tracing(node, "checkout");
    SdkTracerProvider pay = tracing(node, "payment");
    Tracer f = front.get("t");
    Tracer c = back.get("t");
    Tracer p = pay.get("t");
    Span root = f.spanBuilder("GET /checkout").startSpan();
    Context rootCtx = Context.current().with(root);
    for (int i = 0; i < 49; i++) {
      Span call = c.spanBuilder("checkout " + i).setParent(rootCtx).startSpan();
      Context callCtx = rootCtx.with(call);
      for (int j = 0; j < 101; j++) {
        Span charge = p.spanBuilder("charge " + i + "." + j).setParent(callCtx).startSpan();
        if (i == 7 && j == 3) {
          charge.setStatus(StatusCode.ERROR, "card declined");
        }
        charge.end();
      }
      call.end();
    }
    root.end();
    for (SdkTracerProvider t : List.of(pay, back, front)) {
      assertThat(t.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
      t.shutdown().join(10, TimeUnit.SECONDS);
    }
    return root.getSpanContext().getTraceId();
  }

  private static void longLogs(Node node, int n, int bodyChars) {
    SdkLoggerProvider l = SdkLoggerProvider.builder()
        .setResource(Resource.create(Attributes.builder().put("service.name", "payment").build()))
        .addLogRecordProcessor(BatchLogRecordProcessor.builder(
            OtlpHttpLogRecordExporter.builder().setEndpoint(node.http() + "/v1/logs").build()).build())
        .build();
    for (int i = 0; i < n; i++) {
      l.get("t").logRecordBuilder().setBody("line " + i + " " + "s".repeat(bodyChars)).emit();
    }
    assertThat(l.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
    l.shutdown().join(10, TimeUnit.SECONDS);
  }

  private static String text(Map<String, Object> result) {
    return (String) map(((List<?>) result.get("content")).get(0)).get("text");
  }

  @Test
  @SuppressWarnings("unchecked")
  void aBigTraceIsASummaryAndTheTopOfItsTreeAndMaxSpansGetsTheRest() throws Exception {
    try (Node node = new Node(data)) {
      String id = bigTrace(node);
      Map<String, Object> seen = runClient(node, "["
          + "{\"name\": \"get_trace\", \"arguments\": {\"trace_id\": \"" + id + "\"}},"
          + "{\"name\": \"get_trace\", \"arguments\": {\"trace_id\": \"" + id + "\", \"max_spans\": 5000, \"max_tokens\": 0}},"
          + "{\"name\": \"get_trace\", \"arguments\": {\"trace_id\": \"" + id + "\", \"service\": \"checkout\", \"max_spans\": 100}}]");
      List<Map<String, Object>> results = (List<Map<String, Object>>) seen.get("results");

      Map<String, Object> first = results.get(0);
      String line = text(first);
      assertThat(line.length()).as("the text an agent reads fits the default budget (8,000 tokens at 3 characters)")
          .isLessThanOrEqualTo(24_000 + 1_000);
      Map<String, Object> doc = map(first.get("structuredContent"));
      Map<String, Object> summary = map(doc.get("summary"));
      assertThat(summary).containsEntry("spans", 4999L).containsEntry("errors", 1L);
      assertThat((List<Map<String, Object>>) summary.get("services")).extracting(s -> s.get("service") + " " + s.get("spans"))
          .containsExactly("checkout 49", "frontend 1", "payment 4949");
      assertThat((List<Map<String, Object>>) summary.get("error_spans")).singleElement()
          .satisfies(e -> assertThat(e).containsEntry("name", "charge 7.3").containsEntry("origin", true));
      assertThat((List<Map<String, Object>>) summary.get("critical_path")).first()
          .satisfies(s -> assertThat(s).containsEntry("name", "GET /checkout"));
      List<Map<String, Object>> rows = (List<Map<String, Object>>) doc.get("rows");
      assertThat(rows).isNotEmpty().hasSizeLessThanOrEqualTo(50);
      assertThat(rows.get(0)).containsEntry("name", "GET /checkout").containsEntry("depth", 0L);
      assertThat(rows.get(1)).containsEntry("name", "checkout 0").containsEntry("depth", 1L);
      assertThat(rows.get(2)).containsEntry("name", "charge 0.0").containsEntry("depth", 2L);
      assertThat(line).startsWith("4999 spans in 3 services, 1 with errors; listed the first 50 of 4999 in tree order "
          + "(max_spans=4999 lists all)");

      Map<String, Object> all = map(results.get(1).get("structuredContent"));
      assertThat((List<?>) all.get("rows")).hasSize(4999);
      assertThat(all).doesNotContainKey("cut");
      assertThat(text(results.get(1))).startsWith("4999 spans in 3 services, 1 with errors; listed all in tree order");

      Map<String, Object> checkout = map(results.get(2).get("structuredContent"));
      assertThat((List<Map<String, Object>>) checkout.get("rows")).isNotEmpty()
          .allSatisfy(r -> assertThat(r).containsEntry("service", "checkout"));
      assertThat(checkout).containsEntry("spans_matching", 49L);
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void longBodiesAreCutWithAMarkerAndAPageOverItsBudgetReadsOnFromItsLastRow() throws Exception {
    try (Node node = new Node(data)) {
      longLogs(node, 30, 3_000);
      Map<String, Object> seen = runClient(node, "["
          + "{\"name\": \"query_records\", \"arguments\": {\"signal\": \"logs\", \"from\": \"-1h\"}},"
          + "{\"name\": \"query_records\", \"arguments\": {\"signal\": \"logs\", \"from\": \"-1h\", \"limit\": 30,"
          + " \"max_value_chars\": 0, \"max_tokens\": 10000}}]");
      List<Map<String, Object>> results = (List<Map<String, Object>>) seen.get("results");

      Map<String, Object> cutValues = map(results.get(0).get("structuredContent"));
      List<Map<String, Object>> rows = (List<Map<String, Object>>) cutValues.get("rows");
      assertThat(rows).hasSize(20);
      assertThat((String) rows.get(0).get("body")).hasSize(500 + "…[cut: 2508 of 3008 characters]".length())
          .endsWith("…[cut: 2508 of 3008 characters]");
      assertThat(map(cutValues.get("cut"))).containsEntry("values_cut", 20L)
          .containsEntry("values_rest", "max_value_chars=3008 keeps every value whole");
      assertThat(text(results.get(0))).contains("CUT: 20 long values cut at 500 characters");
      assertThat(rows.get(0)).as("empty members are left out").doesNotContainKeys("trace_id", "severity_text", "event_name");

      Map<String, Object> page = map(results.get(1).get("structuredContent"));
      List<Map<String, Object>> kept = (List<Map<String, Object>>) page.get("rows");
      assertThat(kept.size()).as("30 whole bodies of 3 KB do not fit 30,000 characters").isBetween(1, 9);
      Map<String, Object> cut = map(page.get("cut"));
      assertThat(cut).containsEntry("rows_kept", (long) kept.size()).containsEntry("rows_left_out", 30L - kept.size());
      String after = (String) page.get("next");
      assertThat((String) cut.get("rows_rest")).isEqualTo("call again with after=" + after + " for the rest");
      assertThat((String) kept.get(0).get("body")).hasSize(3008);

      // What the cut names gets the rest: the next page starts right after the last row kept.
      Map<String, Object> more = runClient(node, "[{\"name\": \"query_records\", \"arguments\": {\"signal\": \"logs\","
          + " \"from\": \"-1h\", \"limit\": 30, \"max_tokens\": 0, \"max_value_chars\": 0, \"after\": \"" + after + "\"}}]");
      List<Map<String, Object>> rest = (List<Map<String, Object>>) map(
          ((List<Map<String, Object>>) more.get("results")).get(0).get("structuredContent")).get("rows");
      assertThat(rest).hasSize(30 - kept.size());
      List<Object> bodies = new java.util.ArrayList<>();
      for (Map<String, Object> r : kept) {
        bodies.add(((String) r.get("body")).substring(0, 8).trim());
      }
      for (Map<String, Object> r : rest) {
        bodies.add(((String) r.get("body")).substring(0, 8).trim());
      }
      assertThat(bodies).as("every line once").doesNotHaveDuplicates().hasSize(30);
    }
  }
}
