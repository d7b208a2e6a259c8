package mira.server.launch;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import com.google.protobuf.ByteString;
import mira.server.config.Config;
import mira.server.config.ConfigException;
import mira.server.config.ConfigLoader;
import mira.server.config.Key;

/**
 * {@code mira train}: the workload the image's AOT cache is recorded from. It starts a node on
 * loopback with a throw-away data directory, answers a probe, takes an export of every signal over
 * OTLP/HTTP (JSON, protobuf, gzip) and two bad ones, then, once they are sealed into blocks, asks
 * each query class of the API once, and stops. Classes the first real
 * requests would load are then already loaded and linked when the cache is written.
 */
public final class Training {
  private Training() {}

  /** Runs the workload; 0 if every request got the answer it should. */
  public static int run(PrintStream err) {
    LogSetup.install();
    Path dir;
    try {
      dir = Files.createTempDirectory("mira-train");
    } catch (IOException e) {
      err.println("mira train: cannot create a temporary directory: " + e.getMessage());
      return 1;
    }
    try {
      Config config = ConfigLoader.load(Optional.empty(), Map.of(
          Key.LISTEN_GRPC, "127.0.0.1:0", Key.LISTEN_HTTP, "127.0.0.1:0",
          Key.DATA_DIR, dir.resolve("data").toString(), Key.NODE, "aot-training"), 2);
      try (Running node = Running.start(config, Path.of("/proc/self/mountinfo"))) {
        String base = "http://127.0.0.1:" + node.server().httpPort();
        List<String> failures = exercise(base);
        if (!failures.isEmpty()) {
          err.println("mira train: " + String.join("; ", failures));
          return 1;
        }
      }
      return 0;
    } catch (ConfigException | StartupException e) {
      err.println("mira train: " + e.getMessage());
      return 1;
    } finally {
      delete(dir);
    }
  }

  private record Call(String method, String path, String type, String encoding, byte[] body, int expect) {}

  private static List<String> exercise(String base) {
    String logs = "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
        + "{\"stringValue\":\"train\"}}]},\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\"1767225600000000000\","
        + "\"severityNumber\":9,\"body\":{\"stringValue\":\"hello\"},\"attributes\":[{\"key\":\"n\",\"value\":"
        + "{\"intValue\":\"1\"}}]}]}]}]}";
    List<Call> calls = List.of(
        new Call("GET", "/readyz", null, null, null, 200),
        new Call("GET", "/health", null, null, null, 200),
        new Call("POST", "/v1/logs", "application/json", null, logs.getBytes(StandardCharsets.UTF_8), 200),
        new Call("POST", "/v1/traces", "application/x-protobuf", "gzip", gzip(spans()), 200),
        new Call("POST", "/v1/metrics", "application/x-protobuf", null, metrics(), 200),
        new Call("POST", "/v1/logs", "text/plain", null, new byte[] {1}, 415),
        new Call("POST", "/v1/traces", "application/x-protobuf", null, new byte[] {10, 50, 1}, 400),
        new Call("GET", "/api/v1/stats", null, null, null, 200),
        new Call("POST", "/api/v1/query", "application/json", null,
            "{\"signal\": \"logs\", \"where\": [{\"attr\": \"n\", \"gte\": 1}]}".getBytes(StandardCharsets.UTF_8), 200),
        new Call("POST", "/api/v1/query", "application/json", null,
            "{\"signal\": \"traces\", \"limit\": 10}".getBytes(StandardCharsets.UTF_8), 200),
        new Call("GET", "/api/v1/metrics", null, null, null, 200));
    List<String> failures = new ArrayList<>();
    send(base, calls, failures);
    if (failures.isEmpty()) {
      // Once the exports lie in sealed blocks (a block is sealed at the latest MAX_BLOCK_AGE after
      // its first export), every query class reads them the way a restarted node reads its store:
      // mapped tables, sidecars, the census, the series functions, the map, MCP. The classes they
      // load are then in the cache too, so a first query after a start does not load them.
      try {
        Thread.sleep(mira.server.ingest.Ingest.MAX_BLOCK_AGE.toMillis() + 1_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failures.add("interrupted");
        return failures;
      }
      send(base, queries(), failures);
    }
    return failures;
  }

  /** Each query class once, over the training data; every one must answer 200. */
  private static List<Call> queries() {
    String window = "\"from\": \"1767225500000000000\", \"to\": \"1767225700000000000\"";
    List<Call> out = new ArrayList<>();
    for (String doc : List.of(
        "{\"signal\": \"logs\", " + window + ", \"limit\": 100}",
        "{\"signal\": \"logs\", " + window + ", \"where\": [{\"attr\": \"n\", \"eq\": \"2\"}]}",
        "{\"signal\": \"logs\", " + window + ", \"where\": [{\"text\": \"hello\"}]}",
        "{\"signal\": \"logs\", " + window + ", \"q\": \"severity_number>=9 n?\"}",
        "{\"signal\": \"traces\", " + window + ", \"where\": [{\"attr\": \"http.response.status_code\", \"gte\": 500}]}",
        "{\"signal\": \"traces\", " + window + ", \"where\": [{\"field\": \"trace_id\", \"in\": [\"0102030405060708090a0b0c0d0e0f10\"]}]}")) {
      out.add(json("/api/v1/query", doc));
    }
    out.add(new Call("GET", "/api/v1/traces/0102030405060708090a0b0c0d0e0f10", null, null, null, 200));
    out.add(json("/api/v1/series", "{\"name\": \"train.gauge\", " + window + "}"));
    out.add(json("/api/v1/series", "{\"name\": \"train.gauge\", " + window + ", \"step\": \"1m\", \"fn\": \"max\", "
        + "\"group_by\": [\"service.name\"]}"));
    out.add(json("/api/v1/series", "{\"name\": \"train.requests\", " + window + ", \"step\": \"1m\", \"fn\": \"rate\", "
        + "\"group_by\": [\"service.name\"]}"));
    out.add(json("/api/v1/entities", "{" + window + "}"));
    out.add(new Call("GET", "/api/v1/services?from=1767225500000000000&to=1767225700000000000", null, null, null, 200));
    out.add(json("/api/v1/map", "{" + window + "}"));
    out.add(json("/api/v1/correlate", "{\"anchor\": {\"signal\": \"traces\", " + window + "}, "
        + "\"expand\": [\"traces\", \"peers\", {\"around\": \"5s\"}]}"));
    out.add(json("/api/v1/facets", "{\"signal\": \"traces\", " + window + ", \"keys\": [\"service.name\"]}"));
    out.add(new Call("GET", "/api/v1/attributes?signal=logs&from=1767225500000000000&to=1767225700000000000",
        null, null, null, 200));
    out.add(new Call("GET", "/api/v1/metrics?from=1767225500000000000&to=1767225700000000000", null, null, null, 200));
    out.add(new Call("GET", "/", null, null, null, 200));
    return out;
  }

  private static Call json(String path, String doc) {
    return new Call("POST", path, "application/json", null, doc.getBytes(StandardCharsets.UTF_8), 200);
  }

  /** Sends {@code calls} at once and adds each wrong answer to {@code failures}. */
  private static void send(String base, List<Call> calls, List<String> failures) {
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<String>> answers = new ArrayList<>();
      for (Call c : calls) {
        answers.add(pool.submit(() -> send(base, c)));
      }
      for (Future<String> f : answers) {
        String problem = f.get();
        if (problem != null) {
          failures.add(problem);
        }
      }
    } catch (Exception e) {
      failures.add(e.toString());
    }
  }

  private static String send(String base, Call c) throws IOException {
    HttpURLConnection h = (HttpURLConnection) URI.create(base + c.path()).toURL().openConnection();
    h.setRequestMethod(c.method());
    h.setConnectTimeout(5_000);
    h.setReadTimeout(30_000);
    if (c.body() != null) {
      h.setDoOutput(true);
      h.setRequestProperty("Content-Type", c.type());
      if (c.encoding() != null) {
        h.setRequestProperty("Content-Encoding", c.encoding());
      }
      try (OutputStream out = h.getOutputStream()) {
        out.write(c.body());
      }
    }
    int status = h.getResponseCode();
    try (InputStream in = status >= 400 ? h.getErrorStream() : h.getInputStream()) {
      if (in != null) {
        in.readAllBytes();
      }
    }
    return status == c.expect() ? null : c.method() + " " + c.path() + " answered " + status + ", expected " + c.expect();
  }

  private static byte[] spans() {
    Span s = Span.newBuilder()
        .setTraceId(ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}))
        .setSpanId(ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}))
        .setName("GET /train").setKind(Span.SpanKind.SPAN_KIND_SERVER)
        .setStartTimeUnixNano(1_767_225_600_000_000_000L).setEndTimeUnixNano(1_767_225_600_001_000_000L)
        .addAttributes(KeyValue.newBuilder().setKey("http.response.status_code").setValue(AnyValue.newBuilder().setIntValue(200)))
        .addEvents(Span.Event.newBuilder().setName("e").setTimeUnixNano(1_767_225_600_000_500_000L))
        .build();
    return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
        .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
            .setValue(AnyValue.newBuilder().setStringValue("train"))))
        .addScopeSpans(ScopeSpans.newBuilder().addSpans(s))).build().toByteArray();
  }

  private static byte[] metrics() {
    Metric m = Metric.newBuilder().setName("train.gauge").setGauge(Gauge.newBuilder()
        .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(1_767_225_600_000_000_000L).setAsDouble(1.5))).build();
    // A cumulative counter, so the stepped rate (per-block partials) is trained as well as a gauge's max.
    Sum.Builder sum = Sum.newBuilder()
        .setIsMonotonic(true).setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
    for (int i = 0; i < 3; i++) {
      sum.addDataPoints(NumberDataPoint.newBuilder().setStartTimeUnixNano(1_767_225_540_000_000_000L)
          .setTimeUnixNano(1_767_225_600_000_000_000L + i * 30_000_000_000L).setAsInt(10L * (i + 1)));
    }
    Metric counter = Metric.newBuilder().setName("train.requests").setSum(sum).build();
    return ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.newBuilder()
        .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
            .setValue(AnyValue.newBuilder().setStringValue("train"))))
        .addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(m).addMetrics(counter))).build().toByteArray();
  }

  private static byte[] gzip(byte[] b) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(out)) {
      z.write(b);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out.toByteArray();
  }

  private static void delete(Path root) {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // A temporary directory left behind is harmless.
    }
  }
}
