package mira.query.frame;

import static mira.query.testing.Metrics.attr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.render.EntityJson;
import mira.query.result.Entities;
import mira.query.result.EntityList;
import mira.query.result.QueryException;
import mira.query.result.ServiceList;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import mira.query.testing.Expected;
import mira.query.testing.JsonTree;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterTry;
import org.junit.jupiter.api.Test;

/**
 * The entity and service listings against a brute-force count over the OTLP requests that made
 * the blocks: random resources (pods whose attributes drift mid-stream, processes on hosts,
 * services without instances, resources with no identity) send random logs, spans and points
 * split over several blocks of every signal.
 */
class CensusTest {
  static final long T0 = Corpus.T0;
  static final long S = 1_000_000_000L;
  static final long NOW = T0 + 3600 * S;

  /** Identities to draw resources from; a pod appears twice, the second time with one more attribute. */
  static final List<List<KeyValue>> RESOURCES = List.of(
      List.of(attr("service.name", "checkout"), attr("service.instance.id", "i-1")),
      List.of(attr("service.name", "checkout"), attr("service.instance.id", "i-1"), attr("deployment", "blue")),
      List.of(attr("service.name", "checkout"), attr("service.instance.id", "i-2"), attr("service.namespace", "shop")),
      List.of(attr("service.name", "cart"), attr("k8s.pod.uid", "uid-7"), attr("k8s.pod.name", "cart-7")),
      List.of(attr("service.name", "cart"), attr("k8s.pod.uid", "uid-7"), attr("k8s.pod.name", "cart-7"),
          attr("k8s.node.name", "n1")),
      List.of(attr("service.name", "db"), attr("host.name", "h1"), KeyValue.newBuilder().setKey("process.pid")
          .setValue(AnyValue.newBuilder().setIntValue(42)).build()),
      List.of(attr("container.id", "c0ffee")),
      List.of(attr("service.name", "mail")),
      List.of(attr("telemetry.sdk.language", "go")),
      List.of());


  Path dir;

  @AfterTry
  void clean() throws Exception {
    Blocks.deleteTree(dir);
  }

  /** Expected counts per group: entity key (or the attribute list, for key 0). */
  static final class Want {
    final long[] n = new long[3];
    long errors;
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    String service;
  }

  @Property(tries = 40)
  void listingsEqualABruteForceCountOfTheRequests(@ForAll long seed) throws Exception {
    dir = Files.createTempDirectory("mira-census");
    Random rnd = new Random(seed);
    long from = T0 + 100 * S;
    long to = T0 + 200 * S;
    Map<Object, Want> want = new HashMap<>();
    int seq = 1;
    for (int si = 0; si < 3; si++) {
      Signal signal = Census.SIGNALS.get(si);
      int blocks = 1 + rnd.nextInt(3);
      for (int b = 0; b < blocks; b++) {
        // One request per block; each resource appears at most once per request.
        List<Integer> picked = new ArrayList<>();
        for (int r = 0; r < RESOURCES.size(); r++) {
          if (rnd.nextInt(3) == 0) {
            picked.add(r);
          }
        }
        if (picked.isEmpty()) {
          continue;
        }
        var logs = ExportLogsServiceRequest.newBuilder();
        var traces = ExportTraceServiceRequest.newBuilder();
        var metrics = ExportMetricsServiceRequest.newBuilder();
        for (int r : picked) {
          Resource res = Resource.newBuilder().addAllAttributes(RESOURCES.get(r)).build();
          long key = Expected.entity(res);
          Object group = key != 0 ? key : res.getAttributesList();
          int records = 1 + rnd.nextInt(6);
          var scopeLogs = ScopeLogs.newBuilder();
          var scopeSpans = ScopeSpans.newBuilder();
          var gauge = Gauge.newBuilder();
          for (int i = 0; i < records; i++) {
            long t = T0 + rnd.nextInt(300) * S;
            boolean error = rnd.nextInt(4) == 0;
            switch (signal) {
              case LOGS -> scopeLogs.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(t)
                  .setBody(AnyValue.newBuilder().setStringValue("r" + i)));
              case TRACES -> scopeSpans.addSpans(Span.newBuilder().setName("s").setStartTimeUnixNano(t)
                  .setEndTimeUnixNano(t + 5)
                  .setTraceId(ByteString.copyFrom(bytes(rnd, 16))).setSpanId(ByteString.copyFrom(bytes(rnd, 8)))
                  .setStatus(Status.newBuilder().setCodeValue(error ? 2 : 0)));
              default -> gauge.addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(t).setAsInt(i));
            }
            if (t >= from && t <= to) {
              Want w = want.computeIfAbsent(group, g -> new Want());
              w.n[si]++;
              w.errors += signal == Signal.TRACES && error ? 1 : 0;
              w.first = Math.min(w.first, t);
              w.last = Math.max(w.last, t);
              w.service = service(res);
            }
          }
          switch (signal) {
            case LOGS -> logs.addResourceLogs(ResourceLogs.newBuilder().setResource(res).addScopeLogs(scopeLogs));
            case TRACES -> traces.addResourceSpans(ResourceSpans.newBuilder().setResource(res).addScopeSpans(scopeSpans));
            default -> metrics.addResourceMetrics(ResourceMetrics.newBuilder().setResource(res).addScopeMetrics(
                ScopeMetrics.newBuilder().addMetrics(Metric.newBuilder().setName("g").setGauge(gauge))));
          }
        }
        Blocks.publish(dir, signal, "n", seq++, switch (signal) {
          case LOGS -> logs.build();
          case TRACES -> traces.build();
          default -> metrics.build();
        }, T0);
      }
    }

    try (LocalQueries q = LocalQueries.open(dir, () -> NOW)) {
      String window = "\"from\": \"" + from + "\", \"to\": \"" + to + "\"";
      EntityList got = q.entities(("{" + window + ", \"limit\": 1000}").getBytes(StandardCharsets.UTF_8));
      // Again: now from the kept tallies of whole blocks and record times of the blocks the window cuts.
      EntityList again = q.entities(("{" + window + ", \"limit\": 1000}").getBytes(StandardCharsets.UTF_8));
      assertThat(again.entities()).isEqualTo(got.entities());
      assertThat(again.noIdentity()).isEqualTo(got.noIdentity());
      assertThat(again.stats().blocksScanned()).isZero();
      Map<Long, EntityList.Entity> byKey = new HashMap<>();
      for (EntityList.Entity e : got.entities()) {
        assertThat(byKey.put(e.key(), e)).as("one entry per key").isNull();
      }
      long noIdGroups = 0;
      long noIdRecords = 0;
      for (Map.Entry<Object, Want> e : want.entrySet()) {
        Want w = e.getValue();
        if (!(e.getKey() instanceof Long key)) {
          noIdGroups++;
          noIdRecords += w.n[0] + w.n[1] + w.n[2];
          continue;
        }
        EntityList.Entity x = byKey.get(key);
        assertThat(x).as("entity %s, seed %d", Entities.hex(key), seed).isNotNull();
        assertThat(new long[] {x.logs(), x.spans(), x.points()}).as("counts of %s", Entities.hex(key)).isEqualTo(w.n);
        assertThat(x.firstSeen()).isEqualTo(w.first);
        assertThat(x.lastSeen()).isEqualTo(w.last);
        assertThat(x.serviceName()).isEqualTo(w.service);
      }
      assertThat(byKey.keySet()).as("seed %d", seed).isEqualTo(
          want.keySet().stream().filter(k -> k instanceof Long).collect(java.util.stream.Collectors.toSet()));
      assertThat(got.noIdentity().resources()).isEqualTo(noIdGroups);
      assertThat(got.noIdentity().records()).isEqualTo(noIdRecords);
      assertThat(got.noIdentity().hint().isEmpty()).isEqualTo(noIdGroups == 0);

      // Services: the same counts summed by service.name.
      ServiceList services = q.services(Long.toString(from), Long.toString(to));
      TreeMap<String, long[]> byService = new TreeMap<>();
      Map<String, Set<Object>> entitiesOf = new HashMap<>();
      for (Map.Entry<Object, Want> e : want.entrySet()) {
        String name = e.getValue().service == null ? "\uffff" : e.getValue().service;
        long[] n = byService.computeIfAbsent(name, k -> new long[4]);
        n[0] += e.getValue().n[0];
        n[1] += e.getValue().n[1];
        n[2] += e.getValue().errors;
        n[3] += e.getValue().n[2];
        Set<Object> keys = entitiesOf.computeIfAbsent(name, k -> new HashSet<>());
        if (e.getKey() instanceof Long) {
          keys.add(e.getKey());
        }
      }
      List<String> names = new ArrayList<>();
      for (ServiceList.Service s : services.services()) {
        String name = s.name() == null ? "\uffff" : s.name();
        names.add(name);
        assertThat(new long[] {s.logs(), s.spans(), s.errors(), s.points()}).as("service %s", name)
            .isEqualTo(byService.get(name));
        assertThat(s.entities()).isEqualTo(entitiesOf.get(name).size());
      }
      assertThat(names).as("services, sorted, unnamed last").containsExactlyElementsOf(byService.keySet());
    }
  }

  static String service(Resource r) {
    String out = null;
    for (KeyValue kv : r.getAttributesList()) {
      if (kv.getKey().equals("service.name")) {
        out = kv.getValue().getStringValue();
      }
    }
    return out;
  }

  static byte[] bytes(Random rnd, int n) {
    byte[] b = new byte[n];
    rnd.nextBytes(b);
    b[0] |= 1;
    return b;
  }

  /** The drift case: a pod that adds an attribute mid-hour is still one entity, found by its rule. */
  @Test
  void aPodThatGainsAnAttributeStaysOneEntityAndWhereSelectsByResource() throws Exception {
    dir = Files.createTempDirectory("mira-census");
    try {
      int seq = 1;
      for (int r : new int[] {3, 4, 7, 8}) {
        Resource res = Resource.newBuilder().addAllAttributes(RESOURCES.get(r)).build();
        Blocks.publish(dir, Signal.LOGS, "n", seq++, ExportLogsServiceRequest.newBuilder().addResourceLogs(
            ResourceLogs.newBuilder().setResource(res).addScopeLogs(ScopeLogs.newBuilder().addLogRecords(
                LogRecord.newBuilder().setTimeUnixNano(T0 + seq * S)))).build(), T0);
      }
      try (LocalQueries q = LocalQueries.open(dir, () -> NOW)) {
        String window = "\"from\": \"" + T0 + "\", \"to\": \"" + (T0 + 100 * S) + "\"";
        JsonTree.Obj all = JsonTree.parseObj(EntityJson.entities(q.entities(("{" + window + "}")
            .getBytes(StandardCharsets.UTF_8))));
        List<?> entities = all.list("entities");
        assertThat(entities).hasSize(2);
        JsonTree.Obj pod = (JsonTree.Obj) entities.get(0);
        assertThat(pod.str("service.name")).isEqualTo("cart");
        assertThat(pod.str("rule")).isEqualTo("k8s.pod");
        assertThat(pod.obj("identity").toString()).contains("k8s.pod.uid").contains("uid-7");
        assertThat(pod.obj("signals").str("logs")).isEqualTo("2");
        assertThat(pod.str("first_seen")).isEqualTo(Long.toString(T0 + 2 * S));
        assertThat(pod.str("last_seen")).isEqualTo(Long.toString(T0 + 3 * S));
        JsonTree.Obj mail = (JsonTree.Obj) entities.get(1);
        assertThat(mail.str("rule")).isEqualTo("service");
        assertThat(all.obj("no_identity").str("resources")).isEqualTo("1");
        assertThat(all.obj("no_identity").str("hint")).contains("service.instance.id").contains("k8s.pod.uid");

        EntityList nodes = q.entities(("{" + window + ", \"q\": \"k8s.node.name=n1\"}").getBytes(StandardCharsets.UTF_8));
        assertThat(nodes.entities()).singleElement().satisfies(e -> assertThat(e.logs()).isEqualTo(1));
        EntityList notCart = q.entities(("{" + window + ", \"where\": [{\"not\": {\"attr\": \"service.name\", "
            + "\"eq\": \"cart\"}}], \"limit\": 1}").getBytes(StandardCharsets.UTF_8));
        assertThat(notCart.entities()).extracting(EntityList.Entity::serviceName).containsExactly("mail");
        assertThat(notCart.total()).isEqualTo(1);
        // The blocks lie wholly in the window: the second census reads their cached tallies, not the blocks.
        EntityList first = q.entities(("{" + window + "}").getBytes(StandardCharsets.UTF_8));
        EntityList again = q.entities(("{" + window + "}").getBytes(StandardCharsets.UTF_8));
        assertThat(again.entities()).isEqualTo(first.entities());
        assertThat(again.noIdentity()).isEqualTo(first.noIdentity());
        assertThat(again.stats().blocksScanned()).isZero();
        assertThat(again.stats().rowsMatched()).isEqualTo(first.stats().rowsMatched()).isEqualTo(4);
        EntityList limited = q.entities(("{" + window + ", \"limit\": 1}").getBytes(StandardCharsets.UTF_8));
        assertThat(limited.truncated()).isTrue();
        assertThat(limited.total()).isEqualTo(2);
        assertThatThrownBy(() -> q.entities(("{\"where\": [{\"text\": \"x\"}]}").getBytes(StandardCharsets.UTF_8)))
            .isInstanceOf(QueryException.class).hasMessageContaining("not by text");
        assertThatThrownBy(() -> q.entities(("{\"signal\": \"logs\"}").getBytes(StandardCharsets.UTF_8)))
            .hasMessageContaining("from, to, where, q, limit");
      }
    } finally {
      clean();
      dir = null;
    }
  }

  /**
   * The publish writes each block's {@code census.idx}, and a first census answers from those files
   * without reading a row; without them the census counts the rows, gives the same answer and
   * writes the same bytes; a damaged file, or one that counts another number of resources, is
   * ignored (the block is counted again) and the answer is still the same.
   */
  @Test
  void theCensusFileGivesTheSameAnswerAndADamagedOneIsIgnored() throws Exception {
    dir = Files.createTempDirectory("mira-census");
    try {
      Random rnd = new Random(7);
      int seq = 1;
      for (int si = 0; si < 3; si++) {
        Signal signal = Census.SIGNALS.get(si);
        for (int b = 0; b < 2; b++) {
          var logs = ExportLogsServiceRequest.newBuilder();
          var traces = ExportTraceServiceRequest.newBuilder();
          var metrics = ExportMetricsServiceRequest.newBuilder();
          for (int r = 0; r < RESOURCES.size(); r++) {
            Resource res = Resource.newBuilder().addAllAttributes(RESOURCES.get(r)).build();
            var scopeLogs = ScopeLogs.newBuilder();
            var scopeSpans = ScopeSpans.newBuilder();
            var gauge = Gauge.newBuilder();
            for (int i = 0, n = 1 + rnd.nextInt(5); i < n; i++) {
              long t = T0 + (1 + rnd.nextInt(300)) * S;
              switch (signal) {
                case LOGS -> scopeLogs.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(t));
                case TRACES -> scopeSpans.addSpans(Span.newBuilder().setName("s").setStartTimeUnixNano(t)
                    .setEndTimeUnixNano(t + 5)
                    .setTraceId(ByteString.copyFrom(bytes(rnd, 16))).setSpanId(ByteString.copyFrom(bytes(rnd, 8)))
                    .setStatus(Status.newBuilder().setCodeValue(rnd.nextInt(3) == 0 ? 2 : 0)));
                default -> gauge.addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(t).setAsInt(i));
              }
            }
            switch (signal) {
              case LOGS -> logs.addResourceLogs(ResourceLogs.newBuilder().setResource(res).addScopeLogs(scopeLogs));
              case TRACES -> traces.addResourceSpans(ResourceSpans.newBuilder().setResource(res)
                  .addScopeSpans(scopeSpans));
              default -> metrics.addResourceMetrics(ResourceMetrics.newBuilder().setResource(res).addScopeMetrics(
                  ScopeMetrics.newBuilder().addMetrics(Metric.newBuilder().setName("g").setGauge(gauge))));
            }
          }
          Blocks.publish(dir, signal, "n", seq++, switch (signal) {
            case LOGS -> logs.build();
            case TRACES -> traces.build();
            default -> metrics.build();
          }, T0);
        }
      }
      byte[] all = "{\"from\": \"0\", \"limit\": 1000}".getBytes(StandardCharsets.UTF_8);
      // Written at publish: every block has its file before any census ran.
      List<Path> files = censusFiles();
      assertThat(files).as("one census.idx per block, from the publish").hasSize(6);
      Map<Path, byte[]> published = new HashMap<>();
      for (Path f : files) {
        published.put(f, Files.readAllBytes(f));
        assertThat(mira.block.index.CensusIndex.parse(published.get(f))).isNotNull();
      }
      BlockTallies.clear();
      EntityList fromFiles;
      ServiceList servicesFromFiles;
      try (LocalQueries q = LocalQueries.open(dir, () -> NOW)) {
        fromFiles = q.entities(all);
        servicesFromFiles = q.services("0", Long.toString(NOW));
      }
      assertThat(fromFiles.stats().blocksScanned()).as("no row read").isZero();
      assertThat(fromFiles.stats().rowsScanned()).isZero();

      // Without the files, the census counts every block from its rows: the same answer, and the
      // files it writes for the next process hold the very bytes the publish wrote.
      for (Path f : files) {
        Files.delete(f);
      }
      BlockTallies.clear();
      EntityList counted;
      ServiceList countedServices;
      try (LocalQueries q = LocalQueries.open(dir, () -> NOW)) {
        counted = q.entities(all);
        countedServices = q.services("0", Long.toString(NOW));
      }
      assertThat(counted.stats().blocksScanned()).isEqualTo(6);
      assertThat(counted.entities()).isEqualTo(fromFiles.entities());
      assertThat(counted.noIdentity()).isEqualTo(fromFiles.noIdentity());
      assertThat(countedServices.services()).usingRecursiveComparison().isEqualTo(servicesFromFiles.services());
      assertThat(censusFiles()).containsExactlyElementsOf(files);
      for (Path f : files) {
        assertThat(Files.readAllBytes(f)).as("counted from the rows = built at publish: %s", f)
            .isEqualTo(published.get(f));
      }

      // A new process: no kept tallies, every block answered from its file.
      BlockTallies.clear();
      try (LocalQueries q = LocalQueries.open(dir, () -> NOW)) {
        EntityList again = q.entities(all);
        assertThat(again.stats().blocksScanned()).isZero();
        assertThat(again.stats().rowsScanned()).isZero();
        assertThat(again.entities()).isEqualTo(counted.entities());
        assertThat(again.noIdentity()).isEqualTo(counted.noIdentity());
        assertThat(q.services("0", Long.toString(NOW)).services()).usingRecursiveComparison()
            .isEqualTo(countedServices.services());
      }

      // Damaged: one byte flipped in every file but the last, which counts one resource too many.
      for (int i = 0; i < files.size() - 1; i++) {
        byte[] b = Files.readAllBytes(files.get(i));
        b[b.length / 2] ^= 0x40;
        Files.write(files.get(i), b);
      }
      Path last = files.get(files.size() - 1);
      mira.block.index.CensusIndex good = mira.block.index.CensusIndex.parse(Files.readAllBytes(last));
      int n = good.resources() + 1;
      long[] big = new long[n];
      java.util.Arrays.fill(big, 1_000_000);
      Files.write(last, new mira.block.index.CensusIndex(big, new long[n], big.clone(), big.clone()).toBytes());
      BlockTallies.clear();
      try (LocalQueries q = LocalQueries.open(dir, () -> NOW)) {
        EntityList recounted = q.entities(all);
        assertThat(recounted.stats().blocksScanned()).as("every damaged file ignored").isEqualTo(6);
        assertThat(recounted.entities()).isEqualTo(counted.entities());
        assertThat(recounted.noIdentity()).isEqualTo(counted.noIdentity());
      }
      // ... and written again, sound.
      for (Path f : censusFiles()) {
        assertThat(mira.block.index.CensusIndex.parse(Files.readAllBytes(f))).isNotNull();
      }
      assertThat(censusFiles()).hasSize(6);
    } finally {
      BlockTallies.clear();
      clean();
      dir = null;
    }
  }

  private List<Path> censusFiles() throws java.io.IOException {
    try (var s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith(mira.block.index.CensusIndex.FILE)).sorted().toList();
    }
  }
}
