package mira.query.prune;

import static mira.query.testing.Metrics.attr;
import static mira.query.testing.Metrics.gauge;
import static mira.query.testing.Metrics.intPoint;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Predicate;
import mira.query.render.ResponseJson;
import mira.block.index.AttrIndex;
import mira.block.index.TraceIndex;
import mira.block.index.ZoneIndex;
import mira.block.read.OpenBlocks;
import mira.proto.wire.Signal;
import mira.query.result.SearchResult;
import mira.query.result.Stats;
import mira.query.result.TraceResult;
import mira.query.doc.Documents;
import mira.query.doc.Op;
import mira.query.doc.RootField;
import mira.query.doc.Scalar;
import mira.query.doc.SearchQuery;
import mira.query.doc.Term;
import mira.query.scan.Engine;
import mira.query.scan.ScanThreads;
import mira.query.scan.OpenBlockCache;
import mira.query.scan.Search;
import mira.query.scan.TraceLookup;
import mira.query.series.SeriesScan;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import mira.query.testing.JsonTree;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Blocks published the way ingest publishes them, then queried through the engine with the
 * sidecar steps: what each step prunes, that what it cannot read it scans, and what the cache keeps.
 * "Opened" is {@code blocks_scanned} of the answer; where a Bloom filter decides, the expectation is
 * computed from the block's own filter, so a false positive cannot make the test flaky.
 */
class SidecarPruningTest {
  static final long T0 = Corpus.T0;
  static final long NOW = T0 + 3_600_000_000_000L;
  static final int BLOCKS = 8;
  static final int PER_BLOCK = 20;

  @TempDir Path data;
  final BufferAllocator allocator = new RootAllocator();
  SidecarCache cache = new SidecarCache(SidecarCache.DEFAULT_MAX_BYTES, 0);
  final List<Path> blocks = new ArrayList<>();

  final OpenBlockCache readers = new OpenBlockCache(allocator, 0, java.time.Duration.ZERO);

  @AfterEach
  void close() {
    readers.close();
    allocator.close();
  }

  Engine engine() {
    return engine(Pruning.withSidecars(cache));
  }

  Engine engine(Pruning pruning) {
    return new Engine(data.toAbsolutePath(), allocator, pruning, new ScanThreads(0), OpenBlocks.NONE, readers);
  }

  static AnyValue s(String v) {
    return AnyValue.newBuilder().setStringValue(v).build();
  }

  static KeyValue kv(String k, AnyValue v) {
    return KeyValue.newBuilder().setKey(k).setValue(v).build();
  }

  static ByteString traceId(int block, int k) {
    byte[] b = new byte[16];
    b[0] = 0x5a;
    b[7] = (byte) block;
    b[15] = (byte) k;
    return ByteString.copyFrom(b);
  }

  /**
   * Block i: its resource has service.name "svc-i", its scope scope.tag "s-i"; each record has a
   * request.id "req-i-k", an int http.response.status_code 200 + i and a trace id of its own block.
   * Block 3 has one status code as the text "503", block 5 the text "+7" under "small"; every
   * record has severity 9 except the last of block 7, which has none.
   */
  void publishLogs() throws Exception {
    for (int i = 0; i < BLOCKS; i++) {
      ScopeLogs.Builder scope = ScopeLogs.newBuilder()
          .setScope(InstrumentationScope.newBuilder().setName("lib").addAttributes(kv("scope.tag", s("s-" + i))));
      for (int k = 0; k < PER_BLOCK; k++) {
        LogRecord.Builder r = LogRecord.newBuilder().setTimeUnixNano(T0 + i * 1_000L + k)
            .setSeverityNumberValue(i == 7 && k == 19 ? 0 : 9).setBody(s("line " + i + "/" + k)).setTraceId(traceId(i, k / 4))
            .addAttributes(kv("request.id", s("req-" + i + "-" + k)))
            .addAttributes(kv("http.response.status_code", AnyValue.newBuilder().setIntValue(200 + i).build()));
        if (i == 3 && k == 0) {
          r.addAttributes(kv("code.text", s("503")));
        }
        if (i == 5 && k == 0) {
          r.addAttributes(kv("small", s("+7")));
        }
        scope.addLogRecords(r);
      }
      ExportLogsServiceRequest req = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
          .setResource(Resource.newBuilder().addAttributes(kv("service.name", s("svc-" + i)))).addScopeLogs(scope))
          .build();
      blocks.add(Blocks.publish(data, Signal.LOGS, "n", i + 1, req, T0));
    }
  }

  /**
   * Block i: 5 traces of 4 spans; every span has an event with exception.type "E-i" and a link with
   * link.kind "L-i"; durations i ms + k ns.
   */
  void publishTraces() throws Exception {
    for (int i = 0; i < BLOCKS; i++) {
      ScopeSpans.Builder scope = ScopeSpans.newBuilder();
      for (int k = 0; k < PER_BLOCK; k++) {
        long start = T0 + i * 1_000L + k;
        scope.addSpans(Span.newBuilder().setTraceId(traceId(i, k / 4))
            .setSpanId(ByteString.copyFrom(new byte[] {1, 0, 0, 0, 0, 0, (byte) i, (byte) k})).setName("op")
            .setStartTimeUnixNano(start).setEndTimeUnixNano(start + (i + 1) * 1_000_000L + k)
            .addEvents(Span.Event.newBuilder().setName("exception").setTimeUnixNano(start)
                .addAttributes(kv("exception.type", s("E-" + i))))
            .addLinks(Span.Link.newBuilder().setTraceId(traceId(99, 0))
                .setSpanId(ByteString.copyFrom(new byte[] {2, 0, 0, 0, 0, 0, 0, 1}))
                .addAttributes(kv("link.kind", s("L-" + i)))));
      }
      ExportTraceServiceRequest req = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
          .setResource(Resource.newBuilder().addAttributes(kv("service.name", s("svc-" + i)))).addScopeSpans(scope))
          .build();
      blocks.add(Blocks.publish(data, Signal.TRACES, "n", i + 1, req, T0));
    }
  }

  SearchResult search(Signal signal, Term... where) throws Exception {
    return Search.run(engine(), new SearchQuery(signal, T0 - 1, NOW, List.of(where), 1000, null));
  }

  static Term.Attr eq(String key, Scalar v) {
    return new Term.Attr(key, Op.EQ, v);
  }

  /** Blocks whose own attr.idx says "maybe" for the pair. */
  int maybeAttr(String key, String text) {
    return (int) blocks.stream().filter(b -> AttrIndex.read(b).mightContain(key, text)).count();
  }

  static List<String> field(SearchResult r, String name) {
    return r.rows().stream().map(x -> JsonTree.parseObj(ResponseJson.row(x)).str(name)).toList();
  }

  static void opened(Stats s, int scanned) {
    assertThat(s.blocksScanned()).as("blocks opened").isEqualTo(scanned);
    assertThat(s.blocksPruned()).as("blocks pruned").isEqualTo(s.blocksTotal() - scanned);
  }

  // ---- text.idx ----

  @Test
  void aTextNeedleOpensOnlyTheBlocksWhoseTrigramsHoldIt() throws Exception {
    publishLogs();
    SearchResult none = search(Signal.LOGS, new Term.Text("NullPointerException"));
    assertThat(none.rows()).isEmpty();
    opened(none.stats(), 0);
    SearchResult all = search(Signal.LOGS, new Term.Text("line"));
    opened(all.stats(), BLOCKS);
    // "ne 2/" is inside "line 2/7": not a whole word, still found, in the one block that has it.
    SearchResult one = search(Signal.LOGS, new Term.Text("ne 2/"));
    assertThat(one.rows()).isNotEmpty().allSatisfy(row -> assertThat(row.toString()).contains("line 2/"));
    opened(one.stats(), 1);
    // Under not, a needle never prunes.
    SearchResult not = search(Signal.LOGS, new Term.Not(new Term.Text("NullPointerException")));
    opened(not.stats(), BLOCKS);
  }

  // ---- attr.idx ----

  @Test
  void absentAttributeOpensNoBlock() throws Exception {
    publishLogs();
    for (Term t : List.of(eq("request.id", Scalar.string("req-never-sent")), eq("service.name", Scalar.string("svc-9")),
        eq("scope.tag", Scalar.string("s-9")), eq("request.id", Scalar.integer(42)), eq("no.such.key", Scalar.bool(true)))) {
      SearchResult r = search(Signal.LOGS, t);
      assertThat(r.rows()).as("%s", t).isEmpty();
      assertThat(r.stats().blocksTotal()).isEqualTo(BLOCKS);
      opened(r.stats(), 0);
    }
  }

  @Test
  void absentAttributeOnASpanEventOrLinkOpensNoBlock() throws Exception {
    publishTraces();
    for (Term t : List.of(eq("exception.type", Scalar.string("java.lang.OutOfMemoryError")),
        eq("link.kind", Scalar.string("L-12")), eq("service.name", Scalar.string("svc-x")))) {
      SearchResult r = search(Signal.TRACES, t);
      assertThat(r.rows()).as("%s", t).isEmpty();
      opened(r.stats(), 0);
    }
  }

  @Test
  void aValueAtAnyLevelOpensOnlyTheBlocksWhoseFilterSaysMaybe() throws Exception {
    publishTraces();
    for (String[] kv : List.of(new String[] {"exception.type", "E-3"}, new String[] {"link.kind", "L-6"},
        new String[] {"service.name", "svc-2"})) {
      SearchResult r = search(Signal.TRACES, eq(kv[0], Scalar.string(kv[1])));
      assertThat(r.rows()).as("%s", kv[0]).hasSize(PER_BLOCK);
      int maybe = maybeAttr(kv[0], kv[1]);
      assertThat(maybe).isBetween(1, 2);
      opened(r.stats(), maybe);
    }
  }

  @Test
  void aNumberFindsItsTextAndItsIntegerAndOpensOnlyThoseBlocks() throws Exception {
    publishLogs();
    // 205 is block 5's integer; "503" is block 3's text; 503 as a number finds the text.
    SearchResult r = search(Signal.LOGS, eq("http.response.status_code", Scalar.integer(205)));
    assertThat(r.rows()).hasSize(PER_BLOCK);
    opened(r.stats(), 1);
    r = search(Signal.LOGS, eq("http.response.status_code", Scalar.string("205")));
    assertThat(r.rows()).hasSize(PER_BLOCK);
    r = search(Signal.LOGS, eq("code.text", Scalar.integer(503)));
    assertThat(field(r, "body")).containsExactly("line 3/0");
    opened(r.stats(), maybeAttr("code.text", "503"));
    r = search(Signal.LOGS, eq("code.text", Scalar.dbl(503.0)));
    assertThat(field(r, "body")).as("503.0 is the number 503, whose text is 503").containsExactly("line 3/0");
  }

  // ---- trace.idx ----

  @Test
  void traceLookupOpensOnlyTheBlocksWhoseFilterSaysMaybe() throws Exception {
    publishTraces();
    ByteString id = traceId(4, 2);
    int maybe = (int) blocks.stream().filter(b -> TraceIndex.read(b).mightContain(id.toByteArray())).count();
    assertThat(maybe).as("the block holding the trace, and perhaps a false positive").isBetween(1, 2);
    TraceResult r = TraceLookup.run(engine(), HexFormat.of().formatHex(id.toByteArray()));
    assertThat(r.spans()).hasSize(4);
    assertThat(r.stats().blocksTotal()).isEqualTo(BLOCKS);
    opened(r.stats(), maybe);

    TraceResult none = TraceLookup.run(engine(), HexFormat.of().formatHex(traceId(77, 1).toByteArray()));
    assertThat(none.spans()).isEmpty();
    opened(none.stats(), (int) blocks.stream()
        .filter(b -> TraceIndex.read(b).mightContain(traceId(77, 1).toByteArray())).count());
  }

  @Test
  void aTraceIdTermOnLogsOpensOnlyTheBlocksWhoseFilterSaysMaybe() throws Exception {
    publishLogs();
    ByteString id = traceId(6, 1);
    int maybe = (int) blocks.stream().filter(b -> TraceIndex.read(b).mightContain(id.toByteArray())).count();
    SearchResult r = search(Signal.LOGS,
        new Term.Field(RootField.TRACE_ID, Op.EQ, Scalar.string(HexFormat.of().formatHex(id.toByteArray()).toUpperCase())));
    assertThat(field(r, "body")).containsExactly("line 6/7", "line 6/6", "line 6/5", "line 6/4");
    assertThat(maybe).isBetween(1, 2);
    opened(r.stats(), maybe);
  }

  // ---- zone.idx ----

  @Test
  void orderedTermOutsideEveryZoneOpensNoBlock() throws Exception {
    publishTraces();
    for (Term t : List.of(new Term.Field(RootField.DURATION_NANO, Op.GT, Scalar.integer(10_000_000_000L)),
        new Term.Field(RootField.DURATION_NANO, Op.LT, Scalar.dbl(0.5)),
        new Term.Field(RootField.KIND, Op.GTE, Scalar.integer(4)),
        new Term.Attr("exception.count", Op.GTE, Scalar.integer(1)))) {
      SearchResult r = search(Signal.TRACES, t);
      assertThat(r.rows()).as("%s", t).isEmpty();
      opened(r.stats(), 0);
    }
    // Block i's durations are (i + 1) ms + k ns: only blocks 6 and 7 exceed 6.5 ms.
    SearchResult r = search(Signal.TRACES, new Term.Field(RootField.DURATION_NANO, Op.GT, Scalar.dbl(6.5e6)));
    assertThat(r.rows()).hasSize(2 * PER_BLOCK);
    opened(r.stats(), 2);
  }

  @Test
  void anIntegerFieldStoredAsZeroIsInItsZone() throws Exception {
    publishTraces();
    // kind is unset on every span, which the writer stores as 0 (the column has no nulls).
    SearchResult r = search(Signal.TRACES, new Term.Field(RootField.KIND, Op.LT, Scalar.integer(1)));
    assertThat(r.rows()).hasSize(BLOCKS * PER_BLOCK);
    opened(r.stats(), BLOCKS);
    r = search(Signal.TRACES, new Term.Field(RootField.KIND, Op.GT, Scalar.integer(0)));
    opened(r.stats(), 0);
  }

  @Test
  void aNullableIntegerFieldReadsAsZeroSoATermZeroSatisfiesIsNotPruned() throws Exception {
    publishLogs();
    // Only the last record of block 7 has no severity: it reads as 0. The zone index skips nulls,
    // so every block's interval is [9, 9], and "below 5" must still open them all.
    SearchResult r = search(Signal.LOGS, new Term.Field(RootField.SEVERITY_NUMBER, Op.LT, Scalar.integer(5)));
    assertThat(field(r, "body")).containsExactly("line 7/19");
    opened(r.stats(), BLOCKS);
    // A term 0 does not satisfy is probed: nothing is above 9.
    r = search(Signal.LOGS, new Term.Field(RootField.SEVERITY_NUMBER, Op.GT, Scalar.integer(9)));
    assertThat(r.rows()).isEmpty();
    opened(r.stats(), 0);
  }

  @Test
  void orderedTermsOnAttributesPruneByTheirZoneAndTextThatReadsAsANumberCounts() throws Exception {
    publishLogs();
    SearchResult r = search(Signal.LOGS, new Term.Attr("http.response.status_code", Op.GT, Scalar.integer(206)));
    assertThat(r.rows()).hasSize(PER_BLOCK);
    opened(r.stats(), 1);
    // "503" is stored as text in block 3; as a number it is above 500.
    r = search(Signal.LOGS, new Term.Attr("code.text", Op.GTE, Scalar.integer(500)));
    assertThat(field(r, "body")).containsExactly("line 3/0");
    opened(r.stats(), 1);
    // "+7" reads as the number 7 (the index's grammar and the scan's are one): below 8, not below 7.
    r = search(Signal.LOGS, new Term.Attr("small", Op.LT, Scalar.integer(8)));
    assertThat(field(r, "body")).containsExactly("line 5/0");
    r = search(Signal.LOGS, new Term.Attr("small", Op.LT, Scalar.integer(7)));
    assertThat(r.rows()).isEmpty();
    opened(r.stats(), 0);
    // A quoted bound compares text with text and is not probed: "+7" < "8" as text too.
    r = search(Signal.LOGS, new Term.Attr("small", Op.LT, Scalar.string("8")));
    assertThat(field(r, "body")).containsExactly("line 5/0");
  }

  // ---- what cannot be read is scanned ----

  @Test
  void aMissingOrDamagedSidecarMeansTheBlockIsScanned() throws Exception {
    publishLogs();
    Files.delete(blocks.get(2).resolve(AttrIndex.FILE));
    flipByte(blocks.get(3).resolve(AttrIndex.FILE));
    Files.delete(blocks.get(4).resolve(ZoneIndex.FILE));
    flipByte(blocks.get(5).resolve(ZoneIndex.FILE));
    Files.delete(blocks.get(6).resolve(TraceIndex.FILE));
    flipByte(blocks.get(7).resolve(TraceIndex.FILE));

    SearchResult r = search(Signal.LOGS, eq("request.id", Scalar.string("req-3-7")));
    assertThat(field(r, "body")).containsExactly("line 3/7");
    opened(r.stats(), 2 + (int) List.of(0, 1, 4, 5, 6, 7).stream()
        .filter(i -> AttrIndex.read(blocks.get(i)).mightContain("request.id", "req-3-7")).count());

    r = search(Signal.LOGS, new Term.Attr("http.response.status_code", Op.GTE, Scalar.integer(300)));
    assertThat(r.rows()).isEmpty();
    opened(r.stats(), 2);

    byte[] id = traceId(1, 1).toByteArray();
    r = search(Signal.LOGS, new Term.Field(RootField.TRACE_ID, Op.EQ, Scalar.string(HexFormat.of().formatHex(id))));
    assertThat(r.rows()).hasSize(4);
    opened(r.stats(), 2 + (int) List.of(0, 1, 2, 3, 4, 5).stream()
        .filter(i -> TraceIndex.read(blocks.get(i)).mightContain(id)).count());
  }

  static void flipByte(Path file) throws Exception {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long at = ch.size() / 2;
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, at);
      b.put(0, (byte) (b.get(0) ^ 0x10)).rewind();
      ch.write(b, at);
    }
  }

  // ---- the cache ----

  @Test
  void eachSidecarIsReadOnceAndThenServedFromMemory() throws Exception {
    publishLogs();
    SearchResult r = search(Signal.LOGS, eq("request.id", Scalar.string("req-none")));
    opened(r.stats(), 0);
    assertThat(cache.filesRead()).as("one attr.idx per block").isEqualTo(BLOCKS);
    for (int i = 0; i < 5; i++) {
      search(Signal.LOGS, eq("request.id", Scalar.string("req-none-" + i)));
    }
    assertThat(cache.filesRead()).isEqualTo(BLOCKS);
    search(Signal.LOGS, new Term.Attr("http.response.status_code", Op.GT, Scalar.integer(900)));
    assertThat(cache.filesRead()).as("and one zone.idx per block, on first need").isEqualTo(2 * BLOCKS);
    // A text needle of three bytes or more reads text.idx, once per block.
    search(Signal.LOGS, new Term.Text("line"));
    assertThat(cache.filesRead()).as("and one text.idx per block").isEqualTo(3 * BLOCKS);
    search(Signal.LOGS, new Term.Text("line 1"));
    assertThat(cache.filesRead()).isEqualTo(3 * BLOCKS);
    // A query without a term a sidecar answers reads none.
    search(Signal.LOGS, new Term.Text("li"));
    assertThat(cache.filesRead()).isEqualTo(3 * BLOCKS);
    assertThat(cache.blocks()).isEqualTo(BLOCKS);
  }

  @Test
  void aBlockRemovedByRetentionLeavesTheCache() throws Exception {
    publishLogs();
    search(Signal.LOGS, eq("request.id", Scalar.string("x")));
    assertThat(cache.blocks()).isEqualTo(BLOCKS);
    long before = cache.bytes();
    Path gone = blocks.get(0);
    try (var files = Files.list(gone)) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    Files.delete(gone);
    SearchResult r = search(Signal.LOGS, eq("request.id", Scalar.string("req-1-1")));
    assertThat(r.rows()).hasSize(1);
    assertThat(cache.holds(gone)).isFalse();
    assertThat(cache.blocks()).isEqualTo(BLOCKS - 1);
    assertThat(cache.bytes()).isLessThan(before);
  }

  @Test
  void aSweepOfTheWholeCatalogueDropsRemovedBlocksNoQueryListsAnyMore() throws Exception {
    publishLogs();
    cache = new SidecarCache(SidecarCache.DEFAULT_MAX_BYTES);
    search(Signal.LOGS, eq("request.id", Scalar.string("x")));
    assertThat(cache.blocks()).isEqualTo(BLOCKS);
    Path gone = blocks.get(0);
    try (var files = Files.list(gone)) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    Files.delete(gone);
    cache.sweep(data);
    assertThat(cache.holds(gone)).isFalse();
    assertThat(cache.blocks()).isEqualTo(BLOCKS - 1);
  }

  @Test
  void theCacheStaysWithinItsBudgetAndAnswersTheSame() throws Exception {
    publishLogs();
    long one = Files.size(blocks.get(0).resolve(AttrIndex.FILE)) + 256;
    cache = new SidecarCache(3 * one, 0);
    for (int round = 0; round < 3; round++) {
      SearchResult r = search(Signal.LOGS, eq("request.id", Scalar.string("req-6-3")));
      assertThat(field(r, "body")).containsExactly("line 6/3");
      assertThat(cache.bytes()).isLessThanOrEqualTo(3 * one);
      assertThat(cache.blocks()).isLessThanOrEqualTo(3);
    }
    assertThat(cache.filesRead()).as("evicted blocks are read again").isGreaterThan(BLOCKS);
  }

  @Test
  void aBlockDirectoryThatDoesNotExistIsAnsweredMaybeAndNotCached() {
    Path nowhere = data.resolve("logs/p=1/00000000000000000001-00000000000000000002-00000001-000000000001-00000000000000000000");
    var ref = new mira.block.catalog.BlockRef(Signal.LOGS,
        mira.block.catalog.BlockName.parse(nowhere.getFileName().toString()).orElseThrow(), nowhere);
    assertThat(cache.attr(ref).known()).isFalse();
    assertThat(cache.attr(ref).mightContain("k", "v")).isTrue();
    assertThat(cache.bytes()).isLessThanOrEqualTo(256);
    assertThat(cache.filesRead()).isZero();
  }

  @Test
  void snapshotsOfOpenBlocksAreNeverProbed() throws Exception {
    publishLogs();
    BlockPruner refuseAll = probe -> block -> false;
    Pruning p = new Pruning(List.of(refuseAll));
    Probe probe = new Probe(Signal.LOGS, T0 - 1, NOW, null, null, List.of());
    var listed = mira.block.catalog.Catalog.list(data, Signal.LOGS, T0 - 1, NOW);
    Predicate<mira.block.catalog.BlockRef> firstIsOpen = b -> b.equals(listed.get(0));
    Pruning.Selection s = p.select(listed, firstIsOpen, probe);
    assertThat(s.blocks()).containsExactly(listed.get(0));
    assertThat(s.pruned()).isEqualTo(BLOCKS - 1);
  }

  // ---- series ----

  @Test
  void aSeriesWhereTermOnAnAbsentValueOpensNoMetricsBlock() throws Exception {
    for (int i = 0; i < 4; i++) {
      ExportMetricsServiceRequest req = ExportMetricsServiceRequest.newBuilder().addResourceMetrics(
          ResourceMetrics.newBuilder().setResource(Resource.newBuilder().addAttributes(kv("service.name", s("svc-" + i))))
              .addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(gauge("cpu", "1",
                  intPoint(T0 + i, 10 + i, attr("core", i)))))).build();
      Blocks.publish(data, Signal.METRICS, "n", i + 1, req, T0);
    }
    String window = "\"from\": \"" + (T0 - 1) + "\", \"to\": \"" + NOW + "\"";
    JsonTree.Obj absent = series("{\"name\": \"cpu\", " + window + ", \"where\": [{\"attr\": \"service.name\", \"eq\": \"svc-9\"}]}");
    JsonTree.Obj stats = (JsonTree.Obj) absent.get("stats");
    assertThat(stats.get("blocks_scanned")).isEqualTo(0L);
    assertThat(stats.get("blocks_pruned")).isEqualTo(4L);
    JsonTree.Obj core = series("{\"name\": \"cpu\", " + window + ", \"where\": [{\"attr\": \"core\", \"gte\": 3}]}");
    assertThat(((JsonTree.Obj) core.get("stats")).get("blocks_scanned")).isEqualTo(1L);
    assertThat(core.list("series")).hasSize(1);
  }

  JsonTree.Obj series(String doc) throws Exception {
    return JsonTree.parseObj(mira.query.render.SeriesJson.series(SeriesScan.run(engine(), Documents.series(doc.getBytes(), NOW))));
  }
}
