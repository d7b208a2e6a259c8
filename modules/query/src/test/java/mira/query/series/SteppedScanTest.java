package mira.query.series;

import static mira.query.testing.Metrics.attr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.resource.v1.Resource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import mira.block.read.OpenBlocks;
import mira.proto.wire.Signal;
import mira.query.doc.Documents;
import mira.query.doc.SeriesQuery;
import mira.query.prune.Pruning;
import mira.query.prune.SidecarCache;
import mira.query.render.SeriesJson;
import mira.query.result.QueryException;
import mira.query.result.SeriesResult;
import mira.query.scan.Engine;
import mira.query.scan.OpenBlockCache;
import mira.query.scan.ScanThreads;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import mira.query.testing.JsonTree;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterTry;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * Stepped rate, increase and quantile from per-block partials against the same query answered by
 * gathering every point: random cumulative and delta counters and histograms with resets,
 * restarts and exemplars, spread over several blocks (in time order, or overlapping so that the
 * partials must step aside), asked over windows that hold blocks whole and windows that cut them,
 * cold, from kept partials, and under a budget that keeps almost none.
 */
class SteppedScanTest {
  static final long S = 1_000_000_000L;
  static final long T0 = (Corpus.T0 / 3600 / S) * 3600 * S;
  static final long HOURS = 3;
  static final double[] BOUNDS = {5, 10, 25, 50, 100, 250};

  Path dir;

  @AfterTry
  void cleanUp() throws Exception {
    if (dir != null) {
      Blocks.deleteTree(dir);
    }
  }

  /** One point of one series, before it is put in a block. */
  record Pt(String service, String metric, String route, long time, Object point) {}

  @Property(tries = 20)
  void partialsAnswerAsEveryPointGathered(@ForAll long seed) throws Exception {
    Random rnd = new Random(seed);
    dir = Files.createTempDirectory("mira-stepped");
    List<Pt> all = new ArrayList<>();
    for (String service : List.of("api", "db", "web")) {
      for (String route : List.of("/a", "/b")) {
        counter(rnd, all, service, "req", route, false);
        counter(rnd, all, service, "req.delta", route, true);
        histogram(rnd, all, service, "lat", route, false);
        histogram(rnd, all, service, "lat.delta", route, true);
      }
    }
    all.sort((a, b) -> Long.compare(a.time(), b.time()));
    int blocks = 1 + rnd.nextInt(6);
    boolean overlapping = rnd.nextInt(4) == 0;
    List<List<Pt>> parts = new ArrayList<>();
    for (int b = 0; b < blocks; b++) {
      parts.add(new ArrayList<>());
    }
    for (int i = 0; i < all.size(); i++) {
      int b = overlapping ? rnd.nextInt(blocks) : (int) ((long) i * blocks / all.size());
      parts.get(b).add(all.get(i));
    }
    int seq = 1;
    for (List<Pt> part : parts) {
      if (!part.isEmpty()) {
        Blocks.publish(dir, Signal.METRICS, "n", seq++, request(part), T0);
      }
    }
    long end = T0 + HOURS * 3600 * S;
    long[][] windows = {{T0 - 3600 * S, end + 3600 * S}, {T0 + 3600 * S, T0 + 2 * 3600 * S - 1},
        {T0 + rnd.nextInt(3 * 3600) * S, end}, {T0 + 600 * S, T0 + 1200 * S}};
    String[] steps = {"1m", "5m", "7m"};
    String[] groupBys = {"", ", \"group_by\": []", ", \"group_by\": [\"service.name\"]", ", \"group_by\": [\"route\"]"};
    try (BufferAllocator allocator = new RootAllocator();
        OpenBlockCache readers = new OpenBlockCache(allocator, 4, java.time.Duration.ZERO)) {
      Engine engine = new Engine(dir.toAbsolutePath(), allocator,
          Pruning.withSidecars(new SidecarCache(SidecarCache.DEFAULT_MAX_BYTES)), new ScanThreads(1),
          OpenBlocks.NONE, readers);
      SeriesPartials kept = new SeriesPartials(SeriesPartials.DEFAULT_MAX_BYTES);
      SeriesPartials tiny = new SeriesPartials(2_000);
      // A slot of a day: every block of the corpus is joined into one partial where they fold.
      SeriesPartials joining = new SeriesPartials(SeriesPartials.DEFAULT_MAX_BYTES, 24 * 3600 * S);
      for (int round = 0; round < 2; round++) {
        for (long[] w : windows) {
          for (int k = 0; k < 6; k++) {
            String name = List.of("req", "req.delta", "lat", "lat.delta", "lat.count").get(rnd.nextInt(5));
            String fn = name.startsWith("lat") && rnd.nextBoolean() ? "\"fn\": \"quantile\", \"quantile\": "
                + List.of("0.5", "0.99", "0.9").get(rnd.nextInt(3)) : "\"fn\": \"" + (rnd.nextBoolean() ? "rate" : "increase") + "\"";
            String where = rnd.nextInt(4) == 0 ? ", \"where\": [{\"attr\": \"service.name\", \"eq\": \"api\"}]" : "";
            String doc = "{\"name\": \"" + name + "\", \"from\": \"" + w[0] + "\", \"to\": \"" + w[1] + "\", \"step\": \""
                + steps[rnd.nextInt(steps.length)] + "\", " + fn + groupBys[rnd.nextInt(groupBys.length)] + where
                + ", \"max_series\": 10000, \"max_points\": 10000}";
            SeriesQuery q = Documents.series(doc.getBytes(StandardCharsets.UTF_8), end);
            JsonTree.Obj want = answer(SeriesScan.run(engine, q, null));
            for (SeriesPartials cache : List.of(kept, tiny, joining)) {
              JsonTree.Obj got = answer(SeriesScan.run(engine, q, cache));
              assertThat(difference(want, got, "")).as("seed %d, %s, overlapping %s", seed, doc, overlapping).isNull();
            }
          }
        }
      }
      assertThat(tiny.bytes()).isLessThanOrEqualTo(2_000);
      if (!overlapping) {
        // Blocks in time order fold: over a window holding them all, the kept partials answer alone.
        for (String doc : List.of("\"name\": \"lat\", \"fn\": \"quantile\", \"quantile\": 0.99",
            "\"name\": \"req\", \"fn\": \"rate\"")) {
          SeriesQuery q = Documents.series(("{" + doc + ", \"from\": \"" + windows[0][0] + "\", \"to\": \""
              + windows[0][1] + "\", \"step\": \"1m\"}").getBytes(StandardCharsets.UTF_8), end);
          SeriesScan.run(engine, q, kept);
          SeriesResult again = SeriesScan.run(engine, q, kept);
          assertThat(again.stats().blocksScanned()).as("%s, seed %d", doc, seed).isZero();
          assertThat(again.series()).isNotEmpty();
          SeriesScan.run(engine, q, joining);
          assertThat(answer(SeriesScan.run(engine, q, joining))).as("%s, seed %d", doc, seed).isEqualTo(answer(again));
        }
        if (parts.stream().filter(l -> !l.isEmpty()).count() > 1) {
          assertThat(joining.keys().stream().anyMatch(k -> k.get(0) instanceof SeriesPartials.Run))
              .as("blocks in time order are joined, seed %d", seed).isTrue();
        }
      }
    }
  }

  /**
   * Blocks sealed side by side (several ingest shards) overlap in time and one series alternates
   * between them: the query goes straight to the gathering path, keeps no partial, and answers as
   * gathering does. Blocks that only touch at one end still take the stepped path.
   */
  @Test
  void overlappingBlocksAreGatheredWithoutBuildingPartials() throws Exception {
    dir = Files.createTempDirectory("mira-stepped");
    try {
      Random rnd = new Random(12);
      List<Pt> all = new ArrayList<>();
      counter(rnd, all, "api", "req", "/a", false);
      all.sort((a, b) -> Long.compare(a.time(), b.time()));
      List<Pt> even = new ArrayList<>();
      List<Pt> odd = new ArrayList<>();
      for (int i = 0; i < all.size(); i++) {
        (i % 2 == 0 ? even : odd).add(all.get(i));
      }
      Blocks.publish(dir, Signal.METRICS, "n", 1, request(even), T0);
      Blocks.publish(dir, Signal.METRICS, "n", 2, request(odd), T0);
      String doc = "{\"name\": \"req\", \"from\": \"" + T0 + "\", \"to\": \"" + (T0 + HOURS * 3600 * S)
          + "\", \"step\": \"1m\", \"fn\": \"rate\", \"group_by\": [\"service.name\"]}";
      SeriesQuery q = Documents.series(doc.getBytes(StandardCharsets.UTF_8), T0);
      try (BufferAllocator allocator = new RootAllocator();
          OpenBlockCache readers = new OpenBlockCache(allocator, 4, java.time.Duration.ZERO)) {
        Engine engine = new Engine(dir.toAbsolutePath(), allocator, Pruning.byNameOnly(), new ScanThreads(0),
            OpenBlocks.NONE, readers);
        assertThat(SteppedScan.overlapping(engine.sources(Signal.METRICS, q.from(), q.to()).refs())).isNotNull();
        SeriesPartials cache = new SeriesPartials(SeriesPartials.DEFAULT_MAX_BYTES);
        SeriesResult got = SeriesScan.run(engine, q, cache);
        assertThat(cache.size()).as("no partial built").isZero();
        assertThat(got.series()).isNotEmpty();
        assertThat(answer(got)).isEqualTo(answer(SeriesScan.run(engine, q, null)));
      }
    } finally {
      Blocks.deleteTree(dir);
      dir = null;
    }
  }

  @Test
  void aSecondAnswerFromKeptPartialsOpensNoBlockAndASweptBlockIsReadAgain() throws Exception {
    dir = Files.createTempDirectory("mira-stepped");
    try {
      Random rnd = new Random(11);
      List<Pt> all = new ArrayList<>();
      histogram(rnd, all, "api", "lat", "/a", false);
      all.sort((a, b) -> Long.compare(a.time(), b.time()));
      int half = all.size() / 2;
      Path first = Blocks.publish(dir, Signal.METRICS, "n", 1, request(all.subList(0, half)), T0);
      Blocks.publish(dir, Signal.METRICS, "n", 2, request(all.subList(half, all.size())), T0);
      String doc = "{\"name\": \"lat\", \"from\": \"" + T0 + "\", \"to\": \"" + (T0 + HOURS * 3600 * S)
          + "\", \"step\": \"1m\", \"fn\": \"quantile\", \"quantile\": 0.99, \"group_by\": [\"service.name\"]}";
      SeriesQuery q = Documents.series(doc.getBytes(StandardCharsets.UTF_8), T0);
      try (BufferAllocator allocator = new RootAllocator();
          OpenBlockCache readers = new OpenBlockCache(allocator, 4, java.time.Duration.ZERO)) {
        Engine engine = new Engine(dir.toAbsolutePath(), allocator, Pruning.byNameOnly(), new ScanThreads(0),
            OpenBlocks.NONE, readers);
        SeriesPartials cache = new SeriesPartials(SeriesPartials.DEFAULT_MAX_BYTES);
        SeriesResult cold = SeriesScan.run(engine, q, cache);
        SeriesResult warm = SeriesScan.run(engine, q, cache);
        assertThat(cold.stats().blocksScanned()).isEqualTo(2);
        assertThat(warm.stats().blocksScanned()).isZero();
        assertThat(answer(warm)).isEqualTo(answer(cold)).isEqualTo(answer(SeriesScan.run(engine, q, null)));
        assertThat(warm.series()).hasSize(1);
        assertThat(warm.series().get(0).points()).isNotEmpty();
        assertThat(cache.size()).isEqualTo(2);
        SeriesPartials joining = new SeriesPartials(SeriesPartials.DEFAULT_MAX_BYTES, 24 * 3600 * S);
        SeriesScan.run(engine, q, joining);
        assertThat(answer(SeriesScan.run(engine, q, joining))).isEqualTo(answer(cold));
        assertThat(joining.size()).as("two blocks and the run joining them").isEqualTo(3);
        Blocks.deleteTree(first);
        cache.sweepOwn();
        joining.sweepOwn();
        assertThat(cache.size()).isEqualTo(1);
        assertThat(joining.size()).as("the run went with its first block").isEqualTo(1);
        assertThat(SeriesScan.run(engine, q, cache).stats().blocksScanned()).isZero();
      }
    } finally {
      Blocks.deleteTree(dir);
      dir = null;
    }
  }

  @Test
  void aFunctionWithoutMeaningIsStillRefusedFromPartials() throws Exception {
    dir = Files.createTempDirectory("mira-stepped");
    try {
      Random rnd = new Random(5);
      List<Pt> all = new ArrayList<>();
      counter(rnd, all, "api", "req", "/a", false);
      Blocks.publish(dir, Signal.METRICS, "n", 1, request(all), T0);
      String doc = "{\"name\": \"req\", \"from\": \"" + T0 + "\", \"to\": \"" + (T0 + HOURS * 3600 * S)
          + "\", \"step\": \"1m\", \"fn\": \"quantile\", \"quantile\": 0.99}";
      SeriesQuery q = Documents.series(doc.getBytes(StandardCharsets.UTF_8), T0);
      try (BufferAllocator allocator = new RootAllocator();
          OpenBlockCache readers = new OpenBlockCache(allocator, 4, java.time.Duration.ZERO)) {
        Engine engine = new Engine(dir.toAbsolutePath(), allocator, Pruning.byNameOnly(), new ScanThreads(0),
            OpenBlocks.NONE, readers);
        SeriesPartials cache = new SeriesPartials(SeriesPartials.DEFAULT_MAX_BYTES);
        for (int i = 0; i < 2; i++) {
          assertThatThrownBy(() -> SeriesScan.run(engine, q, cache)).isInstanceOf(QueryException.class)
              .hasMessageContaining("fn \"quantile\" has no meaning for the sum \"req\"");
        }
      }
    } finally {
      Blocks.deleteTree(dir);
      dir = null;
    }
  }

  /**
   * Where two answers differ, or null: numbers may differ in their last bits only (fractional
   * increases are added in another order), everything else exactly.
   */
  static String difference(Object want, Object got, String at) {
    if (want instanceof JsonTree.Obj w && got instanceof JsonTree.Obj g) {
      if (w.members().size() != g.members().size()) {
        return at + ": " + w.members().size() + " members, got " + g.members().size();
      }
      for (int i = 0; i < w.members().size(); i++) {
        Map.Entry<String, Object> a = w.members().get(i);
        Map.Entry<String, Object> b = g.members().get(i);
        String d = !a.getKey().equals(b.getKey()) ? at + ": member " + a.getKey() + ", got " + b.getKey()
            : difference(a.getValue(), b.getValue(), at + "." + a.getKey());
        if (d != null) {
          return d;
        }
      }
      return null;
    }
    if (want instanceof List<?> w && got instanceof List<?> g) {
      if (w.size() != g.size()) {
        return at + ": " + w.size() + " elements, got " + g.size() + ": " + w + " vs " + g;
      }
      for (int i = 0; i < w.size(); i++) {
        String d = difference(w.get(i), g.get(i), at + "[" + i + "]");
        if (d != null) {
          return d;
        }
      }
      return null;
    }
    if (want instanceof Double w && got instanceof Double g) {
      return Math.abs(w - g) <= 1e-12 * Math.max(1, Math.abs(w)) ? null : at + ": " + w + ", got " + g;
    }
    return java.util.Objects.equals(want, got) ? null : at + ": " + want + ", got " + got;
  }

  /** The answer without its stats (blocks scanned and time differ by design). */
  static JsonTree.Obj answer(SeriesResult r) {
    JsonTree.Obj o = JsonTree.parseObj(SeriesJson.series(r));
    List<Map.Entry<String, Object>> members = new ArrayList<>();
    for (Map.Entry<String, Object> e : o.members()) {
      if (!e.getKey().equals("stats")) {
        members.add(e);
      }
    }
    return new JsonTree.Obj(members);
  }

  /** A monotonic counter of random traffic: cumulative with resets and restarts, or delta. */
  static void counter(Random rnd, List<Pt> out, String service, String metric, String route, boolean delta) {
    long t = T0 + rnd.nextInt(600) * S;
    long start = t - rnd.nextInt(1200) * S;   // some start before the windows asked, some inside
    long prev = t;
    long total = 0;
    while (t < T0 + HOURS * 3600 * S) {
      long inc = rnd.nextInt(40);
      if (!delta && rnd.nextInt(25) == 0) {
        start = prev + 1;   // a restart: a new start time, counting from zero
        total = 0;
      } else if (!delta && rnd.nextInt(40) == 0) {
        total = 0;          // a reset without a new start time
      }
      total += inc;
      NumberDataPoint.Builder p = NumberDataPoint.newBuilder().setTimeUnixNano(t)
          .setStartTimeUnixNano(delta ? prev : start).setAsInt(delta ? inc : total).addAttributes(attr("route", route));
      if (rnd.nextInt(5) == 0) {
        p.addExemplars(exemplar(rnd, t, inc));
      }
      out.add(new Pt(service, metric, route, t, p.build()));
      prev = t;
      t += (10 + rnd.nextInt(170)) * S;
    }
  }

  /** A histogram of random observations: cumulative with restarts, or delta. */
  static void histogram(Random rnd, List<Pt> out, String service, String metric, String route, boolean delta) {
    long t = T0 + rnd.nextInt(600) * S;
    long start = t - rnd.nextInt(1200) * S;
    long prev = t;
    long[] cum = new long[BOUNDS.length + 1];
    double sum = 0;
    while (t < T0 + HOURS * 3600 * S) {
      if (!delta && rnd.nextInt(30) == 0) {
        start = prev + 1;
        cum = new long[cum.length];
        sum = 0;
      }
      long[] now = new long[cum.length];
      double added = 0;
      int n = rnd.nextInt(20);
      for (int i = 0; i < n; i++) {
        double v = Math.abs(rnd.nextGaussian()) * 60;
        int b = 0;
        while (b < BOUNDS.length && v > BOUNDS[b]) {
          b++;
        }
        now[b]++;
        added += v;
      }
      long count = 0;
      HistogramDataPoint.Builder p = HistogramDataPoint.newBuilder().setTimeUnixNano(t)
          .setStartTimeUnixNano(delta ? prev : start).addAttributes(attr("route", route));
      for (double b : BOUNDS) {
        p.addExplicitBounds(b);
      }
      for (int k = 0; k < cum.length; k++) {
        cum[k] += now[k];
        long c = delta ? now[k] : cum[k];
        p.addBucketCounts(c);
        count += c;
      }
      sum += added;
      p.setCount(count).setSum(delta ? added : sum);
      if (rnd.nextInt(4) == 0) {
        p.addExemplars(exemplar(rnd, t, rnd.nextInt(300)));
      }
      out.add(new Pt(service, metric, route, t, p.build()));
      prev = t;
      t += (10 + rnd.nextInt(170)) * S;
    }
  }

  static Exemplar exemplar(Random rnd, long t, double value) {
    byte[] trace = new byte[16];
    byte[] span = new byte[8];
    rnd.nextBytes(trace);
    rnd.nextBytes(span);
    return Exemplar.newBuilder().setTimeUnixNano(t).setAsDouble(value).setTraceId(ByteString.copyFrom(trace))
        .setSpanId(ByteString.copyFrom(span)).build();
  }

  /** One export of the points: a resource per service, a metric per name with its points. */
  static ExportMetricsServiceRequest request(List<Pt> points) {
    TreeMap<String, TreeMap<String, List<Object>>> byService = new TreeMap<>();
    for (Pt p : points) {
      byService.computeIfAbsent(p.service(), k -> new TreeMap<>()).computeIfAbsent(p.metric(), k -> new ArrayList<>())
          .add(p.point());
    }
    ExportMetricsServiceRequest.Builder req = ExportMetricsServiceRequest.newBuilder();
    byService.forEach((service, metrics) -> {
      ScopeMetrics.Builder scope = ScopeMetrics.newBuilder();
      metrics.forEach((name, pts) -> {
        boolean delta = name.endsWith(".delta");
        Metric.Builder m = Metric.newBuilder().setName(name).setUnit(name.startsWith("lat") ? "ms" : "1");
        if (name.startsWith("lat")) {
          Histogram.Builder h = Histogram.newBuilder().setAggregationTemporalityValue(delta ? 1 : 2);
          pts.forEach(p -> h.addDataPoints((HistogramDataPoint) p));
          m.setHistogram(h);
        } else {
          Sum.Builder s = Sum.newBuilder().setIsMonotonic(true).setAggregationTemporalityValue(delta ? 1 : 2);
          pts.forEach(p -> s.addDataPoints((NumberDataPoint) p));
          m.setSum(s);
        }
        scope.addMetrics(m);
      });
      req.addResourceMetrics(ResourceMetrics.newBuilder()
          .setResource(Resource.newBuilder().addAttributes(attr("service.name", service))).addScopeMetrics(scope));
    });
    return req.build();
  }
}
