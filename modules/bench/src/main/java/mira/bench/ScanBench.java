package mira.bench;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mira.block.publish.Publisher;
import mira.block.table.Batch;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.result.SearchResult;
import mira.query.result.Stats;
import mira.query.doc.Documents;
import mira.query.doc.SearchQuery;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Scan cost per row by predicate shape, through the query engine the HTTP API runs
 * ({@link LocalQueries#search}: catalogue, pruning, block open and CRC check, per-block filter,
 * top-K, rendering of the kept rows). The data directory holds {@link #BLOCKS} full (32 MiB) logs
 * blocks and as many traces blocks of the load generator's telemetry, published once per trial;
 * page cache warm.
 *
 * <p>Each benchmark's primary score is ns per query; the secondary result {@code rows} divides the
 * same time by the root rows the engine scanned ({@link Stats#rowsScanned()}), i.e. ns per scanned
 * row — whatever pruning decided to open, so the figure stays meaningful when sidecar pruning
 * skips blocks. Wall time: the engine may scan blocks on helper threads (FanOut), so on an idle
 * machine a query uses every core.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Threads(1)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class ScanBench {
  /** Blocks per signal. */
  static final int BLOCKS = 3;
  /** A substring the generator writes only into stack traces of failed database calls. */
  static final String TEXT = "SQLTransientConnectionException";

  private Path data;
  private LocalQueries queries;
  private SearchQuery attrEq;
  private SearchQuery fieldCompare;
  private SearchQuery substring;
  private SearchQuery topK;
  private SearchQuery spansAttrCompare;

  /** Root rows scanned: JMH reports the benchmark's time divided by this count (ns per row). */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Rows {
    public long rows;

    @Setup(Level.Iteration)
    public void clear() {
      rows = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    data = Files.createTempDirectory("mira-bench-scan");
    List<String> requestIds = new ArrayList<>();
    try (BufferAllocator a = new RootAllocator()) {
      for (Signal s : new Signal[] {Signal.LOGS, Signal.TRACES}) {
        Publisher p = new Publisher(data, s, "bench", a);
        for (int b = 0; b < BLOCKS; b++) {
          // Ten minutes apart, so the blocks' time ranges do not overlap (newest first is an order).
          long start = FullBlock.EPOCH_2026 + b * 600_000_000_000L;
          boolean middle = b == BLOCKS / 2;
          Batch block = FullBlock.build(s, 1, b, start, FullBlock.SEAL_BYTES, m -> {
            if (middle && m instanceof ExportLogsServiceRequest logs && requestIds.size() < 4) {
              requestIds.add(requestId(logs));
            }
          });
          p.publish(block, b, 0);
          System.out.printf("%n%s block %d: %,d records", s, b, block.records());
        }
      }
    }
    queries = LocalQueries.open(data);
    String id = requestIds.get(requestIds.size() - 1);
    attrEq = doc("{\"signal\": \"logs\", \"where\": [{\"attr\": \"request.id\", \"eq\": \"" + id + "\"}]}");
    fieldCompare = doc("{\"signal\": \"logs\", \"where\": [{\"field\": \"severity_number\", \"gte\": 17}]}");
    substring = doc("{\"signal\": \"logs\", \"where\": [{\"text\": \"" + TEXT + "\"}]}");
    topK = doc("{\"signal\": \"logs\"}");
    spansAttrCompare = doc("{\"signal\": \"traces\", \"where\": [{\"attr\": \"http.response.status_code\", \"gte\": 500}]}");
    System.out.println();
    for (String name : new String[] {"attrEq", "fieldCompare", "substring", "topK", "spansAttrCompare"}) {
      SearchQuery q = switch (name) {
        case "attrEq" -> attrEq;
        case "fieldCompare" -> fieldCompare;
        case "substring" -> substring;
        case "topK" -> topK;
        default -> spansAttrCompare;
      };
      Stats st = queries.search(q).stats();
      System.out.printf("%-17s blocks %d of %d, rows scanned %,d, matched %,d%n", name, st.blocksScanned(),
          st.blocksTotal(), st.rowsScanned(), st.rowsMatched());
    }
  }

  /** The request.id of the middle record of an export. */
  private static String requestId(ExportLogsServiceRequest logs) {
    var records = logs.getResourceLogs(0).getScopeLogs(0).getLogRecordsList();
    for (KeyValue kv : records.get(records.size() / 2).getAttributesList()) {
      if (kv.getKey().equals("request.id")) {
        return kv.getValue().getStringValue();
      }
    }
    throw new IllegalStateException("the generator wrote a log record without request.id");
  }

  /** A document over the whole of retention ("from" 0), as the peer comparison asks it. */
  private SearchQuery doc(String json) throws Exception {
    String whole = json.replaceFirst("\\{", "{\"from\": \"0\", \"to\": \"now\", \"limit\": 100, ");
    return Documents.search(whole.getBytes(StandardCharsets.UTF_8), queries.now());
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    queries.close();
    SealBench.delete(data);
  }

  private SearchResult run(SearchQuery q, Rows r) throws Exception {
    SearchResult res = queries.search(q);
    r.rows += res.stats().rowsScanned();
    return res;
  }

  /** Logs whose request.id equals one existing value (a handful of rows): the attribute semi-join. */
  @Benchmark
  public SearchResult attrEq(Rows r) throws Exception {
    return run(attrEq, r);
  }

  /** Logs with severity_number >= 17 (ERROR and worse): a root-column comparison. */
  @Benchmark
  public SearchResult fieldCompare(Rows r) throws Exception {
    return run(fieldCompare, r);
  }

  /** Logs whose body contains {@link #TEXT}: a byte search over every body. */
  @Benchmark
  public SearchResult substring(Rows r) throws Exception {
    return run(substring, r);
  }

  /** The newest 100 logs, no predicate: time filter and top-K. */
  @Benchmark
  public SearchResult topK(Rows r) throws Exception {
    return run(topK, r);
  }

  /** Spans with http.response.status_code >= 500: a numeric attribute comparison. */
  @Benchmark
  public SearchResult spansAttrCompare(Rows r) throws Exception {
    return run(spansAttrCompare, r);
  }
}
