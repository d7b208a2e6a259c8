package mira.server.e2e;

import static mira.server.e2e.ClusterE2eTest.freePort;
import static mira.server.e2e.ClusterE2eTest.node;
import static mira.server.e2e.QueryApiTest.map;
import static mira.server.e2e.QueryApiTest.obj;
import static mira.server.e2e.QueryApiTest.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import mira.client.ResultReader;
import mira.query.result.SeriesResult;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Series functions across replicas when one series' points are spread over the nodes: the
 * OpenTelemetry SDK exports a cumulative counter and a histogram through an exporter that sends
 * each export to the next of three nodes in turn (a load balancer per request) and every export
 * to a fourth node alone, the oracle. Asked at any of the three, rate, increase, quantile and the
 * other functions, grouped by service, equal the oracle's answer over the same points, and so do
 * raw points; the nodes' own answers, combined step by step, do not.
 */
class ClusterSeriesE2eTest {
  static final List<Double> BOUNDS = List.of(10.0, 25.0, 50.0, 100.0, 250.0, 500.0, 1000.0);
  static final int EXPORTS = 12;

  @TempDir Path dir;

  /** Each export to the next node in turn, and to the oracle as well. */
  static final class Balancer implements MetricExporter {
    final List<MetricExporter> nodes;
    final MetricExporter oracle;
    int next;

    Balancer(List<MetricExporter> nodes, MetricExporter oracle, int first) {
      this.nodes = nodes;
      this.oracle = oracle;
      this.next = first;
    }

    @Override
    public synchronized CompletableResultCode export(Collection<MetricData> metrics) {
      CompletableResultCode one = nodes.get(next++ % nodes.size()).export(metrics);
      return CompletableResultCode.ofAll(List.of(one, oracle.export(metrics)));
    }

    @Override
    public CompletableResultCode flush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      List<CompletableResultCode> all = new ArrayList<>();
      for (MetricExporter e : nodes) {
        all.add(e.shutdown());
      }
      all.add(oracle.shutdown());
      return CompletableResultCode.ofAll(all);
    }

    @Override
    public AggregationTemporality getAggregationTemporality(InstrumentType type) {
      return AggregationTemporality.CUMULATIVE;
    }
  }

  static MetricExporter exporter(Node n) {
    return OtlpHttpMetricExporter.builder().setEndpoint(n.http() + "/v1/metrics").build();
  }

  static long nowNanos() {
    Instant t = Instant.now();
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }

  @Test
  void functionsOverASeriesSpreadAcrossNodesEqualOneNodeHoldingEveryPoint() throws Exception {
    int[] ports = {freePort(), freePort(), freePort()};
    String peers = "127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1] + ",127.0.0.1:" + ports[2];
    List<Node> nodes = new ArrayList<>();
    List<SdkMeterProvider> providers = new ArrayList<>();
    try (Node oracle = new Node(dir.resolve("oracle"), Map.of(mira.server.config.Key.NODE, "oracle"))) {
      for (int i = 0; i < 3; i++) {
        nodes.add(node(dir.resolve("n" + i), "n" + i, ports[i], peers));
      }
      long from = nowNanos();
      String[] services = {"api", "db"};
      List<LongCounter> counters = new ArrayList<>();
      List<DoubleHistogram> latencies = new ArrayList<>();
      for (int s = 0; s < services.length; s++) {
        Balancer b = new Balancer(List.of(exporter(nodes.get(0)), exporter(nodes.get(1)), exporter(nodes.get(2))),
            exporter(oracle), s);
        SdkMeterProvider p = SdkMeterProvider.builder()
            .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(
                AttributeKey.stringKey("service.name"), services[s],
                AttributeKey.stringKey("service.instance.id"), services[s] + "-1"))))
            .registerMetricReader(PeriodicMetricReader.builder(b).setInterval(Duration.ofHours(1)).build())
            .build();
        providers.add(p);
        Meter m = p.get("io.mira.cluster");
        counters.add(m.counterBuilder("requests").build());
        latencies.add(m.histogramBuilder("latency").setUnit("ms").setExplicitBucketBoundariesAdvice(BOUNDS).build());
      }
      long[] added = new long[services.length];
      for (int round = 0; round < EXPORTS; round++) {
        for (int s = 0; s < services.length; s++) {
          // Uneven traffic per round, so each node's share of a counter differs from a third.
          long n = 3 + (round * 7L + s * 5L) % 11;
          counters.get(s).add(n);
          added[s] += n;
          for (int v = 0; v < 20; v++) {
            latencies.get(s).record((s + 1) * (5.0 + ((round * 37 + v * 13) % 97) * (round % 3 + 1)));
          }
        }
        for (SdkMeterProvider p : providers) {
          assertThat(p.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
        }
        Thread.sleep(120); // points of one series a little apart, several to a 1 s step
      }
      for (SdkMeterProvider p : providers) {
        p.shutdown().join(10, TimeUnit.SECONDS); // its last export, a repeat of the last points, goes out now
      }
      providers.clear();
      long to = nowNanos();
      String window = "\"from\": \"" + from + "\", \"to\": \"" + to + "\"";

      // Each node holds about a third of each series (a shut-down provider exports once more): its own
      // raw points are not the whole, and the three together are.
      SeriesResult all = ResultReader.series(post(oracle, "/api/v1/series", "{\"name\": \"requests\", " + window
          + "}").body());
      assertThat(all.series()).hasSize(2).allSatisfy(s -> assertThat(s.points()).hasSizeBetween(EXPORTS, EXPORTS + 1));
      int[] held = new int[2];
      for (Node n : nodes) {
        SeriesResult own = hop(n, "{\"name\": \"requests\", " + window + "}");
        assertThat(own.series()).hasSize(2);
        for (int s = 0; s < 2; s++) {
          assertThat(own.series().get(s).points()).hasSizeBetween(EXPORTS / 3, EXPORTS / 3 + 1);
          held[s] += own.series().get(s).points().size();
        }
      }
      assertThat(held[0]).isEqualTo(all.series().get(0).points().size());
      assertThat(held[1]).isEqualTo(all.series().get(1).points().size());

      // The oracle's increase is what was added (its first point counts whole: the counter started in the window).
      SeriesResult total = ResultReader.series(post(oracle, "/api/v1/series", "{\"name\": \"requests\", " + window
          + ", \"step\": \"1h\", \"fn\": \"increase\", \"group_by\": [\"service.name\"]}").body());
      assertThat(total.series()).hasSize(2);
      for (int s = 0; s < services.length; s++) {
        assertThat(sum(total.series().get(s))).as(services[s]).isEqualTo((double) added[s]);
      }

      List<String> docs = new ArrayList<>();
      for (String step : List.of("1s", "1h")) {
        String g = ", \"step\": \"" + step + "\", \"group_by\": [\"service.name\"]";
        docs.add("{\"name\": \"requests\", " + window + g + ", \"fn\": \"increase\"}");
        docs.add("{\"name\": \"requests\", " + window + g + ", \"fn\": \"rate\"}");
        docs.add("{\"name\": \"requests\", " + window + ", \"step\": \"" + step + "\", \"fn\": \"rate\"}");
        docs.add("{\"name\": \"requests\", " + window + g + ", \"fn\": \"last\", \"agg\": \"max\"}");
        docs.add("{\"name\": \"latency\", " + window + g + ", \"fn\": \"quantile\", \"quantile\": 0.5}");
        docs.add("{\"name\": \"latency\", " + window + g + ", \"fn\": \"quantile\", \"quantile\": 0.99}");
        docs.add("{\"name\": \"latency\", " + window + g + ", \"fn\": \"avg\"}");
        docs.add("{\"name\": \"latency.count\", " + window + g + ", \"fn\": \"increase\", \"agg\": \"count\"}");
      }
      docs.add("{\"name\": \"requests\", " + window + "}");
      docs.add("{\"name\": \"latency\", " + window + ", \"max_points\": 5}");
      for (String doc : docs) {
        SeriesResult want = ResultReader.series(post(oracle, "/api/v1/series", doc).body());
        assertThat(want.series()).as(doc).isNotEmpty();
        for (Node at : nodes) {
          HttpExchange x = post(at, "/api/v1/series", doc);
          assertThat(x.status()).as(doc).isEqualTo(200);
          assertThat(map(obj(x).get("cluster"))).containsEntry("answered", 3L).containsEntry("partial", false);
          assertThat(canonical(ResultReader.series(x.body()))).as(doc + " at " + at.server.httpPort())
              .isEqualTo(canonical(want));
        }
      }

      // What the nodes answer alone, combined step by step, is not the increase: each node's first point
      // counts whole and the increases between its own points skip the other nodes' points.
      String inc = "{\"name\": \"requests\", " + window + ", \"step\": \"1h\", \"fn\": \"increase\", "
          + "\"group_by\": [\"service.name\"]}";
      double combined = 0;
      for (Node n : nodes) {
        for (SeriesResult.Series s : hop(n, inc).series()) {
          combined += sum(s);
        }
      }
      assertThat(combined).isGreaterThan((double) (added[0] + added[1]));
    } finally {
      for (SdkMeterProvider p : providers) {
        p.shutdown().join(10, TimeUnit.SECONDS);
      }
      for (Node n : nodes) {
        n.close();
      }
    }
  }

  /** A node's answer from its own data alone (a peer's question). */
  static SeriesResult hop(Node n, String doc) throws Exception {
    HttpExchange x = HttpExchange.send("POST", n.http() + "/api/v1/series",
        Map.of("Mira-Hop", "1", "Content-Type", "application/json"), doc.getBytes(), false);
    assertThat(x.status()).isEqualTo(200);
    return ResultReader.series(x.body());
  }

  static double sum(SeriesResult.Series s) {
    double t = 0;
    for (SeriesResult.Point p : s.points()) {
      t += p.d();
    }
    return t;
  }

  /** The series as a reader sees them: identity, points and bounds, without costs. */
  static List<String> canonical(SeriesResult r) {
    List<String> out = new ArrayList<>();
    for (SeriesResult.Series s : r.series()) {
      TreeMap<Long, String> points = new TreeMap<>();
      for (SeriesResult.Point p : s.points()) {
        points.put(p.time(), p.kind() + ":" + p.l() + ":" + p.d());
      }
      out.add(s.name() + " " + s.type() + " " + s.unit() + " " + s.resource() + " " + s.attributes() + " " + points
          + " dropped=" + s.droppedPoints() + " bounds=" + java.util.Arrays.toString(s.bounds()) + " scale=" + s.scale());
    }
    out.add("dropped_series=" + r.droppedSeries());
    return out;
  }
}
