package mira.bench.peer;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import mira.bench.FullBlock;
import mira.block.publish.Publisher;
import mira.client.MiraClient;
import mira.client.ResultReader;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.doc.Documents;
import mira.query.render.ResponseJson;
import mira.query.result.SearchResult;
import mira.query.result.TraceResult;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
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
 * What an answer costs between the engine and a user's program: rendering rows to the response
 * body, reading them back, and an empty answer's whole trip through a real server. The data
 * directory holds one full (32 MiB) logs block and one traces block of the load generator's
 * telemetry, published once per trial.
 *
 * <ul>
 *   <li>{@code render100Logs}: the newest 100 log rows (as the engine returns them) to the bytes
 *       of {@code POST /api/v1/query}'s answer ({@link ResponseJson#search}).
 *   <li>{@code parse100Logs}: those bytes back to typed rows ({@link ResultReader#search}), what
 *       {@link MiraClient} does with every answer.
 *   <li>{@code emptyInProcess}: an ordered comparison nothing passes (spans with
 *       {@code http.response.status_code >= 600}), parsed, run and rendered in-process.
 *   <li>{@code emptyOverHttp}: the same document through the image's server
 *       ({@code MIRA_IMAGE=target/mira}, started on a copy of the directory) with {@link MiraClient}
 *       on a kept-alive HTTP/1.1 connection, to the parsed answer. The difference with
 *       {@code emptyInProcess} is the route's cost over the engine. Without {@code MIRA_IMAGE} it
 *       fails, naming the variable.
 *   <li>{@code readyOverHttp}: {@code GET /readyz} on that connection, the floor under any answer:
 *       the client, the loopback and the listener, with no API route, engine or JSON.
 *   <li>{@code absentTraceOverHttp} and {@code absentTraceInProcess}: a trace no block holds,
 *       an empty answer asked by {@code GET} (no request body to wait for).
 *   <li>{@code emptyOverHttpDirect}: {@code emptyOverHttp} on a JDK client whose executor is the
 *       calling thread, one hand-off fewer.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(1)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class AnswerBench {
  static final byte[] EMPTY = ("{\"signal\": \"traces\", \"from\": \"0\", \"to\": \"now\", \"limit\": 100, "
      + "\"where\": [{\"attr\": \"http.response.status_code\", \"gte\": 600}]}").getBytes(StandardCharsets.UTF_8);
  static final String ABSENT_TRACE = "0123456789abcdef0123456789abcdef";
  static final byte[] LAST_100 = "{\"signal\": \"logs\", \"from\": \"0\", \"to\": \"now\", \"limit\": 100}"
      .getBytes(StandardCharsets.UTF_8);

  private Path data;
  private LocalQueries queries;
  private SearchResult logs100;
  private byte[] logs100Body;
  private ImageServer server;
  private MiraClient client;
  private HttpClient direct;
  private URI emptyUri;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    data = Files.createTempDirectory("mira-bench-answer");
    // Ten minutes ago: a served copy neither expires the blocks (retention) nor compacts them (an hour).
    long start = System.currentTimeMillis() * 1_000_000L - 600_000_000_000L;
    try (BufferAllocator a = new RootAllocator()) {
      for (Signal s : new Signal[] {Signal.LOGS, Signal.TRACES}) {
        new Publisher(data, s, "bench", a).publish(FullBlock.build(s, 1, 0, start, FullBlock.SEAL_BYTES), 0, 0);
      }
    }
    queries = LocalQueries.open(data);
    logs100 = queries.search(Documents.search(LAST_100, queries.now()));
    logs100Body = ResponseJson.search(logs100);
    if (logs100.rows().size() != 100 || queries.search(Documents.search(EMPTY, queries.now())).rows().size() != 0) {
      throw new IllegalStateException("the corpus does not give 100 logs and an empty ordered answer");
    }
    System.out.printf("%n100 log rows render to %,d bytes%n", logs100Body.length);
    String image = System.getenv("MIRA_IMAGE");
    if (image != null && !image.isEmpty()) {
      server = ImageServer.start(Path.of(image).toAbsolutePath().normalize(), data);
      client = MiraClient.of(server.http());
      direct = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(Runnable::run).build();
      emptyUri = URI.create("http://" + server.http() + "/api/v1/query");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    if (server != null) {
      server.close();
    }
    queries.close();
    PeerCompare.deleteTree(data);
  }

  @Benchmark
  public byte[] render100Logs() {
    return ResponseJson.search(logs100);
  }

  @Benchmark
  public SearchResult parse100Logs() throws Exception {
    return ResultReader.search(logs100Body);
  }

  @Benchmark
  public byte[] emptyInProcess() throws Exception {
    return ResponseJson.search(queries.search(Documents.search(EMPTY, queries.now())));
  }

  /** {@code GET /readyz} on the same connection: the transport and the listener, no route of the API. */
  @Benchmark
  public byte[] readyOverHttp() throws Exception {
    if (client == null) {
      throw new IllegalStateException("set MIRA_IMAGE to the image directory (target/mira) to measure over HTTP");
    }
    return client.get("/readyz");
  }

  /**
   * {@code ordered_empty} again, on a JDK client whose executor is the calling thread: the same
   * request and parse as {@link #emptyOverHttp} with one hand-off between threads fewer on the
   * client side.
   */
  @Benchmark
  public SearchResult emptyOverHttpDirect() throws Exception {
    if (direct == null) {
      throw new IllegalStateException("set MIRA_IMAGE to the image directory (target/mira) to measure over HTTP");
    }
    HttpResponse<byte[]> res = direct.send(HttpRequest.newBuilder(emptyUri).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(EMPTY)).build(), HttpResponse.BodyHandlers.ofByteArray());
    return ResultReader.search(res.body());
  }

  /** A trace no block holds, by {@code GET}: an empty answer whose request has no body. */
  @Benchmark
  public TraceResult absentTraceOverHttp() throws Exception {
    if (client == null) {
      throw new IllegalStateException("set MIRA_IMAGE to the image directory (target/mira) to measure over HTTP");
    }
    return client.trace(ABSENT_TRACE);
  }

  @Benchmark
  public byte[] absentTraceInProcess() throws Exception {
    return ResponseJson.trace(queries.trace(ABSENT_TRACE));
  }

  /**
   * A pause of {@link #PAUSE_MS} before each call, outside the timing: what a call costs when the
   * threads it passes through have gone idle, as between the rounds of the peer comparison.
   */
  @State(Scope.Thread)
  public static class Pause {
    @Setup(Level.Invocation)
    public void pause() throws InterruptedException {
      Thread.sleep(PAUSE_MS);
    }
  }

  static final int PAUSE_MS = 50;

  @Benchmark
  public SearchResult emptyOverHttpAfterPause(Pause p) throws Exception {
    return emptyOverHttp();
  }

  @Benchmark
  public byte[] emptyInProcessAfterPause(Pause p) throws Exception {
    return emptyInProcess();
  }

  @Benchmark
  public TraceResult absentTraceOverHttpAfterPause(Pause p) throws Exception {
    return absentTraceOverHttp();
  }

  @Benchmark
  public byte[] readyOverHttpAfterPause(Pause p) throws Exception {
    return readyOverHttp();
  }

  @Benchmark
  public SearchResult emptyOverHttp() throws Exception {
    if (client == null) {
      throw new IllegalStateException("set MIRA_IMAGE to the image directory (target/mira) to measure over HTTP");
    }
    return client.search(EMPTY);
  }
}
