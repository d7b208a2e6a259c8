package mira.bench;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.util.SplittableRandom;

/** Deterministic OTLP exports shaped like a service's real telemetry, for benchmarks. */
public final class Corpus {
  private Corpus() {}

  static final String[] PATHS = {"/api/cart", "/api/checkout", "/api/users/{id}", "/healthz", "/api/search"};
  static final String[] METHODS = {"GET", "POST", "PUT", "DELETE"};

  static KeyValue kv(String k, String v) {
    return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setStringValue(v)).build();
  }

  static KeyValue kv(String k, long v) {
    return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setIntValue(v)).build();
  }

  static KeyValue kv(String k, double v) {
    return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setDoubleValue(v)).build();
  }

  static Resource resource(int service, int pod) {
    return Resource.newBuilder()
        .addAttributes(kv("service.name", "svc-" + service))
        .addAttributes(kv("service.namespace", "shop"))
        .addAttributes(kv("service.instance.id", "svc-" + service + "-pod-" + pod))
        .addAttributes(kv("service.version", "1.4." + service))
        .addAttributes(kv("k8s.pod.name", "svc-" + service + "-7d9f8-" + pod))
        .addAttributes(kv("k8s.namespace.name", "prod"))
        .addAttributes(kv("host.name", "node-" + (pod % 7)))
        .addAttributes(kv("telemetry.sdk.language", "java"))
        .build();
  }

  /**
   * An export of {@code records} log records from one pod: 5 attributes each (strings, an int, a
   * double, one high-cardinality request id), a ~100-byte body, trace context on half of them.
   */
  public static ExportLogsServiceRequest logs(int records, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long t0 = 1_767_225_600_000_000_000L + seed * 1_000_000_000L;
    ScopeLogs.Builder sl = ScopeLogs.newBuilder()
        .setScope(InstrumentationScope.newBuilder().setName("io.opentelemetry.logback").setVersion("2.9.0"));
    byte[] trace = new byte[16];
    byte[] span = new byte[8];
    for (int i = 0; i < records; i++) {
      boolean error = rnd.nextInt(50) == 0;
      String path = PATHS[rnd.nextInt(PATHS.length)];
      LogRecord.Builder r = LogRecord.newBuilder()
          .setTimeUnixNano(t0 + i * 100_000L + rnd.nextInt(1000))
          .setObservedTimeUnixNano(t0 + i * 100_000L + 5_000)
          .setSeverityNumber(error ? SeverityNumber.SEVERITY_NUMBER_ERROR : SeverityNumber.SEVERITY_NUMBER_INFO)
          .setSeverityText(error ? "ERROR" : "INFO")
          .setBody(AnyValue.newBuilder().setStringValue((error ? "request failed: " : "request completed: ")
              + METHODS[i & 3] + " " + path + " in " + rnd.nextInt(900) + " ms for tenant t-" + rnd.nextInt(40)
              + " (cache " + (rnd.nextBoolean() ? "hit" : "miss") + ")"))
          .addAttributes(kv("http.request.method", METHODS[i & 3]))
          .addAttributes(kv("url.path", path))
          .addAttributes(kv("http.response.status_code", error ? 500L : 200L))
          .addAttributes(kv("request.id", Long.toHexString(rnd.nextLong())))
          .addAttributes(kv("duration.ms", rnd.nextDouble() * 900));
      if ((i & 1) == 0) {
        rnd.nextBytes(trace);
        rnd.nextBytes(span);
        r.setTraceId(ByteString.copyFrom(trace)).setSpanId(ByteString.copyFrom(span)).setFlags(1);
      }
      sl.addLogRecords(r);
    }
    return ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(ResourceLogs.newBuilder().setResource(resource((int) (seed % 12), (int) (seed % 5)))
            .setSchemaUrl("https://opentelemetry.io/schemas/1.26.0").addScopeLogs(sl))
        .build();
  }

  /**
   * An export of {@code spans} spans from one pod: traces of 8 spans (a server root and its
   * children), 5 attributes per span, an event on one span in 16, error status on one in 50.
   */
  public static ExportTraceServiceRequest spans(int spans, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long t0 = 1_767_225_600_000_000_000L + seed * 1_000_000_000L;
    ScopeSpans.Builder ss = ScopeSpans.newBuilder()
        .setScope(InstrumentationScope.newBuilder().setName("io.opentelemetry.spring-webmvc-6.0").setVersion("2.9.0"));
    byte[] trace = new byte[16];
    byte[] root = new byte[8];
    byte[] id = new byte[8];
    for (int i = 0; i < spans; i++) {
      boolean first = (i & 7) == 0;
      if (first) {
        rnd.nextBytes(trace);
        rnd.nextBytes(root);
      }
      rnd.nextBytes(id);
      boolean error = rnd.nextInt(50) == 0;
      String path = PATHS[rnd.nextInt(PATHS.length)];
      long start = t0 + i * 50_000L;
      Span.Builder s = Span.newBuilder()
          .setTraceId(ByteString.copyFrom(trace))
          .setSpanId(ByteString.copyFrom(first ? root : id))
          .setName(first ? METHODS[i & 3] + " " + path : "SELECT shop.orders")
          .setKind(first ? Span.SpanKind.SPAN_KIND_SERVER : Span.SpanKind.SPAN_KIND_CLIENT)
          .setStartTimeUnixNano(start)
          .setEndTimeUnixNano(start + 1_000_000L + rnd.nextInt(50_000_000))
          .setFlags(0x101)
          .addAttributes(kv("http.request.method", METHODS[i & 3]))
          .addAttributes(kv("url.path", path))
          .addAttributes(kv("http.response.status_code", error ? 500L : 200L))
          .addAttributes(kv("request.id", Long.toHexString(rnd.nextLong())))
          .addAttributes(kv("db.system", "postgresql"));
      if (!first) {
        s.setParentSpanId(ByteString.copyFrom(root));
      }
      if (error) {
        s.setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR).setMessage("upstream timed out"));
      }
      if ((i & 15) == 5) {
        s.addEvents(Span.Event.newBuilder().setTimeUnixNano(start + 500_000L).setName("exception")
            .addAttributes(kv("exception.type", "java.net.SocketTimeoutException"))
            .addAttributes(kv("exception.message", "Read timed out after 30000 ms")));
      }
      ss.addSpans(s);
    }
    return ExportTraceServiceRequest.newBuilder()
        .addResourceSpans(ResourceSpans.newBuilder().setResource(resource((int) (seed % 12), (int) (seed % 5)))
            .setSchemaUrl("https://opentelemetry.io/schemas/1.26.0").addScopeSpans(ss))
        .build();
  }

  /**
   * An export with {@code points} data points from one pod: a cumulative counter, a gauge and an
   * explicit-bucket histogram (12 bounds), each point with 3 attributes; series differ by route and
   * status so points spread over many series as real exports do.
   */
  public static ExportMetricsServiceRequest metrics(int points, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long t0 = 1_767_225_600_000_000_000L + seed * 1_000_000_000L;
    Sum.Builder requests = Sum.newBuilder().setIsMonotonic(true)
        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
    Gauge.Builder inflight = Gauge.newBuilder();
    Histogram.Builder latency = Histogram.newBuilder()
        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
    double[] bounds = {5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000};
    for (int i = 0; i < points; i++) {
      String path = PATHS[i % PATHS.length];
      long code = (i / PATHS.length) % 3 == 0 ? 500 : 200;
      long t = t0 + (i / 30) * 10_000_000_000L;
      switch (i % 3) {
        case 0 -> requests.addDataPoints(NumberDataPoint.newBuilder().setStartTimeUnixNano(t0).setTimeUnixNano(t)
            .setAsInt(rnd.nextInt(100_000))
            .addAttributes(kv("http.route", path)).addAttributes(kv("http.response.status_code", code))
            .addAttributes(kv("http.request.method", METHODS[i & 3])));
        case 1 -> inflight.addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(t).setAsDouble(rnd.nextDouble() * 40)
            .addAttributes(kv("http.route", path)).addAttributes(kv("http.response.status_code", code))
            .addAttributes(kv("http.request.method", METHODS[i & 3])));
        default -> {
          HistogramDataPoint.Builder h = HistogramDataPoint.newBuilder().setStartTimeUnixNano(t0).setTimeUnixNano(t)
              .setCount(1000).setSum(rnd.nextDouble() * 100_000).setMin(1).setMax(4000)
              .addAttributes(kv("http.route", path)).addAttributes(kv("http.response.status_code", code))
              .addAttributes(kv("http.request.method", METHODS[i & 3]));
          for (double b : bounds) {
            h.addExplicitBounds(b);
          }
          for (int k = 0; k <= bounds.length; k++) {
            h.addBucketCounts(rnd.nextInt(200));
          }
          latency.addDataPoints(h);
        }
      }
    }
    ScopeMetrics sm = ScopeMetrics.newBuilder()
        .setScope(InstrumentationScope.newBuilder().setName("io.opentelemetry.micrometer-1.5"))
        .addMetrics(Metric.newBuilder().setName("http.server.requests").setUnit("{request}").setSum(requests))
        .addMetrics(Metric.newBuilder().setName("http.server.active_requests").setGauge(inflight))
        .addMetrics(Metric.newBuilder().setName("http.server.request.duration").setUnit("ms").setHistogram(latency))
        .build();
    return ExportMetricsServiceRequest.newBuilder()
        .addResourceMetrics(ResourceMetrics.newBuilder().setResource(resource((int) (seed % 12), (int) (seed % 5)))
            .addScopeMetrics(sm))
        .build();
  }
}
