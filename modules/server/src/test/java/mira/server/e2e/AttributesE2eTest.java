package mira.server.e2e;

import static mira.server.e2e.QueryApiTest.get;
import static mira.server.e2e.QueryApiTest.map;
import static mira.server.e2e.QueryApiTest.obj;
import static mira.server.e2e.QueryApiTest.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/v1/attributes} and {@code POST /api/v1/facets} over what the OpenTelemetry SDK
 * sent: keys at each level with exact counts, and a key's values counted over a filter.
 */
class AttributesE2eTest {
  @TempDir Path data;

  /** 3 frontend spans on /cart; 5 checkout spans, 3 on /checkout and 2 on /pay (one failing); 4 logs with cart.items. */
  static void seed(Node node) {
    try (UiSeed.Service frontend = UiSeed.Service.of(node, "frontend", "fe-1");
        UiSeed.Service checkout = UiSeed.Service.of(node, "checkout", "co-1")) {
      for (int i = 0; i < 3; i++) {
        frontend.tracer().spanBuilder("GET /cart").setAttribute("http.route", "/cart").startSpan().end();
      }
      for (int i = 0; i < 5; i++) {
        Span s = checkout.tracer().spanBuilder("POST").setAttribute("http.route", i < 3 ? "/checkout" : "/pay")
            .setAttribute("http.response.status_code", i == 4 ? 500L : 200L).startSpan();
        if (i == 4) {
          s.setStatus(StatusCode.ERROR, "card declined");
        }
        s.end();
      }
      for (int i = 0; i < 4; i++) {
        checkout.logger().logRecordBuilder().setSeverity(Severity.INFO).setBody("cart " + i)
            .setAttribute(AttributeKey.longKey("cart.items"), i % 2 == 0 ? 3L : 7L).emit();
      }
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void keysAtEachLevelAndTopValuesWithExactCounts() throws Exception {
    try (Node node = new Node(data)) {
      seed(node);

      Map<String, Object> keys = obj(get(node, "/api/v1/attributes?signal=traces&from=-1h"));
      assertThat(keys).containsEntry("signal", "traces").containsEntry("records", "8");
      Map<String, Map<String, Object>> byKey = ((List<Map<String, Object>>) keys.get("attributes")).stream()
          .collect(Collectors.toMap(k -> k.get("level") + " " + k.get("key"), k -> k));
      assertThat(byKey.get("resource service.name")).containsEntry("count", "8")
          .containsEntry("types", List.of("string"));
      assertThat(byKey.get("resource service.instance.id")).containsEntry("count", "8");
      assertThat(byKey.get("record http.route")).containsEntry("count", "8");
      assertThat(byKey.get("record http.response.status_code")).containsEntry("count", "5")
          .containsEntry("types", List.of("int"));
      assertThat(byKey).doesNotContainKey("record cart.items"); // a log key, not a span's
      // Resource keys are listed first.
      assertThat(((List<Map<String, Object>>) keys.get("attributes")).get(0)).containsEntry("level", "resource");

      Map<String, Object> logKeys = obj(get(node, "/api/v1/attributes?signal=logs"));
      assertThat(logKeys).containsEntry("records", "4");
      assertThat((List<Map<String, Object>>) logKeys.get("attributes")).anySatisfy(k -> assertThat(k)
          .containsEntry("key", "cart.items").containsEntry("level", "record").containsEntry("count", "4"));

      Map<String, Object> facets = obj(post(node, "/api/v1/facets", "{\"signal\": \"traces\", \"from\": \"-1h\", "
          + "\"q\": \"service.name=checkout\", \"keys\": [\"http.route\", \"service.name\", \"no.such\"], \"limit\": 1}"));
      assertThat(facets).containsEntry("records", "5").containsEntry("missing", List.of("no.such"));
      List<Map<String, Object>> fs = (List<Map<String, Object>>) facets.get("facets");
      assertThat(fs).extracting(f -> f.get("key") + "/" + f.get("level"))
          .containsExactly("http.route/record", "service.name/resource");
      assertThat(fs.get(0)).containsEntry("count", "5").containsEntry("distinct", "2").containsEntry("other", "2")
          .containsEntry("values", List.of(Map.of("value", "/checkout", "type", "string", "count", "3")));
      assertThat(fs.get(1)).containsEntry("other", "0")
          .containsEntry("values", List.of(Map.of("value", "checkout", "type", "string", "count", "5")));

      // Values keep their type: an int64 attribute is written as text and named int.
      Map<String, Object> codes = obj(post(node, "/api/v1/facets", "{\"signal\": \"traces\", "
          + "\"where\": [{\"field\": \"status_code\", \"eq\": 2}], \"keys\": [\"http.response.status_code\"]}"));
      assertThat(map(((List<Object>) codes.get("facets")).get(0)).get("values"))
          .isEqualTo(List.of(Map.of("value", "500", "type", "int", "count", "1")));

      HttpExchange noKeys = post(node, "/api/v1/facets", "{\"signal\": \"traces\"}");
      assertThat(noKeys.status()).isEqualTo(400);
      assertThat(obj(noKeys).get("error").toString()).contains("keys is required");
      HttpExchange metrics = get(node, "/api/v1/attributes?signal=metrics");
      assertThat(metrics.status()).isEqualTo(400);
      assertThat(obj(metrics).get("error").toString()).contains("/api/v1/metrics");
      HttpExchange unknown = get(node, "/api/v1/attributes?signal=logs&limit=3");
      assertThat(unknown.status()).isEqualTo(400);
      assertThat(obj(unknown).get("error").toString()).contains("\"limit\"");
    }
  }
}
