package mira.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import mira.query.result.SearchResult;
import mira.query.result.TraceResult;
import mira.query.render.ResponseJson;
import mira.block.catalog.BlockName;
import mira.block.index.AttrIndex;
import mira.block.index.TextIndex;
import mira.block.index.TraceIndex;
import mira.block.index.ZoneIndex;
import mira.proto.wire.Signal;
import mira.query.doc.Cursor;
import mira.query.doc.Documents;
import mira.query.doc.Op;
import mira.query.doc.RootField;
import mira.query.doc.Scalar;
import mira.query.doc.SearchQuery;
import mira.query.doc.Term;
import mira.query.prune.Pruning;
import mira.query.prune.SidecarCache;
import mira.query.testing.Corpus;
import mira.query.testing.Oracle;
import mira.query.testing.Queries;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * Pruning by sidecars never changes an answer: random batches are published as blocks (their trace
 * ids varied per block, so trace filters differ), some blocks lose a sidecar or all four, some get
 * one byte of a sidecar flipped, and random documents — terms at every attribute level, numbers as
 * text, 1 against 1.0, trace ids, text needles inside and across words — are answered page by page by a store pruning with its sidecars
 * and by one pruning by name only: the rows, their order, their rendering and the cursors must be
 * the same, and so must every trace lookup. jqwik prints the seed; replay with
 * {@code @Property(seed = "...")}.
 */
class PruningPropertyTest {
  static final long NOW = SearchOracleTest.NOW;
  static final int VARIANTS = 4;

  /** What happens to a block's sidecars after it is published. */
  enum Fate { INTACT, NO_TRACE_IDX, NO_ATTR_IDX, NO_TEXT_IDX, NO_ZONE_IDX, NONE_AT_ALL, FLIPPED_BYTE }

  record Block(SearchOracleTest.Published published, Fate fate, int flipFile, int flipAt) {}

  @Provide
  Arbitrary<List<Block>> logsBlocks() {
    return blocks(Corpus.logsRequest().map(r -> (Message) r));
  }

  @Provide
  Arbitrary<List<Block>> tracesBlocks() {
    return blocks(Corpus.tracesRequest().map(r -> (Message) r));
  }

  private static Arbitrary<List<Block>> blocks(Arbitrary<Message> requests) {
    Arbitrary<SearchOracleTest.Published> published = Combinators.combine(Arbitraries.of("node-a", "node-b"), requests,
        Corpus.time()).as(SearchOracleTest.Published::new);
    Arbitrary<Fate> fate = Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.just(Fate.INTACT)),
        Tuple.of(1, Arbitraries.of(Fate.NO_TRACE_IDX, Fate.NO_ATTR_IDX, Fate.NO_TEXT_IDX, Fate.NO_ZONE_IDX, Fate.NONE_AT_ALL)),
        Tuple.of(1, Arbitraries.just(Fate.FLIPPED_BYTE)));
    return Combinators.combine(published, fate, Arbitraries.integers().between(0, 3),
            Arbitraries.integers().between(0, Integer.MAX_VALUE))
        .as(Block::new).list().ofMinSize(2).ofMaxSize(6);
  }

  /** A trace id of the pool, in one of its per-block variants. */
  static ByteString variant(ByteString id, int v) {
    byte[] b = id.toByteArray();
    b[15] ^= (byte) v;
    return ByteString.copyFrom(b);
  }

  static Arbitrary<ByteString> traceIds() {
    return Combinators.combine(Arbitraries.of(Corpus.TRACE_IDS), Arbitraries.integers().between(0, VARIANTS - 1))
        .as(PruningPropertyTest::variant);
  }

  /** Numbers near the pool's values, as integers and doubles: what zone.idx probes. */
  static Arbitrary<Scalar> numbers() {
    return Arbitraries.of(Scalar.integer(0), Scalar.integer(1), Scalar.dbl(1.0), Scalar.dbl(0.5), Scalar.dbl(0.4),
        Scalar.integer(5), Scalar.integer(7), Scalar.integer(9), Scalar.integer(13), Scalar.dbl(12.5), Scalar.integer(99),
        Scalar.dbl(99.5), Scalar.integer(200), Scalar.dbl(200.0), Scalar.integer(500), Scalar.integer(1000),
        Scalar.integer(2000), Scalar.integer(-3), Scalar.integer(-5), Scalar.dbl(1e300), Scalar.integer(257),
        Scalar.integer(4294967295L));
  }

  /** A term comparing an attribute or an integer field with an unquoted number. */
  static Arbitrary<Term> numericTerm(Signal signal) {
    Arbitrary<Op> ops = Arbitraries.of(Op.EQ, Op.GT, Op.GTE, Op.LT, Op.LTE);
    List<RootField> fields = signal == Signal.LOGS ? List.of(RootField.SEVERITY_NUMBER, RootField.FLAGS)
        : List.of(RootField.KIND, RootField.STATUS_CODE, RootField.DURATION_NANO);
    return Arbitraries.oneOf(
        Combinators.combine(Arbitraries.of(Corpus.KEYS), ops, numbers()).as(Term.Attr::new),
        Combinators.combine(Arbitraries.of(fields), ops, numbers()).as(Term.Field::new));
  }

  /**
   * Queries of {@link Queries}; some also pin a trace id of any block's variant, some are one or two
   * numeric comparisons over the whole window.
   */
  static Arbitrary<List<SearchQuery>> queries(Signal signal) {
    Arbitrary<SearchQuery> numeric = Combinators.combine(numericTerm(signal).list().ofMinSize(1).ofMaxSize(2),
            Arbitraries.integers().between(1, 7))
        .as((where, limit) -> new SearchQuery(signal, Corpus.T0 - 1_000_000_000_000L, Corpus.T0 + 1_000_000_000_000L,
            where, limit, null));
    Arbitrary<SearchQuery> pinned = Combinators.combine(Queries.queries(signal), traceIds(), Arbitraries.of(true, false))
        .as((q, id, upper) -> {
          String hex = HexFormat.of().formatHex(id.toByteArray());
          List<Term> where = new ArrayList<>(q.where());
          where.add(new Term.Field(RootField.TRACE_ID, Op.EQ, Scalar.string(upper ? hex.toUpperCase(Locale.ROOT) : hex)));
          return new SearchQuery(signal, q.from(), q.to(), where, q.limit(), null);
        });
    // Needles for text.idx: whole bodies and names, substrings inside a word ("Pointer"), across a
    // space ("/a 2"), absent ones, and some too short to test (two bytes).
    Arbitrary<SearchQuery> text = Combinators.combine(Arbitraries.of("Pointer", "NullPointerException", "boom: N", "GET /a",
            "/a 2", "Exceptio", "zzz", "ab", "bc", "200", "é!", "login", "abc", "ptionX").map(Term.Text::new).list()
            .ofMinSize(1).ofMaxSize(2), Arbitraries.integers().between(1, 7))
        .as((where, limit) -> new SearchQuery(signal, Corpus.T0 - 1_000_000_000_000L, Corpus.T0 + 1_000_000_000_000L,
            new ArrayList<>(where), limit, null));
    return Arbitraries.frequencyOf(Tuple.of(3, Queries.queries(signal)), Tuple.of(1, pinned), Tuple.of(2, numeric),
            Tuple.of(2, text))
        .list().ofMinSize(1).ofMaxSize(6);
  }

  @Provide
  Arbitrary<List<SearchQuery>> logsQueries() {
    return queries(Signal.LOGS);
  }

  @Provide
  Arbitrary<List<SearchQuery>> tracesQueries() {
    return queries(Signal.TRACES);
  }

  @Property(tries = 100)
  void logsAnswersAreTheSameWithPruningOnAndOff(@ForAll("logsBlocks") List<Block> blocks,
      @ForAll("logsQueries") List<SearchQuery> queries) throws Exception {
    check(Signal.LOGS, blocks, queries);
  }

  @Property(tries = 100)
  void spansAndTracesAreTheSameWithPruningOnAndOff(@ForAll("tracesBlocks") List<Block> blocks,
      @ForAll("tracesQueries") List<SearchQuery> queries) throws Exception {
    check(Signal.TRACES, blocks, queries);
  }

  static void check(Signal signal, List<Block> blocks, List<SearchQuery> queries) throws Exception {
    Path dir = Files.createTempDirectory("mira-pruning");
    try {
      List<SearchOracleTest.Published> store = new ArrayList<>();
      for (int i = 0; i < blocks.size(); i++) {
        SearchOracleTest.Published p = blocks.get(i).published();
        store.add(new SearchOracleTest.Published(p.node(), withTraceVariant(p.request(), i % VARIANTS), p.receivedAt()));
      }
      List<BlockName> names = SearchOracleTest.publish(dir, signal, store, new ArrayList<Oracle.Item>());
      List<Path> published = blockDirs(dir, signal, names);
      boolean damaged = false;
      for (int i = 0; i < blocks.size(); i++) {
        damaged |= damage(published.get(i), blocks.get(i));
      }
      Statistics.label("sidecars").collect(damaged ? "some missing or damaged" : "all intact");
      try (LocalQueries on = LocalQueries.open(dir, () -> NOW, Pruning.withSidecars(new SidecarCache(1 << 20)));
          LocalQueries off = LocalQueries.open(dir, () -> NOW, Pruning.byNameOnly())) {
        for (SearchQuery q : queries) {
          String doc = new String(Queries.json(q, null));
          int pruned = pageBoth(on, off, q, doc);
          Statistics.label("pruned").collect(pruned > 0 ? "some blocks pruned" : "none pruned");
        }
        if (signal == Signal.TRACES) {
          for (ByteString id : Corpus.TRACE_IDS) {
            String hex = HexFormat.of().formatHex(variant(id, blocks.size() % VARIANTS).toByteArray());
            TraceResult a = on.trace(hex);
            TraceResult b = off.trace(hex);
            assertThat(a.spans()).as("trace %s", hex).containsExactlyElementsOf(b.spans());
            assertThat(a.stats().blocksScanned()).isLessThanOrEqualTo(b.stats().blocksScanned());
          }
        }
      }
      Statistics.label("pruned").coverage(c -> c.check("some blocks pruned").percentage(p -> p > 15));
      Statistics.label("sidecars").coverage(c -> c.check("some missing or damaged").percentage(p -> p > 20));
    } finally {
      SearchOracleTest.delete(dir);
    }
  }

  /** Pages through {@code q} on both stores, asserting each page is the same; returns blocks pruned on the first. */
  static int pageBoth(LocalQueries on, LocalQueries off, SearchQuery q, String doc) throws Exception {
    Cursor after = null;
    int prunedFirst = -1;
    for (int page = 0; page < 10_000; page++) {
      SearchQuery p = Documents.search(Queries.json(q, after), NOW);
      SearchResult a = on.search(p);
      SearchResult b = off.search(p);
      assertThat(SearchOracleTest.positions(a.rows())).as("page %d of %s", page, doc)
          .isEqualTo(SearchOracleTest.positions(b.rows()));
      for (int i = 0; i < a.rows().size(); i++) {
        assertThat(ResponseJson.row(a.rows().get(i))).as("row %d of page %d of %s", i, page, doc).isEqualTo(ResponseJson.row(b.rows().get(i)));
      }
      assertThat(a.next()).as("cursor of page %d of %s", page, doc).isEqualTo(b.next());
      assertThat(a.refused()).isEmpty();
      assertThat(a.stats().blocksTotal()).isEqualTo(b.stats().blocksTotal());
      assertThat(a.stats().blocksPruned() + a.stats().blocksScanned()).isLessThanOrEqualTo(a.stats().blocksTotal());
      if (prunedFirst < 0) {
        prunedFirst = a.stats().blocksPruned() - b.stats().blocksPruned();
      }
      if (a.next() == null) {
        return prunedFirst;
      }
      after = Cursor.parse(a.next());
    }
    throw new AssertionError("paging did not end");
  }

  /** The request with every trace id of a record or span replaced by its variant {@code v}. */
  static Message withTraceVariant(Message request, int v) {
    if (request instanceof ExportLogsServiceRequest r) {
      ExportLogsServiceRequest.Builder b = r.toBuilder();
      b.getResourceLogsBuilderList().forEach(rl -> rl.getScopeLogsBuilderList().forEach(sl ->
          sl.getLogRecordsBuilderList().forEach(l -> {
            if (!l.getTraceId().isEmpty()) {
              l.setTraceId(variant(l.getTraceId(), v));
            }
          })));
      return b.build();
    }
    ExportTraceServiceRequest.Builder b = ((ExportTraceServiceRequest) request).toBuilder();
    b.getResourceSpansBuilderList().forEach(rs -> rs.getScopeSpansBuilderList().forEach(ss ->
        ss.getSpansBuilderList().forEach(s -> s.setTraceId(variant(s.getTraceId(), v)))));
    return b.build();
  }

  /** The directories of {@code names}, in that order. */
  static List<Path> blockDirs(Path dir, Signal signal, List<BlockName> names) throws Exception {
    List<Path> all;
    try (var s = Files.walk(dir.resolve(signal.dir()), 2)) {
      all = s.filter(p -> p.getNameCount() == dir.getNameCount() + 3).toList();
    }
    List<Path> out = new ArrayList<>();
    for (BlockName n : names) {
      out.add(all.stream().filter(p -> p.getFileName().toString().equals(n.dirName())).findFirst().orElseThrow());
    }
    return out;
  }

  /** Applies the block's fate to its sidecars; true if any was removed or damaged. */
  static boolean damage(Path block, Block b) throws Exception {
    String[] files = {TraceIndex.FILE, AttrIndex.FILE, ZoneIndex.FILE, TextIndex.FILE};
    switch (b.fate()) {
      case INTACT -> {
        return false;
      }
      case NO_TRACE_IDX -> {
        return Files.deleteIfExists(block.resolve(TraceIndex.FILE));
      }
      case NO_ATTR_IDX -> {
        return Files.deleteIfExists(block.resolve(AttrIndex.FILE));
      }
      case NO_TEXT_IDX -> {
        return Files.deleteIfExists(block.resolve(TextIndex.FILE));
      }
      case NO_ZONE_IDX -> {
        return Files.deleteIfExists(block.resolve(ZoneIndex.FILE));
      }
      case NONE_AT_ALL -> {
        boolean any = false;
        for (String f : files) {
          any |= Files.deleteIfExists(block.resolve(f));
        }
        return any;
      }
      case FLIPPED_BYTE -> {
        Path f = block.resolve(files[b.flipFile()]);
        if (!Files.exists(f)) {
          return false;
        }
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
          long at = Integer.toUnsignedLong(b.flipAt()) % ch.size();
          ByteBuffer one = ByteBuffer.allocate(1);
          ch.read(one, at);
          one.put(0, (byte) (one.get(0) ^ (1 << (b.flipAt() % 8)))).rewind();
          ch.write(one, at);
        }
        return true;
      }
    }
    throw new AssertionError(b.fate());
  }
}
