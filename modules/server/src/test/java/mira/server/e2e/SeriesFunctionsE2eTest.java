package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.exporter.otlp.metrics.OtlpGrpcMetricExporter;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Series functions end to end: two OpenTelemetry SDK MeterProviders with different service.name
 * resources (standing in for two processes) export over gRPC to a running node; the fleet
 * quantiles and the counter's increase come back over {@code POST /api/v1/series}.
 */
class SeriesFunctionsE2eTest {
  static final List<Double> BOUNDS = List.of(10.0, 25.0, 50.0, 100.0, 250.0, 500.0, 1000.0);
  static final int ROUNDS = 3;

  @TempDir Path data;

  static long nowNanos() {
    Instant t = Instant.now();
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }

  static final class Process {
    final SdkMeterProvider provider;
    final LongCounter requests;
    final DoubleHistogram latency;

    Process(Node node, String service) {
      provider = SdkMeterProvider.builder()
          .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"),
              service, AttributeKey.stringKey("service.instance.id"), service + "-1"))))
          .registerMetricReader(PeriodicMetricReader.builder(OtlpGrpcMetricExporter.builder().setEndpoint(node.grpc())
              .build()).setInterval(Duration.ofHours(1)).build())
          .build();
      Meter meter = provider.get("io.mira.e2e");
      requests = meter.counterBuilder("requests").build();
      latency = meter.histogramBuilder("latency").setUnit("ms").setExplicitBucketBoundariesAdvice(BOUNDS).build();
    }
  }

  @Test
  void fleetQuantilesByServiceAndACounterIncreaseMatchWhatWasRecorded() throws Exception {
    try (Node node = new Node(data)) {
      long from = nowNanos();
      Process api = new Process(node, "api");
      Process db = new Process(node, "db");
      for (int round = 0; round < ROUNDS; round++) {
        // Each round: api 10 requests, latencies 1..100 ms; db 5 requests, 10..1000 ms.
        api.requests.add(10, Attributes.of(AttributeKey.stringKey("route"), round % 2 == 0 ? "/a" : "/b"));
        db.requests.add(5);
        for (int v = 1; v <= 100; v++) {
          api.latency.record(v, Attributes.of(AttributeKey.stringKey("route"), v % 2 == 0 ? "/a" : "/b"));
          db.latency.record(10.0 * v);
        }
        assertThat(api.provider.forceFlush().join(10, TimeUnit.SECONDS).isSuccess()).isTrue();
        assertThat(db.provider.forceFlush().join(10, TimeUnit.SECONDS).isSuccess()).isTrue();
      }
      long to = nowNanos();
      String window = "\"from\": \"" + from + "\", \"to\": \"" + to + "\"";

      // The rate: a counter's points over the API, grouped by service, counted exactly. (A rate compared with a
      // wall-clock request rate is not asserted here: on this machine one acknowledged export took about 2 s,
      // so exports cannot be paced finely enough in a bounded test; see the report.)
      Map<String, Object> inc = QueryApiTest.obj(QueryApiTest.post(node, "/api/v1/series", "{\"name\": \"requests\", "
          + window + ", \"step\": \"1h\", \"fn\": \"increase\", \"group_by\": [\"service.name\"]}"));
      Map<String, Double> want = Map.of("api", 10.0 * ROUNDS, "db", 5.0 * ROUNDS);
      for (Map<String, Object> s : series(inc)) {
        double total = 0;
        for (Map<String, Object> p : points(s)) {
          total += ((Number) p.get("value")).doubleValue();
        }
        assertThat(total).as((String) attrs(s).get("service.name")).isEqualTo(want.get((String) attrs(s).get("service.name")));
      }
      assertThat(series(inc)).hasSize(2);

      // True quantiles of every round's values: api p50 = 50, p99 = 99; db p50 = 500, p99 = 990.
      Map<String, double[]> bucketOf = Map.of("api/0.5", new double[] {25, 50}, "api/0.99", new double[] {50, 100},
          "db/0.5", new double[] {250, 500}, "db/0.99", new double[] {500, 1000});
      for (double q : new double[] {0.5, 0.99}) {
        Map<String, Object> r = QueryApiTest.obj(QueryApiTest.post(node, "/api/v1/series", "{\"name\": \"latency\", "
            + window + ", \"step\": \"5s\", \"fn\": \"quantile\", \"quantile\": " + q
            + ", \"group_by\": [\"service.name\"]}"));
        List<Map<String, Object>> qs = series(r);
        assertThat(qs).hasSize(2);
        for (Map<String, Object> s : qs) {
          String service = (String) attrs(s).get("service.name");
          double[] b = bucketOf.get(service + "/" + q);
          assertThat((List<?>) s.get("bounds")).hasSize(BOUNDS.size());
          assertThat(points(s)).isNotEmpty().allSatisfy(p -> assertThat(((Number) p.get("value")).doubleValue())
              .as(service + " p" + q).isBetween(b[0], b[1]));
        }
      }
      // A rate of a histogram's buckets is not a quantile; a quantile of a counter is refused naming both.
      var bad = QueryApiTest.post(node, "/api/v1/series", "{\"name\": \"requests\", " + window
          + ", \"step\": \"5s\", \"fn\": \"quantile\", \"quantile\": 0.5}");
      assertThat(bad.status()).isEqualTo(400);
      assertThat(new String(bad.body(), java.nio.charset.StandardCharsets.UTF_8)).contains("quantile").contains("sum");
      api.provider.shutdown();
      db.provider.shutdown();
    }
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> series(Map<String, Object> r) {
    return (List<Map<String, Object>>) r.get("series");
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> points(Map<String, Object> s) {
    return (List<Map<String, Object>>) s.get("points");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> attrs(Map<String, Object> s) {
    return (Map<String, Object>) s.get("attributes");
  }
}
