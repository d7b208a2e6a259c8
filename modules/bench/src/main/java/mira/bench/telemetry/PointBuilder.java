package mira.bench.telemetry;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import java.util.SplittableRandom;

/**
 * Metrics per pod, as an SDK's periodic reader exports them every 10 seconds: a cumulative request
 * counter per route and status class, a delta latency histogram per route (with an exemplar
 * pointing at a recent span of the service now and then), active requests, memory and CPU gauges,
 * and a database latency histogram for services with a database. An export of more points than
 * one round over the fleet holds several consecutive 10-second rounds, oldest first.
 */
final class PointBuilder {
  static final long INTERVAL_NANOS = 10_000_000_000L;
  private static final double[] SECONDS_BOUNDS = {0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5,
      7.5, 10};
  private static final String[] DB_OPS = {"SELECT", "UPDATE"};
  private static final int MAX_ROUTES = 8;

  private final Fleet fleet;
  private final SpanRing ring;
  private final SplittableRandom rnd;
  private final KvCache kv;
  private final InstrumentationScope scope = InstrumentationScope.newBuilder()
      .setName("io.opentelemetry.runtime-telemetry").setVersion("2.10.0").build();
  private final int perRound;
  private int cursor;
  // Cumulative counters: per pod, route and status class, the value and the time it was last read.
  private final long[] counter;
  private final long[] counterAt;
  private final long[] podStart;
  private final PodMetrics[] byPod;

  /** The metric builders of one pod within the export being built. */
  private static final class PodMetrics {
    final Sum.Builder requests = Sum.newBuilder().setIsMonotonic(true)
        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
    final Histogram.Builder duration = Histogram.newBuilder()
        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA);
    final Sum.Builder active = Sum.newBuilder().setIsMonotonic(false)
        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
    final Gauge.Builder memory = Gauge.newBuilder();
    final Gauge.Builder cpu = Gauge.newBuilder();
    final Histogram.Builder db = Histogram.newBuilder()
        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA);
  }

  PointBuilder(Fleet fleet, SpanRing ring, SplittableRandom rnd, KvCache kv) {
    this.fleet = fleet;
    this.ring = ring;
    this.rnd = rnd;
    this.kv = kv;
    int n = 0;
    for (Fleet.Pod p : fleet.pods) n += pointsOf(p);
    perRound = n;
    counter = new long[fleet.pods.length * MAX_ROUTES * 2];
    counterAt = new long[counter.length];
    podStart = new long[fleet.pods.length];
    byPod = new PodMetrics[fleet.pods.length];
  }

  private int pointsOf(Fleet.Pod p) {
    Fleet.Service s = fleet.services[p.service()];
    return 3 * s.routes().length + 3 + (s.database() != null ? DB_OPS.length : 0);
  }

  /** Points in one round over the fleet: every pod's metrics once. */
  int perRound() {
    return perRound;
  }

  ExportMetricsServiceRequest build(int points, long now, boolean incident) {
    int rounds = Math.max(1, (points + perRound - 1) / perRound);
    int left = points;
    for (int round = 0; left > 0; round++) {
      long t = now - (long) Math.max(0, rounds - 1 - round) * INTERVAL_NANOS;
      for (int n = 0; n < fleet.pods.length && left > 0; n++) {
        int pod = cursor;
        cursor = (cursor + 1) % fleet.pods.length;
        left -= pod(pod, t, incident, left);
      }
    }
    ExportMetricsServiceRequest.Builder req = ExportMetricsServiceRequest.newBuilder();
    for (int pod = 0; pod < byPod.length; pod++) {
      PodMetrics m = byPod[pod];
      if (m == null) continue;
      byPod[pod] = null;
      ScopeMetrics.Builder sm = ScopeMetrics.newBuilder().setScope(scope);
      if (m.requests.getDataPointsCount() > 0) {
        sm.addMetrics(Metric.newBuilder().setName("http.server.requests").setUnit("{request}")
            .setDescription("Requests answered, by route and status class.").setSum(m.requests));
      }
      if (m.duration.getDataPointsCount() > 0) {
        sm.addMetrics(Metric.newBuilder().setName("http.server.request.duration").setUnit("s")
            .setDescription("Duration of HTTP server requests.").setHistogram(m.duration));
      }
      if (m.active.getDataPointsCount() > 0) {
        sm.addMetrics(Metric.newBuilder().setName("http.server.active_requests").setUnit("{request}").setSum(m.active));
      }
      if (m.memory.getDataPointsCount() > 0) {
        sm.addMetrics(Metric.newBuilder().setName("process.memory.usage").setUnit("By").setGauge(m.memory));
      }
      if (m.cpu.getDataPointsCount() > 0) {
        sm.addMetrics(Metric.newBuilder().setName("process.cpu.utilization").setUnit("1").setGauge(m.cpu));
      }
      if (m.db.getDataPointsCount() > 0) {
        sm.addMetrics(Metric.newBuilder().setName("db.client.operation.duration").setUnit("s").setHistogram(m.db));
      }
      req.addResourceMetrics(ResourceMetrics.newBuilder().setResource(fleet.pods[pod].resource())
          .setSchemaUrl(TelemetryStream.SCHEMA_URL).addScopeMetrics(sm));
    }
    return req.build();
  }

  /** Adds up to {@code max} points of one pod at time {@code t}; returns how many it added. */
  private int pod(int pod, long t, boolean incident, int max) {
    Fleet.Service s = fleet.services[fleet.pods[pod].service()];
    int service = s.index();
    PodMetrics m = byPod[pod];
    if (m == null) m = byPod[pod] = new PodMetrics();
    if (podStart[pod] == 0) podStart[pod] = t - 3_600_000_000_000L - (long) (rnd.nextDouble() * 86_400e9);
    double factor = Incident.latencyFactor(service, incident);
    double errorShare = incident && Incident.hits(service) ? Incident.INCIDENT_ERROR : 0.01;
    int added = 0;
    String[] routes = s.routes();
    for (int r = 0; r < routes.length && r < MAX_ROUTES; r++) {
      double rate = 5 + (pod * 31 + r * 17) % 45;
      for (int status = 0; status < 2; status++) {
        if (added == max) return added;
        int c = (pod * MAX_ROUTES + r) * 2 + status;
        long since = counterAt[c] == 0 ? INTERVAL_NANOS : t - counterAt[c];
        if (since > 0) {
          double share = status == 0 ? 1 - errorShare : errorShare;
          counter[c] += Math.round(rate * share * since / 1e9 * (0.8 + 0.4 * rnd.nextDouble()));
          counterAt[c] = t;
        }
        m.requests.addDataPoints(NumberDataPoint.newBuilder().setStartTimeUnixNano(podStart[pod]).setTimeUnixNano(t)
            .setAsInt(counter[c])
            .addAttributes(kv.str("http.route", routes[r]))
            .addAttributes(kv.str("http.response.status_code_class", status == 0 ? "2xx" : "5xx")));
        added++;
      }
      if (added == max) return added;
      m.duration.addDataPoints(histogram(t, rate * 10, 0.02 * factor, 0.8, service)
          .addAttributes(kv.str("http.route", routes[r])).addAttributes(kv.str("http.request.method", "GET")));
      added++;
    }
    if (added == max) return added;
    double load = incident && Incident.hits(service) ? 0.5 : 0;
    m.active.addDataPoints(NumberDataPoint.newBuilder().setStartTimeUnixNano(podStart[pod]).setTimeUnixNano(t)
        .setAsInt(Math.round(routes.length * 20 * 0.02 * factor * (0.5 + rnd.nextDouble()))));
    if (++added == max) return added;
    double sawtooth = ((t / 1_000_000_000L) % 60) / 60.0;
    m.memory.addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(t)
        .setAsInt((long) ((300 + 200 * sawtooth + 300 * load) * 1024 * 1024)));
    if (++added == max) return added;
    m.cpu.addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(t)
        .setAsDouble(Math.min(1, 0.1 + 0.2 * rnd.nextDouble() + load)));
    added++;
    if (s.database() != null) {
      for (String op : DB_OPS) {
        if (added == max) return added;
        m.db.addDataPoints(histogram(t, 200, 0.0012 * factor, 0.7, -1)
            .addAttributes(kv.str("db.system.name", s.database())).addAttributes(kv.str("db.operation.name", op)));
        added++;
      }
    }
    return added;
  }

  /**
   * A delta histogram point of about {@code expected} observations drawn from a log-normal with the
   * given median (seconds) and sigma: bucket counts from its distribution function. Points of
   * {@code service} (≥ 0) sometimes carry an exemplar from a recent span of that service.
   */
  private HistogramDataPoint.Builder histogram(long t, double expected, double median, double sigma, int service) {
    long count = Math.round(expected * (0.8 + 0.4 * rnd.nextDouble()));
    HistogramDataPoint.Builder h = HistogramDataPoint.newBuilder().setStartTimeUnixNano(t - INTERVAL_NANOS)
        .setTimeUnixNano(t).setCount(count);
    long seen = 0;
    double mu = Math.log(median);
    for (double b : SECONDS_BOUNDS) {
      h.addExplicitBounds(b);
      long upTo = Math.round(count * normalCdf((Math.log(b) - mu) / sigma));
      h.addBucketCounts(upTo - seen);
      seen = upTo;
    }
    h.addBucketCounts(count - seen);
    h.setSum(count * median * Math.exp(sigma * sigma / 2));
    if (count > 0) {
      h.setMin(median * Math.exp(-2.5 * sigma)).setMax(median * Math.exp(3 * sigma));
    }
    if (service >= 0 && !ring.isEmpty() && rnd.nextInt(4) == 0) {
      int i = ring.pick(rnd);
      if (fleet.pods[ring.pod[i]].service() == service) {
        h.addExemplars(Exemplar.newBuilder().setTimeUnixNano(ring.start[i]).setAsDouble(ring.duration[i] / 1e9)
            .setTraceId(TraceBuilder.traceId(ring.traceHi[i], ring.traceLo[i]))
            .setSpanId(TraceBuilder.spanId(ring.spanId[i])));
      }
    }
    return h;
  }

  /** The standard normal distribution function (Abramowitz and Stegun 26.2.17, error < 7.5e-8). */
  static double normalCdf(double x) {
    double t = 1 / (1 + 0.2316419 * Math.abs(x));
    double d = 0.3989422804014327 * Math.exp(-x * x / 2);
    double p = d * t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
    return x >= 0 ? 1 - p : p;
  }
}
