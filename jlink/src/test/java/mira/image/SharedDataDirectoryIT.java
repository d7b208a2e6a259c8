package mira.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.LogRecordProcessor;
import io.opentelemetry.sdk.logs.ReadWriteLogRecord;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.resources.Resource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import mira.block.catalog.BlockName;
import mira.block.testing.ArrowTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real {@code bin/mira} processes, "alpha" and "beta", share one data directory
 * (docs/operations.md, "Sharing a data directory"). The OpenTelemetry SDK's OTLP/HTTP exporter drives
 * both at once from several threads; every log record carries a unique marker in its body, so after
 * both stop the published blocks can be held to exactly what each process acknowledged.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SharedDataDirectoryIT {
  private static final Duration START = Duration.ofSeconds(30);
  private static final Duration STOP = Duration.ofSeconds(30);
  private static final String ALPHA = "alpha";
  private static final String BETA = "beta";
  /** SDK instances per node, each exporting its batches one after another, as an application does. */
  private static final int THREADS = 8;
  private static final int EXPORTS = 8;
  private static final int RECORDS = 50;

  @TempDir Path cwd;

  @Test
  void twoProcessesOnOneDataDirectoryStoreExactlyWhatEachAcknowledged() throws Exception {
    long t0 = System.nanoTime();
    Path data = cwd.resolve("data");
    assertThat(BlockName.nodeId(ALPHA)).as("the two names must not share a node id").isNotEqualTo(BlockName.nodeId(BETA));

    Acks alpha;
    Acks beta;
    try (Launched a = serve(data, ALPHA); Launched b = serve(data, BETA)) {
      int alphaHttp = a.awaitListening(START)[1];
      int betaHttp = b.awaitListening(START)[1];
      ExecutorService pool = Executors.newFixedThreadPool(2 * THREADS);
      try {
        Future<Acks> fa = pool.submit(() -> drive(ALPHA, 1, alphaHttp, THREADS, EXPORTS));
        Future<Acks> fb = pool.submit(() -> drive(BETA, 1, betaHttp, THREADS, EXPORTS));
        alpha = fa.get();
        beta = fb.get();
      } finally {
        pool.shutdownNow();
      }
      stop(a);
      stop(b);
    }
    for (Acks acks : List.of(alpha, beta)) {
      assertThat(acks.refusals).as(acks.node + ": exports not answered 200").isEmpty();
      assertThat(acks.markers).hasSize(THREADS * EXPORTS * RECORDS).doesNotHaveDuplicates();
    }

    List<Block> first = blocks(data);
    assertNoStagingLeft(data);
    assertDistinctSequencesPerNode(first);
    assertStoredExactlyTheAcknowledged(first, Map.of(ALPHA, alpha.markers, BETA, beta.markers));
    Set<String> betaBlocks = names(first, BETA);
    Set<String> alphaBlocks = names(first, ALPHA);
    long alphaHighest = first.stream().filter(x -> x.node() == BlockName.nodeId(ALPHA)).mapToLong(x -> x.name.seq()).max().orElseThrow();

    // Alpha alone again, on the directory beta also wrote to.
    Acks again;
    try (Launched a = serve(data, ALPHA)) {
      int http = a.awaitListening(START)[1];
      again = drive(ALPHA, 2, http, 2, 3);
      stop(a);
    }
    assertThat(again.refusals).isEmpty();
    assertThat(again.markers).hasSize(2 * 3 * RECORDS);

    List<Block> second = blocks(data);
    assertNoStagingLeft(data);
    assertDistinctSequencesPerNode(second);
    assertThat(names(second, BETA)).as("beta's blocks after alpha's restart").isEqualTo(betaBlocks);
    assertThat(names(second, ALPHA)).containsAll(alphaBlocks);
    List<Long> newSeqs = second.stream()
        .filter(x -> x.node() == BlockName.nodeId(ALPHA) && !alphaBlocks.contains(x.id()))
        .map(x -> x.name.seq()).toList();
    assertThat(newSeqs).as("blocks alpha published after its restart").isNotEmpty().allSatisfy(s -> assertThat(s).isGreaterThan(alphaHighest));
    List<String> alphaAll = new ArrayList<>(alpha.markers);
    alphaAll.addAll(again.markers);
    assertStoredExactlyTheAcknowledged(second, Map.of(ALPHA, alphaAll, BETA, beta.markers));

    System.out.printf("shared data directory: alpha acked %d records in %d exports -> %d blocks (+%d records, %d blocks after restart); "
            + "beta acked %d records in %d exports -> %d blocks; %d ms%n",
        alpha.markers.size(), THREADS * EXPORTS, alphaBlocks.size(), again.markers.size(), newSeqs.size(),
        beta.markers.size(), THREADS * EXPORTS, betaBlocks.size(), (System.nanoTime() - t0) / 1_000_000);
  }

  @Test
  void aNodeSweepsOnlyItsOwnStagingLeftoversAtBoot() throws Exception {
    Path data = cwd.resolve("data");
    Path staging = data.resolve("logs").resolve(".staging");
    Files.createDirectories(staging);
    long t = 1_767_225_600_000_000_000L;
    // What a publish killed between staging and rename leaves: a directory named as the final block.
    Path betas = leftover(staging, new BlockName(t, t + 5, BlockName.nodeId(BETA), 4, 0));
    Path alphas = leftover(staging, new BlockName(t, t + 5, BlockName.nodeId(ALPHA), 4, 0));

    try (Launched a = serve(data, ALPHA)) {
      a.awaitListening(START);
      assertThat(alphas).as("alpha's own leftover (the sweep ran)").doesNotExist();
      assertThat(betas.resolve("logs.arrow")).as("beta's leftover while alpha runs").isRegularFile();
      stop(a);
      assertThat(a.stderr()).contains("logs: removed 1 staging directories");
    }
    assertThat(betas.resolve("logs.arrow")).as("beta's leftover after alpha stopped").isRegularFile();

    try (Launched b = serve(data, BETA)) {
      b.awaitListening(START);
      assertThat(betas).as("beta's leftover once beta is listening").doesNotExist();
      stop(b);
    }
  }

  private Launched serve(Path data, String node) throws IOException {
    return Launched.start(cwd, "serve", "--data-dir", data.toString(), "--node", node,
        "--grpc-listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0");
  }

  private static void stop(Launched m) throws InterruptedException {
    m.terminate();
    assertThat(m.awaitExit(STOP)).as("exit status after SIGTERM:\n" + m.stderr()).isZero();
    assertThat(m.stderr()).as("no publish failed").doesNotContain("publishing block");
  }

  private static Path leftover(Path staging, BlockName name) throws IOException {
    Path dir = staging.resolve(name.dirName());
    Files.createDirectory(dir);
    Files.write(dir.resolve("logs.arrow"), new byte[] {'A', 'R', 'R', 'O', 'W', '1'});
    return dir;
  }

  // ---- clients

  /** What one node acknowledged: the markers of every export answered 200, and why the others were not. */
  record Acks(String node, List<String> markers, List<String> refusals) {}

  /**
   * {@code threads} SDK instances (each its own resource, logger provider and exporter, so its own
   * connection), each exporting {@code exports} batches of {@link #RECORDS} records to the node.
   * Retries are off: a batch counts as acknowledged exactly when its one request was answered 200.
   */
  private static Acks drive(String node, int run, int httpPort, int threads, int exports) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Acks>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        parts.add(pool.submit(() -> instance(node, run, thread, httpPort, exports)));
      }
      List<String> markers = new ArrayList<>();
      List<String> refusals = new ArrayList<>();
      for (Future<Acks> f : parts) {
        Acks a = f.get();
        markers.addAll(a.markers);
        refusals.addAll(a.refusals);
      }
      return new Acks(node, markers, refusals);
    } finally {
      pool.shutdownNow();
    }
  }

  private static Acks instance(String node, int run, int thread, int httpPort, int exports) {
    List<String> markers = new ArrayList<>();
    List<String> refusals = new ArrayList<>();
    Collect collect = new Collect();
    LogRecordExporter exporter = OtlpHttpLogRecordExporter.builder()
        .setEndpoint("http://127.0.0.1:" + httpPort + "/v1/logs")
        .setTimeout(Duration.ofSeconds(30))
        .setRetryPolicy(null)
        .build();
    Resource resource = Resource.create(Attributes.of(
        AttributeKey.stringKey("service.name"), "shared-dir-it",
        AttributeKey.stringKey("service.instance.id"), node + "-" + run + "-" + thread));
    try (SdkLoggerProvider provider = SdkLoggerProvider.builder().setResource(resource).addLogRecordProcessor(collect).build()) {
      Logger logger = provider.get("mira.image.shared");
      for (int e = 0; e < exports; e++) {
        List<String> sent = new ArrayList<>(RECORDS);
        for (int r = 0; r < RECORDS; r++) {
          String marker = node + "-" + run + "-" + thread + "-" + e + "-" + r;
          sent.add(marker);
          logger.logRecordBuilder().setTimestamp(Instant.now()).setSeverity(Severity.INFO).setBody(marker).emit();
        }
        CompletableResultCode result = exporter.export(collect.take()).join(40, TimeUnit.SECONDS);
        if (result.isSuccess()) {
          markers.addAll(sent);
        } else {
          refusals.add(sent.getFirst() + ": " + (result.isDone() ? result.getFailureThrowable() : "no answer in 40 s"));
        }
      }
    } finally {
      exporter.shutdown().join(10, TimeUnit.SECONDS);
    }
    return new Acks(node, markers, refusals);
  }

  /** Keeps what the SDK emits until the next {@link #take}, so each export holds a known batch. */
  private static final class Collect implements LogRecordProcessor {
    private final List<LogRecordData> pending = new ArrayList<>();

    @Override
    public synchronized void onEmit(Context context, ReadWriteLogRecord log) {
      pending.add(log.toLogRecordData());
    }

    synchronized List<LogRecordData> take() {
      List<LogRecordData> out = List.copyOf(pending);
      pending.clear();
      return out;
    }
  }

  // ---- the directory

  /** A published block: {@code <data>/logs/p=<hour>/<name>}. */
  record Block(Path dir, BlockName name) {
    int node() {
      return name.node();
    }

    String id() {
      return dir.getParent().getFileName() + "/" + dir.getFileName();
    }
  }

  /** Every entry under {@code <data>/logs/p=*}; each must be a block of one of the two nodes. */
  private static List<Block> blocks(Path data) throws IOException {
    Set<Integer> nodes = Set.of(BlockName.nodeId(ALPHA), BlockName.nodeId(BETA));
    List<Block> out = new ArrayList<>();
    List<String> strays = new ArrayList<>();
    try (Stream<Path> parts = Files.list(data.resolve("logs"))) {
      for (Path p : parts.filter(x -> x.getFileName().toString().startsWith("p=")).toList()) {
        try (Stream<Path> entries = Files.list(p)) {
          for (Path e : entries.toList()) {
            BlockName n = BlockName.parse(e.getFileName().toString()).orElse(null);
            if (n == null || !nodes.contains(n.node()) || !Files.isDirectory(e) || !p.getFileName().toString().equals(n.partition())) {
              strays.add(data.relativize(e).toString());
            } else {
              out.add(new Block(e, n));
            }
          }
        }
      }
    }
    assertThat(strays).as("entries under logs/p=* that are not a block of alpha or beta in its partition").isEmpty();
    assertThat(out).as("published blocks").isNotEmpty();
    return out;
  }

  private static Set<String> names(List<Block> blocks, String node) {
    Set<String> out = new HashSet<>();
    for (Block b : blocks) {
      if (b.node() == BlockName.nodeId(node)) {
        out.add(b.id());
      }
    }
    return out;
  }

  private static void assertNoStagingLeft(Path data) throws IOException {
    try (Stream<Path> s = Files.list(data.resolve("logs").resolve(".staging"))) {
      assertThat(s.map(x -> x.getFileName().toString())).as("logs/.staging after both stopped").isEmpty();
    }
  }

  private static void assertDistinctSequencesPerNode(List<Block> blocks) {
    Map<Integer, List<Long>> seqs = new HashMap<>();
    for (Block b : blocks) {
      seqs.computeIfAbsent(b.node(), k -> new ArrayList<>()).add(b.name.seq());
    }
    assertThat(seqs).as("nodes with blocks").containsOnlyKeys(BlockName.nodeId(ALPHA), BlockName.nodeId(BETA));
    seqs.forEach((node, s) -> assertThat(s).as("sequence numbers of node " + BlockName.nodeHex(node)).doesNotHaveDuplicates());
  }

  /** The bodies in each node's blocks, as a multiset, equal the markers that node acknowledged. */
  private static void assertStoredExactlyTheAcknowledged(List<Block> blocks, Map<String, List<String>> acked) throws IOException {
    for (Map.Entry<String, List<String>> e : acked.entrySet()) {
      List<String> stored = new ArrayList<>();
      for (Block b : blocks) {
        if (b.node() == BlockName.nodeId(e.getKey())) {
          for (Map<String, Object> row : ArrowTables.read(b.dir, "logs.arrow").rows()) {
            stored.add((String) row.get("body"));
          }
        }
      }
      Map<String, Integer> want = counts(e.getValue());
      Map<String, Integer> got = counts(stored);
      List<String> missing = new ArrayList<>();
      List<String> duplicated = new ArrayList<>();
      List<String> unexpected = new ArrayList<>();
      want.forEach((m, n) -> {
        if (got.getOrDefault(m, 0) < n) {
          missing.add(m);
        }
      });
      got.forEach((m, n) -> {
        if (!want.containsKey(m)) {
          unexpected.add(m);
        } else if (n > want.get(m)) {
          duplicated.add(m);
        }
      });
      assertThat(missing).as(e.getKey() + ": acknowledged but not stored").isEmpty();
      assertThat(duplicated).as(e.getKey() + ": stored more often than acknowledged").isEmpty();
      assertThat(unexpected).as(e.getKey() + ": stored in its blocks but not acknowledged by it").isEmpty();
      assertThat(stored).hasSameSizeAs(e.getValue());
    }
  }

  private static Map<String, Integer> counts(List<String> xs) {
    Map<String, Integer> m = new TreeMap<>();
    for (String x : xs) {
      m.merge(x, 1, Integer::sum);
    }
    return m;
  }
}
