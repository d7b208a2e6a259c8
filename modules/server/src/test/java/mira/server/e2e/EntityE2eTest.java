package mira.server.e2e;

import static mira.server.e2e.QueryApiTest.map;
import static mira.server.e2e.QueryApiTest.obj;
import static mira.server.e2e.QueryApiTest.post;
import static mira.server.e2e.QueryApiTest.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.SimpleLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Entities end to end: two pods of one service send spans and logs with the OpenTelemetry SDK;
 * every row names its entity, and the entity term sent back to {@code /api/v1/query} returns
 * exactly what that pod sent, across both signals.
 */
@SuppressWarnings("unchecked")
class EntityE2eTest {
  @TempDir Path data;

  /** One pod: a tracer and a logger sharing a resource; a span with a log inside it, and an untraced log. */
  static String emit(Node node, String instance, String podName) throws Exception {
    Resource res = Resource.create(Attributes.builder().put("service.name", "checkout")
        .put("service.instance.id", instance).put("k8s.pod.name", podName).build());
    SdkTracerProvider tracing = SdkTracerProvider.builder().setResource(res)
        .addSpanProcessor(SimpleSpanProcessor.create(
            OtlpHttpSpanExporter.builder().setEndpoint(node.http() + "/v1/traces").build()))
        .build();
    SdkLoggerProvider logging = SdkLoggerProvider.builder().setResource(res)
        .addLogRecordProcessor(SimpleLogRecordProcessor.create(
            OtlpHttpLogRecordExporter.builder().setEndpoint(node.http() + "/v1/logs").build()))
        .build();
    Tracer tracer = tracing.get("entity-test");
    io.opentelemetry.api.logs.Logger logger = logging.get("entity-test");
    Span span = tracer.spanBuilder("GET /cart " + instance).startSpan();
    String traceId = span.getSpanContext().getTraceId();
    try (Scope s = span.makeCurrent()) {
      logger.logRecordBuilder().setSeverity(Severity.INFO).setBody("traced " + instance).emit();
    }
    span.end();
    logger.logRecordBuilder().setSeverity(Severity.ERROR).setBody("untraced " + instance).emit();
    assertThat(tracing.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
    assertThat(logging.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
    tracing.shutdown().join(10, TimeUnit.SECONDS);
    logging.shutdown().join(10, TimeUnit.SECONDS);
    return traceId;
  }

  static String entityOf(Map<String, Object> row) {
    return (String) map(row.get("resource")).get("entity");
  }

  @Test
  void theEntityTermFindsEverythingOnePodSentAndNothingElse() throws Exception {
    try (Node node = new Node(data)) {
      String traceA = emit(node, "pod-a-1", "checkout-a");
      String traceB = emit(node, "pod-b-1", "checkout-b");

      // The untraced error log names its entity; nothing else connects it to pod a's span.
      Map<String, Object> errors = obj(post(node, "/api/v1/query", "{\"signal\": \"logs\", \"where\": ["
          + "{\"text\": \"untraced pod-a-1\"}]}"));
      assertThat(rows(errors)).hasSize(1);
      String a = entityOf(rows(errors).get(0));
      assertThat(a).matches("[0-9a-f]{16}");

      Map<String, Object> spans = obj(post(node, "/api/v1/query", "{\"signal\": \"traces\", \"where\": ["
          + "{\"entity\": \"" + a.toUpperCase(java.util.Locale.ROOT) + "\"}]}"));
      assertThat(rows(spans)).extracting(r -> r.get("name")).containsExactly("GET /cart pod-a-1");
      assertThat(rows(spans).get(0).get("trace_id")).isEqualTo(traceA);
      assertThat(entityOf(rows(spans).get(0))).isEqualTo(a);

      Map<String, Object> logs = obj(post(node, "/api/v1/query", "{\"signal\": \"logs\", \"where\": ["
          + "{\"entity\": \"" + a + "\"}]}"));
      assertThat(rows(logs)).extracting(r -> r.get("body")).containsExactlyInAnyOrder("traced pod-a-1", "untraced pod-a-1");

      Map<String, Object> traced = obj(post(node, "/api/v1/query", "{\"signal\": \"logs\", \"where\": ["
          + "{\"field\": \"trace_id\", \"in\": [\"" + traceA + "\", \"" + traceB + "\"]}]}"));
      assertThat(rows(traced)).extracting(r -> r.get("body")).containsExactlyInAnyOrder("traced pod-a-1", "traced pod-b-1");
      String b = rows(traced).stream().filter(r -> r.get("body").equals("traced pod-b-1"))
          .map(EntityE2eTest::entityOf).findFirst().orElseThrow();
      assertThat(b).isNotEqualTo(a).matches("[0-9a-f]{16}");

      Map<String, Object> both = obj(post(node, "/api/v1/query", "{\"signal\": \"logs\", \"where\": ["
          + "{\"entity\": {\"in\": [\"" + a + "\", \"" + b + "\"]}}]}"));
      assertThat(rows(both)).hasSize(4);

      var bad = post(node, "/api/v1/query", "{\"signal\": \"logs\", \"where\": [{\"entity\": \"abc\"}]}");
      assertThat(bad.status()).isEqualTo(400);
      assertThat(obj(bad).get("error").toString()).contains("where[0].entity").contains("16 hex digits");
      var empty = post(node, "/api/v1/query", "{\"signal\": \"logs\", \"where\": [{\"attr\": \"k\", \"in\": []}]}");
      assertThat(empty.status()).isEqualTo(400);
      assertThat(obj(empty).get("error").toString()).contains("empty");
      List<?> none = rows(obj(post(node, "/api/v1/query", "{\"signal\": \"traces\", \"where\": ["
          + "{\"entity\": \"0123456789abcdef\"}]}")));
      assertThat(none).isEmpty();
    }
  }

  @Test
  void entitiesAndServicesListWhatEachPodSent() throws Exception {
    try (Node node = new Node(data)) {
      emit(node, "pod-a-1", "checkout-a");
      emit(node, "pod-b-1", "checkout-b");
      Map<String, Object> all = obj(post(node, "/api/v1/entities", "{\"from\": \"-1h\", \"to\": \"now\"}"));
      List<Map<String, Object>> entities = (List<Map<String, Object>>) all.get("entities");
      assertThat(entities).hasSize(2);
      for (Map<String, Object> e : entities) {
        assertThat(e.get("entity").toString()).matches("[0-9a-f]{16}");
        assertThat(e).containsEntry("rule", "service.instance").containsEntry("service.name", "checkout");
        assertThat(map(e.get("signals"))).containsEntry("logs", "2").containsEntry("traces", "1")
            .containsEntry("metrics", "0");
        assertThat(map(e.get("identity"))).containsOnlyKeys("service.name", "service.instance.id");
      }
      assertThat(entities).extracting(e -> map(e.get("identity")).get("service.instance.id"))
          .containsExactlyInAnyOrder("pod-a-1", "pod-b-1");
      assertThat(all).containsEntry("truncated", false);
      assertThat(map(all.get("no_identity"))).containsEntry("resources", "0");

      Map<String, Object> one = obj(post(node, "/api/v1/entities", "{\"q\": \"k8s.pod.name=checkout-b\"}"));
      List<Map<String, Object>> b = (List<Map<String, Object>>) one.get("entities");
      assertThat(b).singleElement().satisfies(e ->
          assertThat(map(e.get("identity"))).containsEntry("service.instance.id", "pod-b-1"));
      // The key an entity listing gives selects that pod's rows.
      Map<String, Object> rows = obj(post(node, "/api/v1/query", "{\"signal\": \"logs\", \"q\": \"entity="
          + b.getFirst().get("entity") + "\"}"));
      assertThat(rows(rows)).extracting(r -> r.get("body")).containsExactlyInAnyOrder("traced pod-b-1", "untraced pod-b-1");

      Map<String, Object> services = obj(QueryApiTest.get(node, "/api/v1/services?from=-1h"));
      assertThat((List<Map<String, Object>>) services.get("services")).singleElement().satisfies(s -> {
        assertThat(s).containsEntry("service.name", "checkout").containsEntry("entities", 2L)
            .containsEntry("span_errors", "0");
        assertThat(map(s.get("signals"))).containsEntry("logs", "4").containsEntry("traces", "2");
      });
      var bad = QueryApiTest.get(node, "/api/v1/services?since=-1h");
      assertThat(bad.status()).isEqualTo(400);
      assertThat(obj(bad).get("error").toString()).contains("\"since\"");
      var text = post(node, "/api/v1/entities", "{\"q\": \"checkout\"}");
      assertThat(text.status()).isEqualTo(400);
      assertThat(obj(text)).containsEntry("column", 1L);
    }
  }
}
