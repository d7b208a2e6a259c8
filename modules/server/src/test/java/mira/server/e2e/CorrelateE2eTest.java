package mira.server.e2e;

import static mira.server.e2e.QueryApiTest.map;
import static mira.server.e2e.QueryApiTest.obj;
import static mira.server.e2e.QueryApiTest.post;
import static mira.server.e2e.QueryApiTest.rows;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.helidon.webserver.WebServer;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.SimpleLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.StringWriter;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Correlation end to end with the OpenTelemetry SDK: a frontend calls a backend over real HTTP
 * with the W3C trace context propagated; the backend logs a traced error inside its server span
 * and, later, an untraced one. Correlating from the untraced log with {@code around} finds the
 * backend's spans; from the traced error with {@code traces, peers} finds both services; and each
 * answer's {@code queries}, sent unchanged, return the frame's records.
 */
@SuppressWarnings("unchecked")
class CorrelateE2eTest {
  @TempDir Path data;

  /** One service's tracer and logger, exporting to Mira over OTLP/HTTP. */
  record Service(SdkTracerProvider tracing, SdkLoggerProvider logging, Tracer tracer, Logger logger)
      implements AutoCloseable {
    static Service of(Node node, String name, String instance) {
      Resource res = Resource.create(Attributes.builder().put("service.name", name)
          .put("service.instance.id", instance).build());
      SdkTracerProvider t = SdkTracerProvider.builder().setResource(res).addSpanProcessor(SimpleSpanProcessor.create(
          OtlpHttpSpanExporter.builder().setEndpoint(node.http() + "/v1/traces").build())).build();
      SdkLoggerProvider l = SdkLoggerProvider.builder().setResource(res).addLogRecordProcessor(
          SimpleLogRecordProcessor.create(OtlpHttpLogRecordExporter.builder()
              .setEndpoint(node.http() + "/v1/logs").build())).build();
      return new Service(t, l, t.get("correlate-test"), l.get("correlate-test"));
    }

    @Override
    public void close() {
      assertThat(tracing.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
      assertThat(logging.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
      tracing.shutdown().join(10, TimeUnit.SECONDS);
      logging.shutdown().join(10, TimeUnit.SECONDS);
    }
  }

  static final TextMapGetter<io.helidon.webserver.http.ServerRequest> HEADERS = new TextMapGetter<>() {
    @Override
    public Iterable<String> keys(io.helidon.webserver.http.ServerRequest r) {
      return List.of("traceparent", "tracestate");
    }

    @Override
    public String get(io.helidon.webserver.http.ServerRequest r, String key) {
      return r == null ? null : r.headers().first(io.helidon.http.HeaderNames.create(key)).orElse(null);
    }
  };

  @Test
  void framesFromAnUntracedAndATracedLogFindThePodsSpansAndBothServices() throws Exception {
    try (Node node = new Node(data)) {
      String traceId;
      try (Service frontend = Service.of(node, "frontend", "fe-1"); Service backend = Service.of(node, "backend", "be-1")) {
        WebServer server = WebServer.builder().host("127.0.0.1").port(0).routing(r -> r.get("/cart", (req, res) -> {
          Context parent = W3CTraceContextPropagator.getInstance().extract(Context.root(), req, HEADERS);
          Span span = backend.tracer().spanBuilder("GET /cart").setParent(parent).setSpanKind(SpanKind.SERVER)
              .startSpan();
          try (Scope s = span.makeCurrent()) {
            backend.logger().logRecordBuilder().setSeverity(Severity.ERROR).setBody("traced boom").emit();
            Span db = backend.tracer().spanBuilder("SELECT carts").setSpanKind(SpanKind.CLIENT)
                .setAttribute("db.system", "postgresql").setAttribute("db.namespace", "shop").startSpan();
            db.end();
            span.setStatus(StatusCode.ERROR);
          } finally {
            span.end();
          }
          res.send("ok");
        })).build().start();
        try {
          Span client = frontend.tracer().spanBuilder("call cart").setSpanKind(SpanKind.CLIENT).startSpan();
          traceId = client.getSpanContext().getTraceId();
          try (Scope s = client.makeCurrent()) {
            HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + server.port() + "/cart").toURL()
                .openConnection();
            W3CTraceContextPropagator.getInstance().inject(Context.current(), c, HttpURLConnection::setRequestProperty);
            assertThat(c.getResponseCode()).isEqualTo(200);
            c.getInputStream().readAllBytes();
          } finally {
            client.end();
          }
        } finally {
          server.stop();
        }
        backend.logger().logRecordBuilder().setSeverity(Severity.ERROR).setBody("untraced boom").emit();
      }

      // From the untraced log: the pod's records around it, which include its server span.
      Map<String, Object> around = obj(post(node, "/api/v1/correlate", "{\"anchor\": {\"signal\": \"logs\", "
          + "\"q\": \"\\\"untraced boom\\\"\"}, \"expand\": [{\"around\": \"30s\"}]}"));
      Map<String, Object> frame = map(around.get("frame"));
      assertThat(around).containsEntry("anchor_rows", 1L);
      List<Map<String, Object>> entities = (List<Map<String, Object>>) frame.get("entities");
      assertThat(entities).singleElement().satisfies(e -> {
        assertThat(e).containsEntry("service.name", "backend");
        assertThat(map(e.get("identity"))).containsEntry("service.instance.id", "be-1");
      });
      assertThat((List<?>) frame.get("traces")).isEmpty();
      Map<String, Object> queries = map(around.get("queries"));
      List<Map<String, Object>> podSpans = rows(obj(post(node, "/api/v1/query", json(queries.get("traces")))));
      assertThat(podSpans).extracting(r -> r.get("name")).containsExactlyInAnyOrder("GET /cart", "SELECT carts");
      List<Map<String, Object>> podLogs = rows(obj(post(node, "/api/v1/query", json(queries.get("logs")))));
      assertThat(podLogs).extracting(r -> r.get("body")).containsExactlyInAnyOrder("traced boom", "untraced boom");

      // From the traced error: its trace, then everyone in it.
      Map<String, Object> walk = obj(post(node, "/api/v1/correlate", "{\"anchor\": {\"signal\": \"logs\", "
          + "\"q\": \"\\\"traced boom\\\"\"}, \"expand\": [\"traces\", \"peers\"]}"));
      Map<String, Object> wf = map(walk.get("frame"));
      assertThat((List<Object>) wf.get("traces")).containsExactly(traceId);
      assertThat((List<Map<String, Object>>) wf.get("entities")).extracting(e -> e.get("service.name"))
          .containsExactlyInAnyOrder("frontend", "backend");
      Map<String, Object> wq = map(walk.get("queries"));
      assertThat(rows(obj(post(node, "/api/v1/query", json(wq.get("traces")))))).extracting(r -> r.get("name"))
          .containsExactlyInAnyOrder("call cart", "GET /cart", "SELECT carts");

      // The map: frontend calls backend, which calls a database that sends no spans.
      Map<String, Object> m = obj(post(node, "/api/v1/map", "{\"from\": \"-1h\"}"));
      List<Map<String, Object>> edges = (List<Map<String, Object>>) m.get("edges");
      assertThat(edges).extracting(e -> e.get("from") + ">" + e.get("to") + ">" + e.get("kind"))
          .containsExactly("backend>postgresql shop>rpc", "frontend>backend>rpc");
      assertThat(edges.get(1)).containsEntry("calls", "1").containsEntry("errors", "1");
      assertThat(((Number) edges.get(1).get("p50_ms")).doubleValue()).isGreaterThan(0);
      List<Map<String, Object>> nodes = (List<Map<String, Object>>) m.get("nodes");
      assertThat(nodes).extracting(n -> n.get("service") + ":" + n.get("virtual"))
          .containsExactly("backend:false", "frontend:false", "postgresql shop:true");
      assertThat(nodes.get(0)).containsEntry("spans", "2").containsEntry("errors", "1").containsEntry("entities", 1L);
      // Over the backend pod's frame: only its spans count; the frontend is there as the caller, with none.
      Map<String, Object> framed = obj(post(node, "/api/v1/map", "{\"frame\": " + json(frame) + "}"));
      assertThat((List<Map<String, Object>>) framed.get("nodes"))
          .extracting(n -> n.get("service") + ":" + n.get("spans"))
          .containsExactly("backend:2", "frontend:0", "postgresql shop:1");
      assertThat(rows(obj(post(node, "/api/v1/query", json(wq.get("logs")))))).extracting(r -> r.get("body"))
          .containsExactly("traced boom");
      assertThat(map(walk.get("truncated"))).containsEntry("traces", false).containsEntry("entities", false);

      // Closure: the frame goes back in, and a walk continues from it.
      Map<String, Object> wider = obj(post(node, "/api/v1/correlate", "{\"frame\": " + json(wf)
          + ", \"expand\": [{\"around\": \"1s\"}]}"));
      Map<String, Object> w2 = map(wider.get("frame"));
      assertThat(Long.parseLong((String) w2.get("from"))).isEqualTo(Long.parseLong((String) wf.get("from")) - 1_000_000_000L);
      assertThat(w2.get("entities")).isEqualTo(wf.get("entities"));
      assertThat(w2.get("traces")).isEqualTo(wf.get("traces"));
      Map<String, Object> same = obj(post(node, "/api/v1/correlate", "{\"frame\": " + json(wf) + "}"));
      assertThat(same.get("frame")).isEqualTo(wf);
      // From the pod frame (no traces), "traces" finds the traces of the pod's records.
      Map<String, Object> podTraces = obj(post(node, "/api/v1/correlate", "{\"frame\": " + json(frame)
          + ", \"expand\": [\"traces\", \"peers\"]}"));
      assertThat((List<Object>) map(podTraces.get("frame")).get("traces")).containsExactly(traceId);

      var peersFirst = post(node, "/api/v1/correlate", "{\"anchor\": {\"signal\": \"logs\", \"q\": \"untraced\"}, "
          + "\"expand\": [\"peers\"]}");
      assertThat(peersFirst.status()).isEqualTo(400);
      assertThat(obj(peersFirst).get("error").toString()).contains("put \"traces\" before \"peers\"");
      var nothing = post(node, "/api/v1/correlate", "{\"anchor\": {\"signal\": \"logs\", \"q\": \"no-such-text\"}}");
      assertThat(nothing.status()).isEqualTo(400);
      assertThat(obj(nothing).get("error").toString()).contains("nothing to correlate from");
      var badAnchor = post(node, "/api/v1/correlate", "{\"anchor\": {\"signal\": \"logs\", \"q\": \"k=\"}}");
      assertThat(badAnchor.status()).isEqualTo(400);
      assertThat(obj(badAnchor).get("error").toString()).startsWith("anchor: q: column 3");
      var both = post(node, "/api/v1/correlate", "{\"frame\": " + json(wf) + ", \"anchor\": {\"signal\": \"logs\"}}");
      assertThat(both.status()).isEqualTo(400);
    }
  }

  /** A parsed JSON value written back as JSON. */
  static String json(Object v) throws Exception {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
      write(g, v);
    }
    return out.toString();
  }

  private static void write(JsonGenerator g, Object v) throws Exception {
    switch (v) {
      case null -> g.writeNull();
      case Map<?, ?> m -> {
        g.writeStartObject();
        for (Map.Entry<?, ?> e : m.entrySet()) {
          g.writeFieldName((String) e.getKey());
          write(g, e.getValue());
        }
        g.writeEndObject();
      }
      case List<?> l -> {
        g.writeStartArray();
        for (Object o : l) {
          write(g, o);
        }
        g.writeEndArray();
      }
      case String s -> g.writeString(s);
      case Long n -> g.writeNumber(n);
      case Integer n -> g.writeNumber(n);
      case Double d -> g.writeNumber(d);
      case Boolean b -> g.writeBoolean(b);
      default -> throw new IllegalArgumentException("not JSON: " + v);
    }
  }
}
