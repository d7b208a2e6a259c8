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
import io.opentelemetry.proto.resource.v1.Resource;
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
}
