package mira.server.e2e;

import static mira.server.e2e.QueryApiTest.obj;
import static mira.server.e2e.QueryApiTest.post;
import static mira.server.e2e.QueryApiTest.rows;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The filter text through the real server: {@code q} beside {@code where} on /api/v1/query, the
 * negation a filter bar needs ({@code entity!=...}, {@code -k?}), /api/v1/filter in both
 * directions, and a malformed {@code q} answered 400 with its column.
 */
class FilterTextE2eTest {
  @TempDir Path data;

  @Test
  void qSelectsLikeWhereAndTheFilterRouteTranslatesBothWays() throws Exception {
    try (Node node = new Node(data)) {
      EntityE2eTest.emit(node, "pod-a-1", "checkout-a");
      EntityE2eTest.emit(node, "pod-b-1", "checkout-b");
      String a = EntityE2eTest.entityOf(rows(obj(post(node, "/api/v1/query",
          "{\"signal\": \"logs\", \"q\": \"\\\"untraced pod-a-1\\\"\"}"))).getFirst());

      // Every untraced log but pod a's: a text term, a negated entity and a negated field.
      Map<String, Object> others = obj(post(node, "/api/v1/query", "{\"signal\": \"logs\", \"q\": \"untraced entity!="
          + a + "\"}"));
      assertThat(rows(others)).extracting(r -> r.get("body")).containsExactly("untraced pod-b-1");
      Map<String, Object> traced = obj(post(node, "/api/v1/query",
          "{\"signal\": \"logs\", \"where\": [{\"attr\": \"service.name\", \"eq\": \"checkout\"}], \"q\": \"trace_id?\"}"));
      assertThat(rows(traced)).extracting(r -> r.get("body")).containsExactlyInAnyOrder("traced pod-a-1", "traced pod-b-1");
      Map<String, Object> untraced = obj(post(node, "/api/v1/query",
          "{\"signal\": \"logs\", \"q\": \"-trace_id? severity_number>=17\"}"));
      assertThat(rows(untraced)).extracting(r -> r.get("body"))
          .containsExactlyInAnyOrder("untraced pod-a-1", "untraced pod-b-1");
      Map<String, Object> spans = obj(post(node, "/api/v1/query",
          "{\"signal\": \"traces\", \"q\": \"name~GET k8s.pod.name!=checkout-a\"}"));
      assertThat(rows(spans)).extracting(r -> r.get("name")).containsExactly("GET /cart pod-b-1");

      Map<String, Object> terms = obj(post(node, "/api/v1/filter",
          "{\"signal\": \"traces\", \"q\": \"  -service.name=checkout   name~GET \\\"a b\\\"=[1,x]\"}"));
      assertThat(terms.get("q")).isEqualTo("service.name!=checkout name~GET \"a b\"=[1,x]");
      assertThat(terms.get("where")).isEqualTo(List.of(
          Map.of("not", Map.of("attr", "service.name", "eq", "checkout")),
          Map.of("field", "name", "contains", "GET"),
          Map.of("attr", "a b", "in", List.of(1L, "x"))));
      Map<String, Object> text = obj(post(node, "/api/v1/filter",
          "{\"where\": [{\"field\": \"severity_number\", \"gte\": 17}, {\"attr\": \"k\", \"exists\": false},"
              + " {\"not\": {\"text\": \"boom\"}}]}"));
      assertThat(text.get("q")).isEqualTo("severity_number>=17 -k? -boom");

      var bad = post(node, "/api/v1/query", "{\"signal\": \"logs\", \"q\": \"service.name=checkout code>\"}");
      assertThat(bad.status()).isEqualTo(400);
      assertThat(obj(bad)).containsEntry("column", 28L)
          .containsEntry("error", "q: column 28: expected a value after >");
      var twice = post(node, "/api/v1/filter", "{\"q\": \"a=1\", \"where\": []}");
      assertThat(twice.status()).isEqualTo(400);
      assertThat(obj(twice).get("error").toString()).contains("one of the two");
      var notNot = post(node, "/api/v1/query", "{\"signal\": \"logs\", \"where\": [{\"not\": {\"not\": {\"text\": \"x\"}}}]}");
      assertThat(notNot.status()).isEqualTo(400);
      assertThat(obj(notNot).get("error").toString()).contains("where[0].not: not over not");
    }
  }
}
