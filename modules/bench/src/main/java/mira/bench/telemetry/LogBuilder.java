package mira.bench.telemetry;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import java.util.SplittableRandom;

/**
 * Log records: a fraction written inside a recent span (its trace and span id, its pod, a time
 * within it, ERROR with the exception if the span failed), the rest background work with no trace
 * context (jobs, caches, pools, garbage collection). Every record carries a request id, so one
 * attribute is high-cardinality; errors rise in the incident's services while it is on.
 */
final class LogBuilder {
  private static final String[] THREADS = {"http-nio-8080-exec-", "grpc-default-executor-", "kafka-consumer-",
      "scheduling-", "ForkJoinPool.commonPool-worker-"};
  private static final String[] TENANTS = {"acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne",
      "wonka", "tyrell", "soylent", "cyberdyne", "aperture"};

  private final Fleet fleet;
  private final SpanRing ring;
  private final SplittableRandom rnd;
  private final KvCache kv;
  private final InstrumentationScope[] scopes;
  private final ScopeLogs.Builder[] byPod;

  LogBuilder(Fleet fleet, SpanRing ring, SplittableRandom rnd, KvCache kv) {
    this.fleet = fleet;
    this.ring = ring;
    this.rnd = rnd;
    this.kv = kv;
    this.scopes = new InstrumentationScope[fleet.services.length];
    for (Fleet.Service s : fleet.services) {
      scopes[s.index()] = InstrumentationScope.newBuilder()
          .setName("com.shop." + s.name().replace("-", "") + "." + Character.toUpperCase(s.name().charAt(0))
              + s.name().substring(1).replace("-", "") + "Service")
          .build();
    }
    this.byPod = new ScopeLogs.Builder[fleet.pods.length];
  }

  ExportLogsServiceRequest build(int records, long now, boolean incident) {
    for (int r = 0; r < records; r++) {
      LogRecord.Builder rec = LogRecord.newBuilder();
      int pod;
      if (rnd.nextDouble() < TelemetryStream.LOG_TRACED_FRACTION) {
        pod = traced(rec, now, incident);
      } else {
        pod = rnd.nextInt(fleet.pods.length);
        background(rec, pod, now - (long) (rnd.nextDouble() * 1e9), incident);
      }
      if (byPod[pod] == null) byPod[pod] = ScopeLogs.newBuilder().setScope(scopes[fleet.pods[pod].service()]);
      byPod[pod].addLogRecords(rec);
    }
    ExportLogsServiceRequest.Builder req = ExportLogsServiceRequest.newBuilder();
    for (int pod = 0; pod < byPod.length; pod++) {
      if (byPod[pod] == null) continue;
      req.addResourceLogs(ResourceLogs.newBuilder().setResource(fleet.pods[pod].resource())
          .setSchemaUrl(TelemetryStream.SCHEMA_URL).addScopeLogs(byPod[pod]));
      byPod[pod] = null;
    }
    return req.build();
  }

  /** A record written inside a span of a recent (or promised) trace; returns its pod. */
  private int traced(LogRecord.Builder rec, long now, boolean incident) {
    long hi;
    long lo;
    long span;
    int pod;
    long time;
    boolean spanFailed;
    if (ring.isEmpty()) {
      int slot = ring.promise(rnd, TraceBuilder.entryPod(fleet, rnd));
      hi = ring.pendingHi(slot);
      lo = ring.pendingLo(slot);
      span = ring.pendingRoot(slot);
      pod = ring.pendingPod(slot);
      time = now - (long) (rnd.nextDouble() * 1e9);
      spanFailed = false;
    } else {
      int i = ring.pick(rnd);
      hi = ring.traceHi[i];
      lo = ring.traceLo[i];
      span = ring.spanId[i];
      pod = ring.pod[i];
      time = ring.start[i] + (long) (rnd.nextDouble() * ring.duration[i]);
      spanFailed = ring.error[i];
    }
    rec.setTraceId(TraceBuilder.traceId(hi, lo)).setSpanId(TraceBuilder.spanId(span)).setFlags(1);
    int service = fleet.pods[pod].service();
    if (spanFailed) {
      error(rec, service, time, true);
    } else {
      access(rec, service, time, incident);
    }
    return pod;
  }

  private void common(LogRecord.Builder rec, long time, SeverityNumber severity, String text) {
    rec.setTimeUnixNano(time).setObservedTimeUnixNano(time + 200_000 + rnd.nextInt(5_000_000))
        .setSeverityNumber(severity).setSeverityText(text)
        .addAttributes(kv.str("thread.name", THREADS[rnd.nextInt(THREADS.length)] + (1 + rnd.nextInt(24))))
        .addAttributes(Kv.of("request.id", Kv.hex(rnd.nextLong(), 16)));
  }

  private void access(LogRecord.Builder rec, int service, long time, boolean incident) {
    Fleet.Service svc = fleet.services[service];
    String route = svc.routes()[rnd.nextInt(svc.routes().length)];
    double ms = 2 * Math.exp(0.8 * rnd.nextGaussian()) * Incident.latencyFactor(service, incident);
    boolean slow = ms > 250;
    common(rec, time, slow ? SeverityNumber.SEVERITY_NUMBER_WARN : SeverityNumber.SEVERITY_NUMBER_INFO,
        slow ? "WARN" : "INFO");
    String tenant = TENANTS[rnd.nextInt(TENANTS.length)];
    rec.setBody(AnyValue.newBuilder().setStringValue((slow ? "slow request: " : "handled ") + "GET " + route + " for tenant "
            + tenant + " in " + Math.round(ms * 10) / 10.0 + " ms (" + (rnd.nextBoolean() ? "cache hit" : "cache miss") + ")"))
        .addAttributes(kv.str("http.route", route))
        .addAttributes(kv.str("tenant.id", tenant))
        .addAttributes(Kv.of("duration.ms", ms));
  }

  private void error(LogRecord.Builder rec, int service, long time, boolean withStack) {
    Fleet.Service svc = fleet.services[service];
    Texts.Failure f = Texts.failure(rnd, svc.database(), svc.name(), Incident.hits(service));
    common(rec, time, SeverityNumber.SEVERITY_NUMBER_ERROR, "ERROR");
    rec.setBody(AnyValue.newBuilder().setStringValue("request failed: " + f.type() + ": " + f.message()))
        .setEventName("exception")
        .addAttributes(kv.str("exception.type", f.type()))
        .addAttributes(Kv.of("exception.message", f.message()));
    if (withStack) rec.addAttributes(Kv.of("exception.stacktrace", Texts.stackTrace(rnd, f, svc.name())));
  }

  /** Work not tied to a request: mostly INFO/DEBUG, ERROR at the incident's rate for the service. */
  private void background(LogRecord.Builder rec, int pod, long time, boolean incident) {
    int service = fleet.pods[pod].service();
    Fleet.Service svc = fleet.services[service];
    if (rnd.nextDouble() < Incident.errorRate(service, incident) * 2) {
      error(rec, service, time, rnd.nextInt(4) == 0);
      return;
    }
    int kind = rnd.nextInt(10);
    String body;
    SeverityNumber severity = SeverityNumber.SEVERITY_NUMBER_INFO;
    switch (kind) {
      case 0 -> {
        severity = SeverityNumber.SEVERITY_NUMBER_DEBUG;
        body = "cache refresh of " + svc.name() + ":" + Kv.hex(rnd.nextLong(), 8) + " took " + rnd.nextInt(40) + " ms";
      }
      case 1 -> body = "GC pause (G1 Evacuation Pause) " + (1 + rnd.nextInt(60)) + " ms, heap " + (200 + rnd.nextInt(800))
          + "M->" + (100 + rnd.nextInt(200)) + "M";
      case 2 -> body = "scheduled job " + svc.name() + "-reconcile finished: " + rnd.nextInt(5000) + " items in "
          + rnd.nextInt(3000) + " ms";
      case 3 -> {
        boolean pressed = incident && Incident.hits(service);
        severity = pressed ? SeverityNumber.SEVERITY_NUMBER_WARN : SeverityNumber.SEVERITY_NUMBER_DEBUG;
        body = "connection pool stats: active=" + (pressed ? 20 : rnd.nextInt(12)) + " idle=" + (pressed ? 0 : rnd.nextInt(8))
            + " waiting=" + (pressed ? 10 + rnd.nextInt(80) : 0);
      }
      case 4 -> body = "consumer group " + svc.name() + " lag " + rnd.nextInt(incident && Incident.hits(service) ? 50_000 : 200)
          + " on partition " + rnd.nextInt(12);
      case 5 -> {
        severity = SeverityNumber.SEVERITY_NUMBER_WARN;
        body = "retrying call to " + fleet.services[rnd.nextInt(fleet.services.length)].name() + " (attempt "
            + (2 + rnd.nextInt(2)) + "/3) after " + (50 << rnd.nextInt(4)) + " ms";
      }
      default -> body = "order " + (100_000 + rnd.nextInt(900_000)) + " " + (rnd.nextBoolean() ? "updated" : "created")
          + " by user-" + rnd.nextInt(250_000) + " for tenant " + TENANTS[rnd.nextInt(TENANTS.length)];
    }
    common(rec, time, severity, severity == SeverityNumber.SEVERITY_NUMBER_WARN ? "WARN"
        : severity == SeverityNumber.SEVERITY_NUMBER_DEBUG ? "DEBUG" : "INFO");
    rec.setBody(AnyValue.newBuilder().setStringValue(body));
  }
}
