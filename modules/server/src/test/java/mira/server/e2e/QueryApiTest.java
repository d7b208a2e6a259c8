package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The query API against a running node: data goes in through the OTLP receivers (the
 * OpenTelemetry SDK for spans, OTLP/JSON for logs and metrics) and comes back out through
 * {@code /api/v1/query}, {@code /api/v1/traces/{id}}, {@code /api/v1/metrics} and
 * {@code /api/v1/series}.
 */
class QueryApiTest {
  private static final JsonFactory JSON = new JsonFactory();

  @TempDir Path data;

  static long nowNanos() {
    Instant t = Instant.now();
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }

  static HttpExchange post(Node node, String path, String body) throws IOException {
    return HttpExchange.post(node.http() + path, "application/json", null, body.getBytes(StandardCharsets.UTF_8));
  }

  static HttpExchange get(Node node, String path) throws IOException {
    return HttpExchange.send("GET", node.http() + path, Map.of(), null, false);
  }

  /** Parses JSON into maps, lists and scalars (strings, Long, Double, Boolean, null). */
  static Object parse(byte[] json) throws IOException {
    try (JsonParser p = JSON.createParser(json)) {
      p.nextToken();
      return value(p);
    }
  }

  private static Object value(JsonParser p) throws IOException {
    switch (p.currentToken()) {
      case START_OBJECT -> {
        Map<String, Object> m = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String k = p.currentName();
          p.nextToken();
          m.put(k, value(p));
        }
        return m;
      }
      case START_ARRAY -> {
        List<Object> l = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          l.add(value(p));
        }
        return l;
      }
      case VALUE_STRING -> {
        return p.getText();
      }
      case VALUE_NUMBER_INT -> {
        return p.getLongValue();
      }
      case VALUE_NUMBER_FLOAT -> {
        return p.getDoubleValue();
      }
      case VALUE_TRUE -> {
        return true;
      }
      case VALUE_FALSE -> {
        return false;
      }
      default -> {
        return null;
      }
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> obj(HttpExchange x) throws IOException {
    return (Map<String, Object>) parse(x.body());
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> rows(Map<String, Object> env) {
    return (List<Map<String, Object>>) env.get("rows");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }

  @Test
  void logsGoInThroughOtlpAndComeBackThroughTheQueryApi() throws Exception {
    try (Node node = new Node(data)) {
      long t = nowNanos() - 60_000_000_000L;
      StringBuilder records = new StringBuilder();
      for (int i = 0; i < 5; i++) {
        if (i > 0) {
          records.append(',');
        }
        records.append("{\"timeUnixNano\": \"").append(t + i).append("\", \"severityNumber\": ").append(i < 2 ? 17 : 9)
            .append(", \"body\": {\"stringValue\": \"request ").append(i).append(i == 3 ? " NullPointerException" : "")
            .append("\"}, \"attributes\": [{\"key\": \"http.response.status_code\", \"value\": {\"intValue\": \"")
            .append(i < 2 ? 503 : 200).append("\"}}]}");
      }
      String export = "{\"resourceLogs\": [{\"resource\": {\"attributes\": [{\"key\": \"service.name\", \"value\": "
          + "{\"stringValue\": \"checkout\"}}]}, \"scopeLogs\": [{\"scope\": {\"name\": \"app\"}, \"logRecords\": ["
          + records + "]}]}]}";
      assertThat(post(node, "/v1/logs", export).status()).isEqualTo(200);

      // An attribute sent as an int, asked for as text and as a number; a resource attribute.
      HttpExchange r = post(node, "/api/v1/query", "{\"signal\": \"logs\", \"where\": ["
          + "{\"attr\": \"http.response.status_code\", \"gte\": \"500\"}, {\"attr\": \"service.name\", \"eq\": \"checkout\"}]}");
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.header("Content-Type")).isEqualTo("application/json");
      Map<String, Object> env = obj(r);
      List<Map<String, Object>> rows = rows(env);
      assertThat(rows).extracting(x -> x.get("body")).containsExactly("request 1", "request 0");
      Map<String, Object> first = rows.get(0);
      assertThat(first.get("time_unix_nano")).isEqualTo(Long.toString(t + 1));
      assertThat(first.get("severity_number")).isEqualTo(17L);
      assertThat(map(first.get("attributes")).get("http.response.status_code")).isEqualTo("503");
      assertThat(map(map(first.get("resource")).get("attributes")).get("service.name")).isEqualTo("checkout");
      assertThat(map(first.get("scope")).get("name")).isEqualTo("app");
      assertThat(env).doesNotContainKey("next");
      assertThat(map(env.get("stats"))).containsKeys("blocks_total", "blocks_scanned", "rows_scanned", "rows_matched",
          "took_ms");

      // Text search, and paging with ties resolved by the cursor.
      Map<String, Object> text = obj(post(node, "/api/v1/query",
          "{\"signal\": \"logs\", \"where\": [{\"text\": \"NullPointer\"}]}"));
      assertThat(rows(text)).extracting(x -> x.get("body")).containsExactly("request 3 NullPointerException");
      List<Object> bodies = new ArrayList<>();
      String after = null;
      for (int page = 0; page < 10; page++) {
        Map<String, Object> p = obj(post(node, "/api/v1/query", "{\"signal\": \"logs\", \"limit\": 2"
            + (after == null ? "" : ", \"after\": \"" + after + "\"") + "}"));
        rows(p).forEach(x -> bodies.add(x.get("body")));
        after = (String) p.get("next");
        if (after == null) {
          break;
        }
      }
      assertThat(bodies).containsExactly("request 4", "request 3 NullPointerException", "request 2", "request 1",
          "request 0");
    }
  }

  /**
   * Sends one trace through the OpenTelemetry SDK over OTLP/HTTP: a server span "GET /cart" of
   * service checkout and its child "db.query", which records a NullPointerException and ends with
   * status ERROR "boom". Returns the trace id once the export was acknowledged.
   */
  static String sendCartTrace(Node node) {
    SdkTracerProvider tracing = SdkTracerProvider.builder()
        .setResource(Resource.create(Attributes.builder().put("service.name", "checkout").build()))
        .addSpanProcessor(SimpleSpanProcessor.create(
            OtlpHttpSpanExporter.builder().setEndpoint(node.http() + "/v1/traces").build()))
        .build();
    Tracer tracer = tracing.get("test");
    Span root = tracer.spanBuilder("GET /cart").setSpanKind(SpanKind.SERVER).startSpan();
    String traceId = root.getSpanContext().getTraceId();
    try (Scope s = root.makeCurrent()) {
      Span child = tracer.spanBuilder("db.query").startSpan();
      child.recordException(new NullPointerException("cart is null"));
      child.setStatus(StatusCode.ERROR, "boom");
      child.end();
    }
    root.end();
    assertThat(tracing.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
    tracing.shutdown();
    return traceId;
  }

  @Test
  void spansFromTheSdkAreFoundByAnEventAttributeAndByTraceId() throws Exception {
    try (Node node = new Node(data)) {
      String traceId = sendCartTrace(node);

      // exception.type lives on the span's event: a child-level match selects the span.
      Map<String, Object> found = obj(post(node, "/api/v1/query", "{\"signal\": \"traces\", \"where\": ["
          + "{\"attr\": \"exception.type\", \"eq\": \"java.lang.NullPointerException\"}]}"));
      assertThat(rows(found)).hasSize(1);
      Map<String, Object> span = rows(found).get(0);
      assertThat(span.get("name")).isEqualTo("db.query");
      assertThat(span.get("trace_id")).isEqualTo(traceId);
      assertThat(map(span.get("status"))).containsEntry("code", 2L).containsEntry("message", "boom");
      assertThat((List<?>) span.get("events")).hasSize(1);

      Map<String, Object> trace = obj(get(node, "/api/v1/traces/" + traceId.toUpperCase(java.util.Locale.ROOT)));
      assertThat(rows(trace)).extracting(x -> x.get("name")).containsExactly("GET /cart", "db.query");
      assertThat(trace.get("trace_id")).isEqualTo(traceId);

      // The compact shape: the same spans, the SDK's one resource and one scope listed once.
      HttpExchange compact = get(node, "/api/v1/traces/" + traceId + "?shape=compact");
      assertThat(compact.status()).isEqualTo(200);
      Map<String, Object> c = obj(compact);
      assertThat(c).containsEntry("shape", "compact").containsEntry("trace_id", traceId);
      assertThat((List<?>) c.get("resources")).hasSize(1);
      assertThat((List<?>) c.get("scopes")).hasSize(1);
      assertThat(rows(c)).allSatisfy(r -> assertThat(r).containsEntry("resource", 0L).containsEntry("scope", 0L)
          .doesNotContainKey("trace_id"));
      assertThat(mira.client.ResultReader.trace(compact.body()).spans())
          .isEqualTo(mira.client.ResultReader.trace(get(node, "/api/v1/traces/" + traceId + "?shape=full").body()).spans());
      assertThat(compact.body().length).isLessThan(get(node, "/api/v1/traces/" + traceId).body().length);
      HttpExchange badShape = get(node, "/api/v1/traces/" + traceId + "?shape=columns");
      assertThat(badShape.status()).isEqualTo(400);
      assertThat(obj(badShape).get("error").toString()).contains("\"full\" or \"compact\"");

      HttpExchange bad = get(node, "/api/v1/traces/not-a-trace-id");
      assertThat(bad.status()).isEqualTo(400);
      assertThat(obj(bad).get("error").toString()).contains("32 hex digits");
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void metricNamesAndSeries() throws Exception {
    try (Node node = new Node(data)) {
      long t = nowNanos() - 30_000_000_000L;
      String export = "{\"resourceMetrics\": [{\"resource\": {\"attributes\": [{\"key\": \"service.name\", \"value\": "
          + "{\"stringValue\": \"checkout\"}}]}, \"scopeMetrics\": [{\"metrics\": ["
          + "{\"name\": \"http.server.duration\", \"unit\": \"ms\", \"histogram\": {\"aggregationTemporality\": 2, "
          + "\"dataPoints\": [{\"timeUnixNano\": \"" + t + "\", \"count\": \"4\", \"sum\": 12.5, \"bucketCounts\": [\"4\"]}]}},"
          + "{\"name\": \"queue.depth\", \"unit\": \"1\", \"description\": \"items waiting\", \"gauge\": {\"dataPoints\": ["
          + "{\"timeUnixNano\": \"" + t + "\", \"asInt\": \"7\", \"attributes\": [{\"key\": \"queue\", \"value\": "
          + "{\"stringValue\": \"a\"}}]}]}}]}]}]}";
      assertThat(post(node, "/v1/metrics", export).status()).isEqualTo(200);

      Map<String, Object> names = obj(get(node, "/api/v1/metrics?from=-1h&to=now"));
      Map<String, Object> duration = new java.util.HashMap<>(Map.of("name", "http.server.duration", "type", "histogram",
          "unit", "ms", "description", "", "temporality", "cumulative", "attribute_keys", List.of(),
          "bounds", List.of(List.of())));
      duration.put("monotonic", null);
      Map<String, Object> depth = new java.util.HashMap<>(Map.of("name", "queue.depth", "type", "gauge", "unit", "1",
          "description", "items waiting", "attribute_keys", List.of("queue"), "bounds", List.of()));
      depth.put("monotonic", null);
      depth.put("temporality", null);
      assertThat((List<Object>) names.get("metrics")).containsExactly(duration, depth);
      // Filter text selects metrics by their points; a text search has no meaning for metrics.
      assertThat((List<Object>) obj(get(node, "/api/v1/metrics?from=-1h&to=now&q=queue%3Da")).get("metrics"))
          .containsExactly(depth);
      assertThat(get(node, "/api/v1/metrics?q=timeout").status()).isEqualTo(400);

      Map<String, Object> count = obj(post(node, "/api/v1/series", "{\"name\": \"http.server.duration.count\"}"));
      List<?> series = (List<?>) count.get("series");
      assertThat(series).hasSize(1);
      assertThat(map(series.get(0)).get("name")).isEqualTo("http.server.duration.count");
      assertThat((List<Object>) map(series.get(0)).get("points"))
          .containsExactly(Map.of("time_unix_nano", Long.toString(t), "value", "4"));

      Map<String, Object> gauge = obj(post(node, "/api/v1/series",
          "{\"name\": \"queue.depth\", \"where\": [{\"attr\": \"queue\", \"eq\": \"a\"}], \"max_points\": 10}"));
      assertThat(map(((List<?>) gauge.get("series")).get(0)).get("attributes")).isEqualTo(Map.of("queue", "a"));
      assertThat(map(gauge.get("stats")).get("dropped_series")).isEqualTo("0");

      HttpExchange unknown = get(node, "/api/v1/metrics?since=-1h");
      assertThat(unknown.status()).isEqualTo(400);
      assertThat(obj(unknown).get("error").toString()).contains("\"since\"").contains("from, to");
    }
  }

  @Test
  void badRequestsAreRefusedWithAJsonError() throws Exception {
    try (Node node = new Node(data)) {
      HttpExchange unknownKey = post(node, "/api/v1/query", "{\"signal\": \"logs\", \"filters\": []}");
      assertThat(unknownKey.status()).isEqualTo(400);
      assertThat(unknownKey.header("Content-Type")).isEqualTo("application/json");
      assertThat(obj(unknownKey).get("error").toString()).contains("\"filters\"")
          .contains("signal, from, to, where, q, limit, after");

      assertThat(post(node, "/api/v1/query", "{\"signal\": \"logs\", \"limit\": 0}").status()).isEqualTo(400);
      assertThat(post(node, "/api/v1/query", "not json").status()).isEqualTo(400);
      assertThat(post(node, "/api/v1/series", "{\"name\": \"x\", \"limit\": 1}").status()).isEqualTo(400);

      HttpExchange gzip = HttpExchange.post(node.http() + "/api/v1/query", "application/json", "gzip",
          new byte[] {31, -117, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0});
      assertThat(gzip.status()).isEqualTo(415);
      assertThat(obj(gzip).get("error").toString()).contains("Content-Encoding").contains("identity");
      HttpExchange identity = HttpExchange.post(node.http() + "/api/v1/query", "application/json", "identity",
          "{\"signal\": \"logs\"}".getBytes(StandardCharsets.UTF_8));
      assertThat(identity.status()).isEqualTo(200);

      HttpExchange wrongMethod = get(node, "/api/v1/query");
      assertThat(wrongMethod.status()).isEqualTo(405);
      assertThat(wrongMethod.header("Allow")).isEqualTo("POST");

      byte[] huge = new byte[(1 << 20) + 10];
      java.util.Arrays.fill(huge, (byte) ' ');
      HttpExchange tooLarge = HttpExchange.post(node.http() + "/api/v1/query", "application/json", null, huge);
      assertThat(tooLarge.status()).isEqualTo(413);

      // The node still answers after every refusal.
      assertThat(post(node, "/api/v1/query", "{\"signal\": \"traces\"}").status()).isEqualTo(200);
    }
  }
}
