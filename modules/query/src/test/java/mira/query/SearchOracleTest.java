package mira.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import mira.query.result.Row;
import mira.query.result.SearchResult;
import mira.query.render.ResponseJson;
import mira.block.catalog.BlockName;
import mira.proto.wire.Signal;
import mira.query.doc.Cursor;
import mira.query.doc.Documents;
import mira.query.doc.FilterText;
import mira.query.doc.SearchQuery;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import mira.query.testing.Expected;
import mira.query.testing.JsonTree;
import mira.query.testing.Oracle;
import mira.query.testing.Queries;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The search engine against a brute-force oracle: random OTLP requests are decoded and published
 * as several blocks from two nodes, random query documents are run, and every page's rows must be
 * exactly the oracle's selection over the protobuf requests, in the total order, rendered as
 * docs/api.md says — and paging through all pages must yield each selected row exactly once.
 * Times come from a dozen instants, so many rows share a nanosecond (within a block, across
 * blocks and across nodes). jqwik prints the seed of every run; replay with
 * {@code @Property(seed = "...")}.
 */
class SearchOracleTest {
  static final long NOW = Corpus.T0 + 3_600_000_000_000L;

  /** One published block: which node wrote it, its request and its receive time. */
  record Published(String node, Message request, long receivedAt) {}

  @Provide
  Arbitrary<List<Published>> logsStore() {
    return store(Corpus.logsRequest().map(r -> (Message) r));
  }

  @Provide
  Arbitrary<List<Published>> tracesStore() {
    return store(Corpus.tracesRequest().map(r -> (Message) r));
  }

  private static Arbitrary<List<Published>> store(Arbitrary<Message> requests) {
    return Combinators.combine(Arbitraries.of("node-a", "node-b"), requests, Corpus.time())
        .as(Published::new).list().ofMinSize(1).ofMaxSize(5);
  }

  @Provide
  Arbitrary<List<SearchQuery>> logsQueries() {
    return Queries.queries(Signal.LOGS).list().ofMinSize(1).ofMaxSize(6);
  }

  @Provide
  Arbitrary<List<SearchQuery>> tracesQueries() {
    return Queries.queries(Signal.TRACES).list().ofMinSize(1).ofMaxSize(6);
  }

  @Property(tries = 100)
  void logsSearchEqualsBruteForce(@ForAll("logsStore") List<Published> store,
      @ForAll("logsQueries") List<SearchQuery> queries) throws Exception {
    check(Signal.LOGS, store, queries);
    coverage();
  }

  @Property(tries = 100)
  void spansSearchEqualsBruteForce(@ForAll("tracesStore") List<Published> store,
      @ForAll("tracesQueries") List<SearchQuery> queries) throws Exception {
    check(Signal.TRACES, store, queries);
    coverage();
  }

  /** A run where most queries match nothing, or nothing pages, would prove little. */
  static void coverage() {
    Statistics.label("matched").coverage(c -> {
      c.check("several pages").percentage(p -> p > 10);
      c.check("0").percentage(p -> p < 75);
    });
    Statistics.label("ties").coverage(c -> c.check("rows sharing a nanosecond").percentage(p -> p > 10));
  }

  static void check(Signal signal, List<Published> store, List<SearchQuery> queries) throws Exception {
    Path dir = Files.createTempDirectory("mira-query-oracle");
    try {
      List<Oracle.Item> items = new ArrayList<>();
      List<BlockName> names = publish(dir, signal, store, items);
      try (LocalQueries local = LocalQueries.open(dir, () -> NOW)) {
        for (SearchQuery q : queries) {
          assertThat(Documents.search(Queries.json(q, null), NOW)).as("document spelling").isEqualTo(q);
          assertThat(Documents.search(Queries.text(q), NOW)).as("filter-text spelling %s", FilterText.print(q.where()))
              .isEqualTo(q);
          List<Oracle.Item> expected = Oracle.select(q, items);
          List<Row> got = pageThrough(local, q);
          Statistics.label("matched").collect(expected.isEmpty() ? "0" : expected.size() <= q.limit() ? "one page"
              : "several pages");
          Statistics.label("ties").collect(hasTie(expected) ? "rows sharing a nanosecond" : "no tie");
          assertThat(positions(got)).as("rows of %s", new String(Queries.json(q, null))).isEqualTo(positionsOf(expected));
          for (int i = 0; i < got.size(); i++) {
            Oracle.Item e = expected.get(i);
            JsonTree.Obj want = signal == Signal.LOGS
                ? Expected.log(e.time(), e.resource(), e.resourceSchema(), e.scope(), e.scopeSchema(), e.log())
                : Expected.span(e.resource(), e.resourceSchema(), e.scope(), e.scopeSchema(), e.span());
            assertThat(JsonTree.parse(ResponseJson.row(got.get(i)))).as("rendering of row %d", i).isEqualTo(want);
          }
          SearchResult counted = local.count(q.signal(), q.from(), q.to(), q.where());
          assertThat(counted.rows()).as("a count materialises no row").isEmpty();
          assertThat(counted.next()).isNull();
          assertThat(counted.stats().rowsMatched()).as("count of %s", FilterText.print(q.where()))
              .isEqualTo(expected.size());
          SearchResult first = local.search(q);
          long overlapping = names.stream().filter(n -> n.maxTime() >= q.from() && n.minTime() <= q.to()).count();
          assertThat(first.stats().blocksTotal()).isEqualTo((int) overlapping);
          assertThat(first.stats().blocksScanned()).isLessThanOrEqualTo(first.stats().blocksTotal());
          assertThat(first.refused()).isEmpty();
        }
      }
    } finally {
      delete(dir);
    }
  }

  /** Every page, by passing {@code next} back as {@code after} through the JSON document path. */
  static List<Row> pageThrough(LocalQueries local, SearchQuery q) throws Exception {
    List<Row> all = new ArrayList<>();
    Cursor after = null;
    for (int page = 0; page < 10_000; page++) {
      SearchQuery p = Documents.search(Queries.json(q, after), NOW);
      SearchResult r = local.search(p);
      assertThat(r.rows().size()).isLessThanOrEqualTo(q.limit());
      // The JSON envelope carries the same rows and cursor.
      JsonTree.Obj env = JsonTree.parseObj(ResponseJson.search(r));
      assertThat(env.list("rows")).hasSize(r.rows().size());
      assertThat(env.str("next")).isEqualTo(r.next());
      all.addAll(r.rows());
      if (r.next() == null) {
        assertThat(r.rows().size()).as("a page without next is short").isLessThan(q.limit());
        return all;
      }
      assertThat(r.rows()).as("a page with next is full").hasSize(q.limit());
      after = Cursor.parse(r.next());
    }
    throw new AssertionError("paging did not end");
  }

  static boolean hasTie(List<Oracle.Item> items) {
    for (int i = 1; i < items.size(); i++) {
      if (items.get(i).time() == items.get(i - 1).time()) {
        return true;
      }
    }
    return false;
  }

  static List<String> positions(List<Row> rows) {
    return rows.stream().map(r -> r.time() + "/" + r.node() + "/" + r.seq() + "/" + r.row()).toList();
  }

  static List<String> positionsOf(List<Oracle.Item> items) {
    return items.stream().map(r -> r.time() + "/" + r.node() + "/" + r.seq() + "/" + r.row()).toList();
  }

  /** Publishes the store and flattens it into oracle items at their place in the total order. */
  static List<BlockName> publish(Path dir, Signal signal, List<Published> store, List<Oracle.Item> items)
      throws Exception {
    Map<String, Long> seqs = new HashMap<>();
    List<BlockName> names = new ArrayList<>();
    for (Published p : store) {
      long seq = seqs.merge(p.node(), 1L, Long::sum);
      Path block = Blocks.publish(dir, signal, p.node(), seq, p.request(), p.receivedAt());
      BlockName name = BlockName.parse(block.getFileName().toString()).orElseThrow();
      names.add(name);
      int node = BlockName.nodeId(p.node());
      int row = 0;
      if (signal == Signal.LOGS) {
        for (ResourceLogs rl : ((ExportLogsServiceRequest) p.request()).getResourceLogsList()) {
          for (ScopeLogs sl : rl.getScopeLogsList()) {
            for (LogRecord r : sl.getLogRecordsList()) {
              long t = r.getTimeUnixNano() != 0 ? r.getTimeUnixNano()
                  : r.getObservedTimeUnixNano() != 0 ? r.getObservedTimeUnixNano() : p.receivedAt();
              items.add(new Oracle.Item(t, node, seq, row++, rl.getResource(), rl.getSchemaUrl(), sl.getScope(),
                  sl.getSchemaUrl(), r, null));
            }
          }
        }
      } else {
        for (ResourceSpans rs : ((ExportTraceServiceRequest) p.request()).getResourceSpansList()) {
          for (ScopeSpans ss : rs.getScopeSpansList()) {
            for (Span s : ss.getSpansList()) {
              // A span with neither time sorts at its block's max time (docs/api.md).
              long t = s.getStartTimeUnixNano() != 0 ? s.getStartTimeUnixNano()
                  : s.getEndTimeUnixNano() != 0 ? s.getEndTimeUnixNano() : name.maxTime();
              items.add(new Oracle.Item(t, node, seq, row++, rs.getResource(), rs.getSchemaUrl(), ss.getScope(),
                  ss.getSchemaUrl(), null, s));
            }
          }
        }
      }
    }
    return names;
  }

  static void delete(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
