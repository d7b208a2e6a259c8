package mira.cluster;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import mira.client.ResultReader;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.doc.CorrelateQuery;
import mira.query.doc.Documents;
import mira.query.doc.EntitiesQuery;
import mira.query.doc.FacetsQuery;
import mira.query.doc.MapQuery;
import mira.query.doc.SearchQuery;
import mira.query.doc.SeriesQuery;
import mira.query.doc.Searcher;
import mira.query.doc.Term;
import mira.query.render.ResponseJson;
import mira.query.render.TermJson;
import mira.query.result.AttributeList;
import mira.query.result.BusyException;
import mira.query.result.CorrelateResult;
import mira.query.result.EntityList;
import mira.query.result.FacetList;
import mira.query.result.MetricList;
import mira.query.result.QueryException;
import mira.query.result.SearchResult;
import mira.query.result.SeriesPoints;
import mira.query.result.SeriesResult;
import mira.query.result.ServiceList;
import mira.query.result.ServiceMap;
import mira.query.result.Stats;
import mira.query.result.TraceResult;

/**
 * The read operations of a replica, answered for the whole cluster. Each one asks every peer in
 * parallel over the public HTTP API — with {@link #HOP}, so a peer answers from its own data and
 * never asks further, and {@link #NOW}, so relative times mean the same instant everywhere — and
 * this node in-process, then merges the typed answers exactly (see {@link Merge}). Frames and maps
 * are built here from every node's rows, page by page, so a trace split across nodes is whole.
 *
 * <p>A peer that fails or misses the deadline ({@code cluster.timeout}) is named in the answer's
 * {@link Sources} with its error; the answer holds what the others said. One slow peer delays an
 * answer by at most the deadline. A peer is known to be this node when its answer names this node
 * (the {@link #NODE} header); from then on that address is never asked over the network.
 *
 * <p>With no peers configured every operation is this node's own, with no sources.
 *
 * <p>Thread-safe.
 */
public final class Cluster {
  /** Request header: answer from this node's data only (a peer's question). */
  public static final String HOP = "Mira-Hop";
  /** Request header: "now" in ns since the epoch, for relative times in the question. */
  public static final String NOW = "Mira-Now";
  /** Response header on every API answer: the answering node's name. */
  public static final String NODE = "Mira-Node";
  /**
   * Request header on a peer's series question: answer with the stored points the document reads,
   * before its function ({@link SeriesPoints}), so that the asking node computes the function over
   * every node's points at once.
   */
  public static final String POINTS = "Mira-Points";
  /** Request header on a peer's query question: count the matching rows only, reading none. */
  public static final String COUNT = "Mira-Count";

  /**
   * The {@code Authorization} of the request being answered, sent on to the peers: every replica
   * reads the same token files, so a caller allowed here is allowed there. Unbound: none is sent.
   */
  public static final ScopedValue<String> AUTHORIZATION = ScopedValue.newInstance();

  /**
   * A merged answer and where it came from; {@code sources} is null when there are no peers.
   * {@code timing} is where the asked node spent the answer's time (null without peers); it is not
   * part of {@code sources}, and an answer carries it only when asked ({@code Mira-Timing: 1}).
   */
  public record Answer<T>(T result, Sources sources, Sources.Timing timing) {
    public Answer(T result, Sources sources) {
      this(result, sources, null);
    }

    /** The sources with the timing in them, to write both. */
    public Sources timedSources() {
      return sources == null || timing == null ? sources
          : new Sources(sources.asked(), sources.answered(), sources.nodes(), timing);
    }
  }

  /** Request header on a client's question: add {@code "timing"} to the answer's {@code "cluster"} member. */
  public static final String TIMING = "Mira-Timing";

  private final String node;
  private final LocalQueries local;
  private final Peers peers;
  private final Duration timeout;
  private final HttpClient http;
  /** Addresses that answered with this node's name. */
  private final Set<String> self = ConcurrentHashMap.newKeySet();
  /** The node name each address last answered with. */
  private final Map<String, String> names = new ConcurrentHashMap<>();

  /** @param node this node's name (what its answers carry in {@link #NODE}) */
  public Cluster(String node, LocalQueries local, Peers peers, Duration timeout) {
    this.node = node;
    this.local = local;
    this.peers = peers;
    this.timeout = timeout;
    this.http = peers.isEmpty() ? null : HttpClient.newBuilder().connectTimeout(timeout)
        .version(HttpClient.Version.HTTP_1_1).executor(Executors.newVirtualThreadPerTaskExecutor()).build();
  }

  public String node() {
    return node;
  }

  public LocalQueries local() {
    return local;
  }

  /** Whether reads are asked of peers too. */
  public boolean fansOut() {
    return !peers.isEmpty();
  }

  // ---- the operations -------------------------------------------------------------------------

  /** {@code POST /api/v1/query}: one page of every node's rows, in the one total order. */
  public Answer<SearchResult> search(byte[] document) throws QueryException, BusyException, IOException {
    long now = local.now();
    SearchQuery q = Documents.search(document, now);
    if (!fansOut()) {
      return new Answer<>(local.search(q), null);
    }
    Tally tally = new Tally(System.nanoTime());
    SearchResult r = page(q, tally);
    return tally.answer(r);
  }

  /**
   * {@code POST /api/v1/query} as the answer's bytes: one page of every node's rows, in the one
   * total order, the same page {@link #search} gives rendered, but merged from the nodes' rendered
   * pages by position and written by copying the chosen rows ({@link RenderedPage}): no peer's row
   * is parsed into fields, and no row is rendered twice. Sources null: no peers were asked.
   */
  public Answer<byte[]> searchRendered(byte[] document) throws QueryException, BusyException, IOException {
    long started = System.nanoTime();
    long now = local.now();
    SearchQuery q = Documents.search(document, now);
    if (!fansOut()) {
      return new Answer<>(ResponseJson.search(local.search(q)), null);
    }
    Tally tally = new Tally(started);
    List<RenderedPage> parts = gather(tally, () -> RenderedPage.of(local.search(q)), "POST", "/api/v1/query",
        TermJson.search(q), now, RenderedPage::read);
    byte[] merged = RenderedPage.merge(parts, q.limit(), started);
    tally.merged();
    return tally.answer(merged);
  }

  /** {@code GET /api/v1/traces/{id}}: the trace's spans from every node. */
  public Answer<TraceResult> trace(String traceIdHex) throws QueryException, BusyException, IOException {
    if (!fansOut()) {
      return new Answer<>(local.trace(traceIdHex), null);
    }
    long started = System.nanoTime();
    Tally tally = new Tally(started);
    List<TraceResult> parts = gather(tally, () -> local.trace(traceIdHex), "GET",
        "/api/v1/traces/" + URLEncoder.encode(traceIdHex, StandardCharsets.UTF_8), null, local.now(), ResultReader::trace);
    return tally.answer(Merge.trace(parts, started));
  }

  /** {@code GET /api/v1/metrics}: the metrics any node holds in the window. */
  public Answer<MetricList> metrics(String from, String to, String q) throws QueryException, BusyException, IOException {
    long now = local.now();
    if (!fansOut()) {
      return new Answer<>(local.metrics(from, to, q, now), null);
    }
    long started = System.nanoTime();
    Tally tally = new Tally(started);
    List<MetricList> parts = gather(tally, () -> local.metrics(from, to, q, now), "GET",
        "/api/v1/metrics" + query("from", from, "to", to, "q", q), null, now, ResultReader::metrics);
    return tally.answer(Merge.metrics(parts, started));
  }

  /** {@code POST /api/v1/series}: every node's series, merged by identity. */
  public Answer<SeriesResult> series(byte[] document) throws QueryException, BusyException, IOException {
    return series(Documents.series(document, local.now()));
  }

  /**
   * A parsed series query over every node's points. Raw points: each node's capped series, united
   * by identity (a node's newest {@code max_points} hold every point of the union's newest). With a
   * function: each node's stored points before the function, which runs here once over their
   * union, so a series whose points are spread over nodes (a load balancer sending each export
   * elsewhere) has its increases, buckets and last values taken as if one node held it.
   */
  public Answer<SeriesResult> series(SeriesQuery q) throws QueryException, BusyException, IOException {
    if (!fansOut()) {
      return new Answer<>(local.series(q), null);
    }
    long started = System.nanoTime();
    Tally tally = new Tally(started);
    byte[] document = TermJson.series(q);
    if (q.fn() == null) {
      List<SeriesResult> parts = gather(tally, () -> local.series(q), "POST", "/api/v1/series", document, local.now(),
          ResultReader::series);
      return tally.answer(Merge.series(parts, q, started));
    }
    List<SeriesPoints> parts = gather(tally, () -> local.seriesPoints(q), "POST", "/api/v1/series", document,
        local.now(), ResultReader::seriesPoints, POINTS);
    Stats gathered = Merge.stats(parts.stream().map(SeriesPoints::stats).toList(), started);
    SeriesResult r = local.series(q, parts, gathered);
    Stats stats = new Stats(gathered.blocksTotal(), gathered.blocksPruned(), gathered.blocksScanned(),
        gathered.rowsScanned(), gathered.rowsMatched(), millis(System.nanoTime() - started));
    return tally.answer(new SeriesResult(r.series(), r.droppedSeries(), stats, r.refused()));
  }

  /**
   * The rows of {@code signal} in {@code [from, to]} passing {@code where}, counted on every node
   * without reading a row: {@code stats().rowsMatched()} of the answer (an alert rule's count).
   */
  public Answer<SearchResult> count(Signal signal, long from, long to, List<Term> where)
      throws BusyException, IOException {
    if (!fansOut()) {
      return new Answer<>(local.count(signal, from, to, where), null);
    }
    long started = System.nanoTime();
    Tally tally = new Tally(started);
    byte[] document = TermJson.search(new SearchQuery(signal, from, to, where, 1, null));
    List<SearchResult> parts;
    try {
      parts = gather(tally, () -> local.count(signal, from, to, where), "POST", "/api/v1/query", document, local.now(),
          ResultReader::search, COUNT);
    } catch (QueryException e) {
      throw new IllegalStateException("a count was refused", e);
    }
    return tally.answer(Merge.search(parts, 0, started));
  }

  /**
   * {@code POST /api/v1/facets}: every node's values of the keys, counts summed per value, then
   * the top ones listed. Peers are asked for every value (not the document's limit), so the listed
   * values, their counts, {@code distinct} and {@code other} are what one node holding every record
   * would answer.
   */
  public Answer<FacetList> facets(byte[] document) throws QueryException, BusyException, IOException {
    long now = local.now();
    if (!fansOut()) {
      return new Answer<>(local.facets(document, now, false), null);
    }
    FacetsQuery q = Documents.facets(document, now);
    long started = System.nanoTime();
    Tally tally = new Tally(started);
    List<FacetList> parts = gather(tally, () -> local.facets(document, now, true), "POST", "/api/v1/facets", document,
        now, ResultReader::facets);
    return tally.answer(Merge.facets(parts, q.keys(), q.limit(), started));
  }

  /** {@code POST /api/v1/entities}: every node's entities, each counted once. */
  public Answer<EntityList> entities(byte[] document) throws QueryException, BusyException, IOException {
    long now = local.now();
    EntitiesQuery q = Documents.entities(document, now);
    if (!fansOut()) {
      return new Answer<>(local.entities(document, now, false), null);
    }
    long started = System.nanoTime();
    Tally tally = new Tally(started);
    List<EntityList> parts = gather(tally, () -> local.entities(document, now, true), "POST", "/api/v1/entities",
        document, now, ResultReader::entities);
    return tally.answer(Merge.entities(parts, q.limit(), started));
  }

  /** {@code GET /api/v1/services}: every node's services, entities counted once. */
  public Answer<ServiceList> services(String from, String to) throws QueryException, BusyException, IOException {
    long now = local.now();
    if (!fansOut()) {
      return new Answer<>(local.services(from, to, now), null);
    }
    long started = System.nanoTime();
    Tally tally = new Tally(started);
    List<ServiceList> parts = gather(tally, () -> local.services(from, to, now), "GET",
        "/api/v1/services" + query("from", from, "to", to, "q", null), null, now, ResultReader::services);
    return tally.answer(Merge.services(parts, started));
  }

  /** {@code GET /api/v1/attributes}: every node's keys, their counts summed. */
  public Answer<AttributeList> attributes(String signal, String from, String to)
      throws QueryException, BusyException, IOException {
    long now = local.now();
    if (!fansOut()) {
      return new Answer<>(local.attributes(signal, from, to, now), null);
    }
    long started = System.nanoTime();
    Tally tally = new Tally(started);
    List<AttributeList> parts = gather(tally, () -> local.attributes(signal, from, to, now), "GET",
        "/api/v1/attributes" + query("signal", signal, "from", from, "to", to), null, now, ResultReader::attributes);
    return tally.answer(Merge.attributes(parts, started));
  }

  /** {@code POST /api/v1/correlate}: the frame built from every node's rows. */
  public Answer<CorrelateResult> correlate(byte[] document) throws QueryException, BusyException, IOException {
    long now = local.now();
    if (!fansOut()) {
      return new Answer<>(local.correlate(document, now), null);
    }
    CorrelateQuery q = Documents.correlate(document, now);
    Tally tally = new Tally(System.nanoTime());
    CorrelateResult r = local.correlate(q, searcher(tally));
    return tally.answer(r);
  }

  /** {@code POST /api/v1/map}: the map of every node's spans. */
  public Answer<ServiceMap> map(byte[] document) throws QueryException, BusyException, IOException {
    long now = local.now();
    if (!fansOut()) {
      return new Answer<>(local.map(document, now), null);
    }
    MapQuery q = Documents.map(document, now);
    Tally tally = new Tally(System.nanoTime());
    ServiceMap r = local.map(q, searcher(tally));
    return tally.answer(r);
  }

  /** Pages read for a frame or a map, each across the cluster, their sources tallied together. */
  private Searcher searcher(Tally tally) {
    return q -> {
      try {
        return page(q, tally);
      } catch (QueryException | BusyException e) {
        throw new IOException(e.getMessage(), e);
      }
    };
  }

  private SearchResult page(SearchQuery q, Tally tally) throws QueryException, BusyException, IOException {
    long started = System.nanoTime();
    List<SearchResult> parts = gather(tally, () -> local.search(q), "POST", "/api/v1/query", TermJson.search(q),
        local.now(), ResultReader::search);
    return Merge.search(parts, q.limit(), started);
  }

  // ---- asking ---------------------------------------------------------------------------------

  @FunctionalInterface
  private interface Local<T> {
    T run() throws QueryException, BusyException, IOException;
  }

  @FunctionalInterface
  private interface Parse<T> {
    T parse(byte[] body) throws IOException;
  }

  /**
   * A peer's answer: its status and node, and the typed answer read from a 200 (on the HTTP
   * client's threads, as it arrives, so several peers' answers are read in parallel) or why it
   * could not be; {@code done} is when it was read ({@link System#nanoTime}).
   */
  private record Reply<T>(int status, String node, byte[] body, T parsed, String unreadable, long headers, long received,
      long done) {}

  /**
   * Asks every peer (not known to be this node) and this node, and returns the answers of those
   * that gave one, this node's first; the rest are in {@code tally} with their errors. This node's
   * own refusal (a bad document, no query slot) is the caller's: it would be every node's.
   */
  private <T> List<T> gather(Tally tally, Local<T> mine, String method, String path, byte[] body, long now,
      Parse<T> parse, String... flags) throws QueryException, BusyException, IOException {
    long started = System.nanoTime();
    long deadline = started + timeout.toNanos();
    tally.round(started);
    Map<String, CompletableFuture<Reply<T>>> asked = new LinkedHashMap<>();
    for (String address : peers.addresses()) {
      if (!self.contains(address)) {
        asked.put(address, ask(address, method, path, body, now, parse, flags));
      }
    }
    tally.asked();
    List<T> out = new ArrayList<>();
    out.add(mine.run());
    tally.local();
    tally.add(new Sources.Node(node, "local", true, micros(System.nanoTime() - started), null));
    for (String err : peers.errors()) {
      tally.add(new Sources.Node(null, err.substring(0, err.indexOf(": ")), false, 0, err.substring(err.indexOf(": ") + 2)));
    }
    for (Map.Entry<String, CompletableFuture<Reply<T>>> e : asked.entrySet()) {
      String address = e.getKey();
      Reply<T> reply;
      String error = null;
      try {
        reply = e.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException x) {
        e.getValue().cancel(true);
        reply = null;
        error = "timeout after " + spell(timeout);
      } catch (ExecutionException x) {
        reply = null;
        error = describe(x.getCause());
      } catch (InterruptedException x) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for peers");
      }
      // When this peer's part was in hand, not when this loop came to it after the others.
      long took = micros((reply != null ? reply.done() : System.nanoTime()) - started);
      if (reply != null) {
        tally.peer(address, reply);
      }
      String peerNode = reply == null ? names.get(address) : reply.node();
      if (reply != null && reply.node() != null) {
        names.put(address, reply.node());
        if (reply.node().equals(node)) {
          self.add(address); // this node, reached over the network: its part is already in
          continue;
        }
      }
      if (reply != null && reply.status() != 200) {
        String said = ResultReader.error(reply.body());
        error = "HTTP " + reply.status() + (said == null ? "" : ": " + said);
      } else if (reply != null && reply.unreadable() != null) {
        error = "unreadable answer: " + reply.unreadable();
      } else if (reply != null) {
        out.add(reply.parsed());
      }
      tally.add(new Sources.Node(peerNode, address, error == null, took, error));
    }
    tally.gathered();
    return out;
  }

  /** Asks one peer; each of {@code flags} is sent as a header with value 1 ({@link #POINTS}, {@link #COUNT}). */
  private <T> CompletableFuture<Reply<T>> ask(String address, String method, String path, byte[] body, long now,
      Parse<T> parse, String... flags) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + address + path)).timeout(timeout)
        .header("Accept", "application/json").header(HOP, "1").header(NOW, Long.toString(now));
    for (String f : flags) {
      b.header(f, "1");
    }
    if (AUTHORIZATION.isBound()) {
      b.header("Authorization", AUTHORIZATION.get());
    }
    if (method.equals("POST")) {
      b.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body));
    } else {
      b.GET();
    }
    // When the status line and headers were in (the handler is asked for a subscriber then), and
    // when the last byte was (the body is complete): where a peer's part spends its time.
    long[] marks = new long[2];
    HttpResponse.BodyHandler<byte[]> timed = info -> {
      marks[0] = System.nanoTime();
      return HttpResponse.BodySubscribers.mapping(HttpResponse.BodySubscribers.ofByteArray(), bytes -> {
        marks[1] = System.nanoTime();
        return bytes;
      });
    };
    return http.sendAsync(b.build(), timed)
        .thenApply(r -> {
          String node = r.headers().firstValue(NODE).orElse(null);
          if (r.statusCode() != 200 || this.node.equals(node)) {
            return new Reply<T>(r.statusCode(), node, r.body(), null, null, marks[0], marks[1], System.nanoTime());
          }
          try {
            T parsed = parse.parse(r.body());
            return new Reply<>(200, node, r.body(), parsed, null, marks[0], marks[1], System.nanoTime());
          } catch (IOException | RuntimeException x) {
            return new Reply<T>(200, node, r.body(), null, String.valueOf(x.getMessage()), marks[0], marks[1],
                System.nanoTime());
          }
        });
  }

  private String describe(Throwable t) {
    if (t instanceof HttpTimeoutException) {
      return "timeout after " + spell(timeout);
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof ConnectException) {
        return "connection refused";
      }
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }

  static String spell(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }

  private static long millis(long nanos) {
    return nanos / 1_000_000;
  }

  private static long micros(long nanos) {
    return nanos / 1_000;
  }

  private static String query(String... kv) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < kv.length; i += 2) {
      if (kv[i + 1] != null) {
        out.append(out.isEmpty() ? '?' : '&').append(kv[i]).append('=')
            .append(URLEncoder.encode(kv[i + 1], StandardCharsets.UTF_8));
      }
    }
    return out.toString();
  }

  /**
   * The nodes of one answer, which may take several rounds (a frame reads page after page): a node
   * is ok if every round it was asked in went well; its time is the sum; its error the first. Also
   * where the last round's time went ({@link Sources.Timing}), in µs from {@code origin}, when the
   * answer's document was in hand. Guarded by its own lock (a frame's rounds may run on other threads).
   */
  private static final class Tally {
    private final Map<String, Sources.Node> nodes = new LinkedHashMap<>();
    private final long origin;
    private final Map<String, Sources.PeerTiming> peerTimes = new LinkedHashMap<>();
    private long parsed;
    private long asked;
    private long local;
    private long gathered;
    private long merged = -1;

    Tally(long origin) {
      this.origin = origin;
    }

    synchronized void add(Sources.Node n) {
      Sources.Node was = nodes.get(n.address());
      if (was == null) {
        nodes.put(n.address(), n);
      } else {
        nodes.put(n.address(), new Sources.Node(was.node() != null ? was.node() : n.node(), n.address(),
            was.ok() && n.ok(), was.tookUs() + n.tookUs(), was.error() != null ? was.error() : n.error()));
      }
    }

    /** A round of questions begins: what came before it was reading the document. */
    synchronized void round(long started) {
      parsed = since(started);
      peerTimes.clear();
    }

    synchronized void asked() {
      asked = since(System.nanoTime());
    }

    synchronized void local() {
      local = since(System.nanoTime());
    }

    synchronized void peer(String address, Reply<?> r) {
      peerTimes.put(address, new Sources.PeerTiming(address, since(r.headers()), since(r.received()), since(r.done())));
    }

    synchronized void gathered() {
      gathered = since(System.nanoTime());
    }

    /** The merged answer is made (if not marked, when the sources are taken). */
    synchronized void merged() {
      merged = since(System.nanoTime());
    }

    private long since(long nanos) {
      return nanos == 0 ? 0 : (nanos - origin) / 1_000;
    }

    /** The answer with these sources and the timing, marking it merged now if it was not. */
    synchronized <T> Answer<T> answer(T result) {
      if (merged < 0) {
        merged();
      }
      return new Answer<>(result, sources(), new Sources.Timing(parsed, asked, local, gathered, merged,
          new ArrayList<>(peerTimes.values())));
    }

    synchronized Sources sources() {
      int answered = 0;
      for (Sources.Node n : nodes.values()) {
        if (n.ok()) {
          answered++;
        }
      }
      return new Sources(nodes.size(), answered, new ArrayList<>(nodes.values()));
    }
  }
}
