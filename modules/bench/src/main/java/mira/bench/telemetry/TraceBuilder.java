package mira.bench.telemetry;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Traces across the fleet: a server span at an entry service, client spans for the calls it makes
 * and server spans in the services called, database spans, and on the assistant path a model call
 * carrying the prompt and the completion. Failures start at an operation and travel up as 5xx;
 * the span where one starts carries an {@code exception} event.
 */
final class TraceBuilder {
  private static final String[] METHODS = {"GET", "GET", "GET", "POST", "PUT", "DELETE"};
  private static final String[] TABLES = {"orders", "order_items", "customers", "products", "payments", "stock",
      "sessions", "invoices"};
  private static final String[] USER_AGENTS = {
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Version/18.1 Mobile Safari/604.1",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari",
    "shop-android/5.12.0 (Pixel 8; Android 15)", "okhttp/4.12.0", "curl/8.5.0",
  };
  private static final String ASSISTANT_ROUTE = "/api/v1/assistant/chat";
  private static final String MODEL = "gpt-4o";

  private final Fleet fleet;
  private final SpanRing ring;
  private final SplittableRandom rnd;
  private final KvCache kv;
  private final InstrumentationScope[] scopes;

  // The export being built: spans in creation order, and for each its pod, id and failure.
  private final List<Span.Builder> spans = new ArrayList<>();
  private int[] podOf = new int[1024];
  private long[] idOf = new long[1024];
  private boolean[] failedOf = new boolean[1024];
  private int want;
  private boolean incident;

  // The trace being built.
  private ByteString traceId;
  private String requestId;
  private boolean lastFailed;

  TraceBuilder(Fleet fleet, SpanRing ring, SplittableRandom rnd, KvCache kv) {
    this.fleet = fleet;
    this.ring = ring;
    this.rnd = rnd;
    this.kv = kv;
    this.scopes = new InstrumentationScope[fleet.services.length];
    for (Fleet.Service s : fleet.services) {
      scopes[s.index()] = InstrumentationScope.newBuilder().setName(scopeName(s.language())).setVersion("2.10.0").build();
    }
  }

  private static String scopeName(String language) {
    return switch (language) {
      case "java" -> "io.opentelemetry.spring-webmvc-6.0";
      case "go" -> "go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp";
      case "python" -> "opentelemetry.instrumentation.fastapi";
      case "nodejs" -> "@opentelemetry/instrumentation-http";
      default -> "OpenTelemetry.Instrumentation.AspNetCore";
    };
  }

  ExportTraceServiceRequest build(int wanted, long now, boolean incidentOn) {
    want = wanted;
    incident = incidentOn;
    spans.clear();
    while (spans.size() < want) {
      trace(now);
    }
    return assemble();
  }

  private void trace(long now) {
    long hi;
    long lo;
    long root;
    int pod;
    if (ring.pendingCount() > 0) {
      int slot = ring.takePending();
      hi = ring.pendingHi(slot);
      lo = ring.pendingLo(slot);
      root = ring.pendingRoot(slot);
      pod = ring.pendingPod(slot);
    } else {
      hi = rnd.nextLong();
      lo = rnd.nextLong();
      root = rnd.nextLong();
      pod = entryPod(fleet, rnd);
    }
    traceId = traceId(hi, lo);
    requestId = Kv.hex(rnd.nextLong(), 16);
    boolean genai = rnd.nextDouble() < TelemetryStream.GENAI_TRACE_FRACTION;
    int first = spans.size();
    long end = server(fleet.pods[pod].service(), pod, 0, root, 0, 0, genai);
    // Times were relative to the root's start; the trace ended up to a second before now.
    long base = now - (long) (rnd.nextDouble() * 1e9) - end;
    for (int i = first; i < spans.size(); i++) {
      Span.Builder s = spans.get(i);
      s.setStartTimeUnixNano(s.getStartTimeUnixNano() + base).setEndTimeUnixNano(s.getEndTimeUnixNano() + base);
      for (int e = 0; e < s.getEventsCount(); e++) {
        Span.Event.Builder ev = s.getEventsBuilder(e);
        ev.setTimeUnixNano(ev.getTimeUnixNano() + base);
      }
      ring.add(hi, lo, idOf[i], podOf[i], s.getStartTimeUnixNano(), s.getEndTimeUnixNano() - s.getStartTimeUnixNano(),
          failedOf[i]);
    }
  }

  static int entryPod(Fleet fleet, SplittableRandom rnd) {
    Fleet.Service entry = fleet.services[rnd.nextInt(2)];
    return entry.firstPod() + rnd.nextInt(entry.podCount());
  }

  static ByteString traceId(long hi, long lo) {
    byte[] b = new byte[16];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (hi >>> (56 - 8 * i));
      b[8 + i] = (byte) (lo >>> (56 - 8 * i));
    }
    return ByteString.copyFrom(b);
  }

  static ByteString spanId(long id) {
    byte[] b = new byte[8];
    for (int i = 0; i < 8; i++) b[i] = (byte) (id >>> (56 - 8 * i));
    return ByteString.copyFrom(b);
  }

  private boolean full() {
    return spans.size() >= want;
  }

  /** Adds a span starting at {@code start} (relative) and returns its index. */
  private int open(int pod, long id, long parent, Span.SpanKind kind, String name, long start, int flags) {
    Span.Builder s = Span.newBuilder().setTraceId(traceId).setSpanId(spanId(id)).setName(name).setKind(kind)
        .setStartTimeUnixNano(start).setFlags(flags);
    if (parent != 0) s.setParentSpanId(spanId(parent));
    int i = spans.size();
    spans.add(s);
    if (i == podOf.length) {
      podOf = Arrays.copyOf(podOf, i * 2);
      idOf = Arrays.copyOf(idOf, i * 2);
      failedOf = Arrays.copyOf(failedOf, i * 2);
    }
    podOf[i] = pod;
    idOf[i] = id;
    failedOf[i] = false;
    return i;
  }

  private void fail(int i, String message) {
    failedOf[i] = true;
    spans.get(i).setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR).setMessage(message));
  }

  private void exception(int i, Texts.Failure f, String service, long at) {
    spans.get(i).addEvents(Span.Event.newBuilder().setTimeUnixNano(at).setName("exception")
        .addAttributes(kv.str("exception.type", f.type()))
        .addAttributes(Kv.of("exception.message", f.message()))
        .addAttributes(Kv.of("exception.stacktrace", Texts.stackTrace(rnd, f, service))));
  }

  /** A service's latency for one step: log-normal around {@code medianMs}, scaled by the incident. */
  private long nanos(double medianMs, double sigma, int service) {
    double ms = medianMs * Math.exp(sigma * rnd.nextGaussian()) * Incident.latencyFactor(service, incident);
    return (long) (ms * 1_000_000);
  }

  /** A server span in service {@code s} and everything under it; returns its end, sets lastFailed. */
  private long server(int s, int pod, long parent, long id, long start, int depth, boolean genai) {
    Fleet.Service svc = fleet.services[s];
    String route = genai && depth == 0 ? ASSISTANT_ROUTE : svc.routes()[rnd.nextInt(svc.routes().length)];
    String method = genai && depth == 0 ? "POST" : METHODS[rnd.nextInt(METHODS.length)];
    int i = open(pod, id, parent, Span.SpanKind.SPAN_KIND_SERVER, method + " " + route, start, parent == 0 ? 0x101 : 0x301);
    Span.Builder span = spans.get(i);
    span.addAttributes(kv.str("http.request.method", method))
        .addAttributes(kv.str("http.route", route))
        .addAttributes(Kv.of("url.path", route.replace("{id}", Long.toString(1 + rnd.nextInt(2_000_000)))))
        .addAttributes(kv.str("url.scheme", "http"))
        .addAttributes(kv.str("server.address", svc.name()))
        .addAttributes(kv.integer("server.port", 8080))
        .addAttributes(kv.str("network.protocol.version", depth == 0 ? "2" : "1.1"))
        .addAttributes(Kv.of("request.id", requestId));
    if (depth == 0) {
      span.addAttributes(kv.str("user_agent.original", USER_AGENTS[rnd.nextInt(USER_AGENTS.length)]))
          .addAttributes(Kv.of("client.address", "81." + rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + rnd.nextInt(256)))
          .addAttributes(Kv.of("enduser.id", "user-" + rnd.nextInt(250_000)));
    }
    long t = start + nanos(0.15, 0.5, s);
    boolean failed = false;
    Texts.Failure cause = null;
    if (s == Fleet.LLM_GATEWAY) {
      t = model(s, pod, id, t);
      failed = lastFailed;
    } else {
      if (svc.database() != null) {
        for (int n = rnd.nextInt(4); n > 0 && !full(); n--) {
          t = database(s, pod, id, t);
          failed |= lastFailed && rnd.nextInt(10) < 7;
        }
      }
      int[] downstream = genai && depth == 0 ? new int[] {Fleet.ASSISTANT} : svc.downstream();
      for (int d : downstream) {
        if (full() || depth >= 4 || (!genai && rnd.nextInt(10) >= 6)) continue;
        t = call(pod, id, d, t, depth, genai) + nanos(0.05, 0.5, s);
        failed |= lastFailed && rnd.nextInt(10) < 7;
      }
      if (!failed && rnd.nextDouble() < Incident.errorRate(s, incident) / 4) {
        failed = true;
        cause = Texts.failure(rnd, svc.database(), svc.name(), false);
      }
    }
    long end = t + nanos(0.2, 0.6, s);
    span.setEndTimeUnixNano(end);
    long code = failed ? (rnd.nextInt(4) == 0 ? 503 : 500) : (rnd.nextInt(40) == 0 ? 404 : 200);
    span.addAttributes(kv.integer("http.response.status_code", code));
    if (failed) {
      fail(i, cause != null ? cause.type() + ": " + cause.message() : "HTTP " + code);
      if (cause != null) exception(i, cause, svc.name(), end - 1000);
    }
    lastFailed = failed;
    return end;
  }

  /** A client span in the caller's pod and the server span it causes in service {@code d}. */
  private long call(int pod, long parent, int d, long start, int depth, boolean genai) {
    Fleet.Service callee = fleet.services[d];
    long clientId = rnd.nextLong();
    String method = METHODS[rnd.nextInt(METHODS.length)];
    int i = open(pod, clientId, parent, Span.SpanKind.SPAN_KIND_CLIENT, method, start, 0x101);
    Span.Builder span = spans.get(i);
    int calleePod = callee.firstPod() + rnd.nextInt(callee.podCount());
    long serverStart = start + 50_000 + rnd.nextInt(400_000);
    boolean failed = false;
    long end = serverStart;
    if (!full()) {
      end = server(d, calleePod, clientId, rnd.nextLong(), serverStart, depth + 1, genai);
      failed = lastFailed;
    }
    end += 50_000 + rnd.nextInt(400_000);
    span.setEndTimeUnixNano(end)
        .addAttributes(kv.str("http.request.method", method))
        .addAttributes(Kv.of("url.full", "http://" + callee.name() + ":8080" + callee.routes()[0] + "?rid=" + requestId))
        .addAttributes(kv.str("server.address", callee.name()))
        .addAttributes(kv.integer("server.port", 8080))
        .addAttributes(kv.integer("http.response.status_code", failed ? 500 : 200));
    if (failed) fail(i, "HTTP 500 from " + callee.name());
    lastFailed = failed;
    return end;
  }

  private long database(int s, int pod, long parent, long start) {
    Fleet.Service svc = fleet.services[s];
    String table = TABLES[rnd.nextInt(TABLES.length)];
    boolean redis = "redis".equals(svc.database());
    boolean mongo = "mongodb".equals(svc.database());
    String op = redis ? (rnd.nextBoolean() ? "GET" : "SET") : mongo ? "find" : rnd.nextInt(4) == 0 ? "UPDATE" : "SELECT";
    String name = redis ? op : op + " shop." + table;
    int i = open(pod, rnd.nextLong(), parent, Span.SpanKind.SPAN_KIND_CLIENT, name, start, 0x101);
    Span.Builder span = spans.get(i);
    span.addAttributes(kv.str("db.system.name", svc.database()))
        .addAttributes(kv.str("db.namespace", "shop"))
        .addAttributes(kv.str("db.operation.name", op))
        .addAttributes(kv.str("server.address", svc.database() + "." + svc.name() + ".svc.cluster.local"));
    if (!redis) {
      span.addAttributes(kv.str("db.collection.name", table));
      span.addAttributes(kv.str("db.query.text", mongo ? "{\"find\": \"" + table + "\", \"filter\": {\"_id\": \"?\"}}"
          : op.equals("SELECT") ? "SELECT * FROM " + table + " WHERE id = $1 AND tenant_id = $2"
          : "UPDATE " + table + " SET status = $1, updated_at = now() WHERE id = $2"));
    }
    boolean failed = rnd.nextDouble() < Incident.errorRate(s, incident);
    long duration = nanos(redis ? 0.3 : 1.2, 0.7, s);
    if (failed) {
      Texts.Failure f = Texts.failure(rnd, svc.database(), svc.database(), incident && Incident.hits(s));
      if (f.timeout()) duration += 200_000_000L + rnd.nextInt(800_000_000);
      fail(i, f.type() + ": " + f.message());
      exception(i, f, svc.name(), start + duration - 1000);
    }
    span.setEndTimeUnixNano(start + duration);
    lastFailed = failed;
    return start + duration;
  }

  /** The model call of the assistant path: a GenAI client span with the prompt and completion. */
  private long model(int s, int pod, long parent, long start) {
    if (full()) {
      lastFailed = false;
      return start;
    }
    int i = open(pod, rnd.nextLong(), parent, Span.SpanKind.SPAN_KIND_CLIENT, "chat " + MODEL, start, 0x101);
    Span.Builder span = spans.get(i);
    String prompt = Texts.prose(rnd, Texts.SYSTEM_PROMPT, TelemetryStream.GENAI_MIN_BYTES, TelemetryStream.GENAI_MAX_BYTES);
    boolean failed = rnd.nextDouble() < Incident.errorRate(s, incident) * 2;
    span.addAttributes(kv.str("gen_ai.system", "openai"))
        .addAttributes(kv.str("gen_ai.operation.name", "chat"))
        .addAttributes(kv.str("gen_ai.request.model", MODEL))
        .addAttributes(kv.integer("gen_ai.request.max_tokens", 2048))
        .addAttributes(kv.str("server.address", "api.openai.com"))
        .addAttributes(Kv.of("gen_ai.prompt", prompt))
        .addAttributes(kv.integer("gen_ai.usage.input_tokens", prompt.length() / 4));
    long duration;
    if (failed) {
      duration = nanos(80, 0.4, s);
      fail(i, "openai.RateLimitError: Error code: 429 - Rate limit reached for " + MODEL);
      span.addAttributes(kv.str("error.type", "429"));
    } else {
      String completion = Texts.prose(rnd, "", TelemetryStream.GENAI_MIN_BYTES, TelemetryStream.GENAI_MAX_BYTES);
      duration = nanos(900, 0.5, s) + completion.length() * 20_000L;
      span.addAttributes(kv.str("gen_ai.response.model", "gpt-4o-2024-08-06"))
          .addAttributes(Kv.of("gen_ai.response.id", "chatcmpl-" + Kv.hex(rnd.nextLong(), 16)))
          .addAttributes(kv.str("gen_ai.response.finish_reasons", "stop"))
          .addAttributes(Kv.of("gen_ai.completion", completion))
          .addAttributes(kv.integer("gen_ai.usage.output_tokens", completion.length() / 4));
    }
    span.setEndTimeUnixNano(start + duration);
    lastFailed = failed;
    return start + duration;
  }

  private ExportTraceServiceRequest assemble() {
    ScopeSpans.Builder[] byPod = new ScopeSpans.Builder[fleet.pods.length];
    for (int i = 0; i < spans.size(); i++) {
      int pod = podOf[i];
      if (byPod[pod] == null) byPod[pod] = ScopeSpans.newBuilder().setScope(scopes[fleet.pods[pod].service()]);
      byPod[pod].addSpans(spans.get(i));
    }
    ExportTraceServiceRequest.Builder req = ExportTraceServiceRequest.newBuilder();
    for (int pod = 0; pod < byPod.length; pod++) {
      if (byPod[pod] == null) continue;
      req.addResourceSpans(ResourceSpans.newBuilder().setResource(fleet.pods[pod].resource())
          .setSchemaUrl(TelemetryStream.SCHEMA_URL).addScopeSpans(byPod[pod]));
    }
    spans.clear();
    return req.build();
  }
}
