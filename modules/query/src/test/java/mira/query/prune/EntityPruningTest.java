package mira.query.prune;

import static mira.query.testing.Metrics.attr;
import static mira.query.testing.Metrics.gauge;
import static mira.query.testing.Metrics.intPoint;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.resource.v1.Resource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import mira.block.index.AttrIndex;
import mira.block.index.TraceIndex;
import mira.block.read.OpenBlocks;
import mira.proto.wire.Signal;
import mira.query.doc.Documents;
import mira.query.doc.RootField;
import mira.query.doc.Scalar;
import mira.query.doc.SearchQuery;
import mira.query.doc.Term;
import mira.query.render.ResponseJson;
import mira.query.result.SearchResult;
import mira.query.result.Stats;
import mira.query.scan.Engine;
import mira.query.scan.OpenBlockCache;
import mira.query.scan.ScanThreads;
import mira.query.scan.Search;
import mira.query.series.SeriesScan;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import mira.query.testing.Expected;
import mira.query.testing.JsonTree;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The entity term and the in operator against published blocks: which blocks each opens
 * ({@code blocks_scanned}; the rest are {@code blocks_pruned}), and that the per-block entity key
 * set is read once and leaves the cache with its block.
 */
class EntityPruningTest {
  static final long T0 = Corpus.T0;
  static final long NOW = T0 + 3_600_000_000_000L;
  static final int BLOCKS = 6;
  static final int PER_BLOCK = 10;

  @TempDir Path data;
  final BufferAllocator allocator = new RootAllocator();
  final SidecarCache cache = new SidecarCache(SidecarCache.DEFAULT_MAX_BYTES, 0);
  final OpenBlockCache readers = new OpenBlockCache(allocator, 0, java.time.Duration.ZERO);
  final List<Path> blocks = new ArrayList<>();

  @AfterEach
  void close() {
    readers.close();
    allocator.close();
  }

  Engine engine() {
    return new Engine(data.toAbsolutePath(), allocator, Pruning.withSidecars(cache), new ScanThreads(0),
        OpenBlocks.NONE, readers);
  }

  static AnyValue s(String v) {
    return AnyValue.newBuilder().setStringValue(v).build();
  }

  static KeyValue kv(String k, AnyValue v) {
    return KeyValue.newBuilder().setKey(k).setValue(v).build();
  }

  /** Pod i's resource: k8s.pod.uid "pod-i" (its identity) and a pod name that plays no part in it. */
  static Resource pod(int i) {
    return Resource.newBuilder().addAttributes(kv("k8s.pod.uid", s("pod-" + i)))
        .addAttributes(kv("k8s.pod.name", s("name-" + i))).build();
  }

  static long key(int pod) {
    return Expected.entity(pod(pod));
  }

  static ByteString traceId(int block, int k) {
    byte[] b = new byte[16];
    b[0] = 0x5a;
    b[7] = (byte) block;
    b[15] = (byte) k;
    return ByteString.copyFrom(b);
  }

  /**
   * Block i holds pod i's records and, in blocks 0 and 1, also a resource without identity
   * (only a made-up attribute) with one record; each record has request.id "req-i-k".
   */
  void publishLogs() throws Exception {
    for (int i = 0; i < BLOCKS; i++) {
      ScopeLogs.Builder scope = ScopeLogs.newBuilder();
      for (int k = 0; k < PER_BLOCK; k++) {
        scope.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(T0 + i * 1_000L + k).setBody(s("line " + i + "/" + k))
            .setTraceId(traceId(i, k)).addAttributes(kv("request.id", s("req-" + i + "-" + k))));
      }
      ExportLogsServiceRequest.Builder req = ExportLogsServiceRequest.newBuilder()
          .addResourceLogs(ResourceLogs.newBuilder().setResource(pod(i)).addScopeLogs(scope));
      if (i < 2) {
        req.addResourceLogs(ResourceLogs.newBuilder().setResource(Resource.newBuilder().addAttributes(kv("team", s("x"))))
            .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder().setTimeUnixNano(T0 + i * 1_000L + 99)
                .setBody(s("anonymous " + i)))));
      }
      blocks.add(Blocks.publish(data, Signal.LOGS, "n", i + 1, req.build(), T0));
    }
  }

  SearchResult search(Term... where) throws Exception {
    return Search.run(engine(), new SearchQuery(Signal.LOGS, T0 - 1, NOW, List.of(where), 1000, null));
  }

  static List<String> bodies(SearchResult r) {
    return r.rows().stream().map(x -> JsonTree.parseObj(ResponseJson.row(x)).str("body")).sorted().toList();
  }

  static void opened(Stats s, int scanned) {
    assertThat(s.blocksTotal()).isEqualTo(BLOCKS);
    assertThat(s.blocksScanned()).as("blocks opened").isEqualTo(scanned);
    assertThat(s.blocksPruned()).as("blocks pruned").isEqualTo(BLOCKS - scanned);
  }

  @Test
  void anEntityOpensOnlyTheBlockHoldingIt() throws Exception {
    publishLogs();
    SearchResult r = search(new Term.Entity(Set.of(key(3))));
    assertThat(r.rows()).hasSize(PER_BLOCK);
    assertThat(bodies(r)).allMatch(b -> b.startsWith("line 3/"));
    // The key set is exact: no false positive, so exactly one block is opened.
    opened(r.stats(), 1);
    // Every row carries the entity it was selected by.
    assertThat(r.rows()).allMatch(x -> ((mira.query.result.LogRow) x).resource().entity() == key(3));
  }

  @Test
  void aListOfEntitiesOpensTheBlocksOfEach() throws Exception {
    publishLogs();
    SearchResult r = search(new Term.Entity(Set.of(key(1), key(4), 0x0123_4567_89ab_cdefL)));
    assertThat(r.rows()).hasSize(2 * PER_BLOCK);
    assertThat(bodies(r)).allMatch(b -> b.startsWith("line 1/") || b.startsWith("line 4/"));
    opened(r.stats(), 2);
  }

  @Test
  void anAbsentEntityOpensNoBlockAndTheKeySetsAreReadOnce() throws Exception {
    publishLogs();
    long before = cache.filesRead();
    SearchResult r = search(new Term.Entity(Set.of(key(77))));
    assertThat(r.rows()).isEmpty();
    opened(r.stats(), 0);
    assertThat(cache.filesRead() - before).as("one resources table per block").isEqualTo(BLOCKS);
    long after = cache.filesRead();
    search(new Term.Entity(Set.of(key(78))));
    assertThat(cache.filesRead()).as("the second query reads no table").isEqualTo(after);
  }

  @Test
  void theKeySetLeavesTheCacheWithItsBlock() throws Exception {
    publishLogs();
    search(new Term.Entity(Set.of(key(2))));
    assertThat(cache.holds(blocks.get(2))).isTrue();
    // Retention removes block 2; the next sweep of the catalogue drops its entry, key set included.
    try (var files = java.nio.file.Files.walk(blocks.get(2))) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    cache.sweep(data);
    assertThat(cache.holds(blocks.get(2))).isFalse();
    SearchResult r = search(new Term.Entity(Set.of(key(2))));
    assertThat(r.rows()).isEmpty();
  }

  @Test
  void anEntityTermWithOtherTermsIsAConjunction() throws Exception {
    publishLogs();
    SearchResult r = search(new Term.Entity(Set.of(key(5))),
        new Term.Attr("request.id", mira.query.doc.Op.EQ, Scalar.string("req-5-3")));
    assertThat(bodies(r)).containsExactly("line 5/3");
    r = search(new Term.Entity(Set.of(key(5))),
        new Term.Attr("request.id", mira.query.doc.Op.EQ, Scalar.string("req-4-3")));
    assertThat(r.rows()).isEmpty();
  }

  @Test
  void resourcesWithoutIdentityRenderNullAndNoEntityTermSelectsThem() throws Exception {
    publishLogs();
    SearchResult all = search();
    List<JsonTree.Obj> anonymous = all.rows().stream().map(x -> JsonTree.parseObj(ResponseJson.row(x)))
        .filter(o -> o.str("body").startsWith("anonymous")).toList();
    assertThat(anonymous).hasSize(2);
    assertThat(anonymous).allMatch(o -> o.obj("resource").has("entity") && o.obj("resource").get("entity") == null);
    List<Long> keys = new ArrayList<>();
    for (int i = 0; i < BLOCKS; i++) {
      keys.add(key(i));
    }
    SearchResult r = search(new Term.Entity(Set.copyOf(keys)));
    assertThat(r.rows()).hasSize(BLOCKS * PER_BLOCK);
    assertThat(bodies(r)).noneMatch(b -> b.startsWith("anonymous"));
  }

  // ---- in ----

  @Test
  void anAttributeInListOpensTheBlocksThatMayHoldAnyValue() throws Exception {
    publishLogs();
    List<Scalar> values = List.of(Scalar.string("req-2-1"), Scalar.string("req-4-7"), Scalar.string("req-never"));
    SearchResult r = search(new Term.AttrIn("request.id", values));
    assertThat(bodies(r)).containsExactly("line 2/1", "line 4/7");
    int maybe = (int) blocks.stream().filter(b -> {
      AttrIndex idx = AttrIndex.read(b);
      return values.stream().anyMatch(v -> idx.mightContain("request.id", v.text()));
    }).count();
    assertThat(maybe).isBetween(2, 3);
    opened(r.stats(), maybe);
  }

  @Test
  void aTraceIdInListOpensTheBlocksWhoseFilterMayHoldAnyId() throws Exception {
    publishLogs();
    List<ByteString> ids = List.of(traceId(1, 2), traceId(3, 9), traceId(50, 1));
    List<Scalar> hex = ids.stream().map(i -> Scalar.string(HexFormat.of().formatHex(i.toByteArray()))).toList();
    SearchResult r = search(new Term.FieldIn(RootField.TRACE_ID, hex));
    assertThat(bodies(r)).containsExactly("line 1/2", "line 3/9");
    int maybe = (int) blocks.stream().filter(b -> {
      TraceIndex t = TraceIndex.read(b);
      return ids.stream().anyMatch(i -> t.mightContain(i.toByteArray()));
    }).count();
    assertThat(maybe).isBetween(2, 3);
    opened(r.stats(), maybe);
  }

  // ---- series ----

  @Test
  void aSeriesEntityTermOpensOnlyThatEntitysMetricsBlock() throws Exception {
    for (int i = 0; i < 4; i++) {
      ExportMetricsServiceRequest req = ExportMetricsServiceRequest.newBuilder().addResourceMetrics(
          ResourceMetrics.newBuilder().setResource(pod(i))
              .addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(gauge("cpu", "1",
                  intPoint(T0 + i, 10 + i, attr("core", i)))))).build();
      Blocks.publish(data, Signal.METRICS, "n", i + 1, req, T0);
    }
    String window = "\"from\": \"" + (T0 - 1) + "\", \"to\": \"" + NOW + "\"";
    JsonTree.Obj one = series("{\"name\": \"cpu\", " + window + ", \"where\": [{\"entity\": \""
        + String.format("%016x", key(2)) + "\"}]}");
    JsonTree.Obj stats = (JsonTree.Obj) one.get("stats");
    assertThat(stats.get("blocks_scanned")).isEqualTo(1L);
    assertThat(stats.get("blocks_pruned")).isEqualTo(3L);
    assertThat(one.list("series")).hasSize(1);
    assertThat(((JsonTree.Obj) one.list("series").get(0)).obj("attributes").get("core")).isEqualTo("2");
    JsonTree.Obj none = series("{\"name\": \"cpu\", " + window + ", \"where\": [{\"entity\": {\"in\": [\""
        + String.format("%016x", key(9)) + "\"]}}]}");
    assertThat(none.list("series")).isEmpty();
    assertThat(((JsonTree.Obj) none.get("stats")).get("blocks_scanned")).isEqualTo(0L);
  }

  JsonTree.Obj series(String doc) throws Exception {
    return JsonTree.parseObj(mira.query.render.SeriesJson.series(SeriesScan.run(engine(), Documents.series(doc.getBytes(), NOW))));
  }
}
