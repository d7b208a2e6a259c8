package mira.query;

import mira.query.result.MetricList;
import mira.query.result.SeriesPoints;
import mira.query.result.SeriesResult;
import mira.query.result.Stats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.List;
import java.util.function.LongSupplier;
import mira.block.read.OpenBlocks;
import mira.query.doc.Documents;
import mira.query.doc.CorrelateQuery;
import mira.query.doc.EntitiesQuery;
import mira.query.doc.MapQuery;
import mira.query.doc.FacetsQuery;
import mira.query.scan.AttributeCensus;
import mira.query.result.AttributeList;
import mira.query.result.FacetList;
import mira.query.frame.ServiceMaps;
import mira.query.result.ServiceMap;
import mira.query.frame.Correlate;
import mira.query.result.CorrelateResult;
import mira.query.frame.Census;
import mira.query.frame.Listings;
import mira.query.result.EntityList;
import mira.query.result.ServiceList;
import mira.query.doc.SearchQuery;
import mira.query.doc.Searcher;
import mira.query.doc.Term;
import mira.proto.wire.Signal;
import mira.query.doc.SeriesQuery;
import mira.query.doc.Window;
import mira.query.prune.Pruning;
import mira.query.prune.SidecarCache;
import mira.query.scan.Admission;
import mira.query.scan.Engine;
import mira.query.scan.ScanThreads;
import mira.query.scan.OpenBlockCache;
import mira.query.scan.Search;
import mira.query.scan.TraceLookup;
import mira.query.series.MetricNames;
import mira.query.series.SeriesPartials;
import mira.query.series.SeriesScan;
import mira.query.result.BusyException;
import mira.query.result.QueryException;
import mira.query.result.SearchResult;
import mira.query.result.TraceResult;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Mira's read API over a data directory, in-process: the operations behind
 * {@code POST /api/v1/query}, {@code GET /api/v1/traces/{id}}, {@code GET /api/v1/metrics} and
 * {@code POST /api/v1/series}, with no server. The HTTP routes are thin wrappers over this class,
 * so an answer read from a directory is the answer a server would give.
 *
 * <p>Read-only: nothing here writes to the directory, and blocks are immutable once published, so
 * any number of readers (in this or other processes) may share a directory with a writing server.
 *
 * <p>Blocks are pruned by their sidecar indexes before they are opened; each index is read once and
 * kept in a {@link SidecarCache} owned by this instance (an eighth of the heap at most, 256 MiB by
 * default). Blocks that are read stay open (mapped and verified) between queries, up to
 * {@link OpenBlockCache#DEFAULT_MAX_OPEN} of them for {@link OpenBlockCache#DEFAULT_IDLE} without use. So a
 * process should open a data directory once and share the instance.
 *
 * <p>One daemon thread ({@code mira-query-housekeeping}) closes blocks left idle, removed or
 * compacted (every 15 s), with the map pieces and census times of blocks removed or replaced, and drops
 * cached sidecars of blocks retention removed (every minute).
 *
 * <p>Thread-safe. Queries are bounded process-wide ({@link Admission}): past one per core, a query
 * waits up to {@link Admission#WAIT} and then fails with {@link BusyException}. Close to stop the
 * housekeeping and release the Arrow allocator (a query still running fails).
 */
public final class LocalQueries implements AutoCloseable {
  private final Path dataDir;
  private final BufferAllocator allocator;
  private final OpenBlockCache readers;
  private final Engine engine;
  private final Admission admission;
  private final LongSupplier clock;
  private final java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
  private final ScheduledExecutorService housekeeping;
  private volatile boolean closed;

  private static final System.Logger LOG = System.getLogger(LocalQueries.class.getName());
  /** How often idle, removed and compacted blocks are closed. */
  static final Duration SWEEP_READERS = Duration.ofSeconds(15);
  /** How often the sidecar cache is reconciled with the whole catalogue. */
  static final Duration SWEEP_SIDECARS = Duration.ofMinutes(1);

  LocalQueries(Path dataDir, Pruning pruning, ScanThreads fanOut, Admission admission, LongSupplier clock,
      OpenBlocks openBlocks) {
    this.dataDir = dataDir;
    this.allocator = new RootAllocator();
    this.readers = new OpenBlockCache(allocator, OpenBlockCache.DEFAULT_MAX_OPEN, OpenBlockCache.DEFAULT_IDLE);
    this.engine = new Engine(dataDir, allocator, pruning, fanOut, openBlocks, readers);
    this.admission = admission;
    this.clock = clock;
    ScheduledThreadPoolExecutor h = new ScheduledThreadPoolExecutor(1,
        r -> Thread.ofPlatform().daemon().name("mira-query-housekeeping").unstarted(r));
    h.scheduleWithFixedDelay(() -> housekeep("closing idle blocks", () -> {
      readers.sweep();
      ServiceMaps.sweep();
      Census.sweep();
      SeriesPartials.sweep();
    }),
        SWEEP_READERS.toNanos(), SWEEP_READERS.toNanos(), TimeUnit.NANOSECONDS);
    h.scheduleWithFixedDelay(() -> housekeep("reconciling the sidecar cache", () -> pruning.sweep(dataDir)),
        SWEEP_SIDECARS.toNanos(), SWEEP_SIDECARS.toNanos(), TimeUnit.NANOSECONDS);
    this.housekeeping = h;
  }

  /** A housekeeping step; a failure is logged and the step runs again next time. */
  private static void housekeep(String what, Step step) {
    try {
      step.run();
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, what + " failed: " + e);
    }
  }

  @FunctionalInterface
  private interface Step {
    void run() throws IOException;
  }

  /**
   * Opens the data directory {@code dataDir} (the one a server was started with), reading "now"
   * from the system clock.
   *
   * @throws IOException if it does not exist or is not a directory
   */
  public static LocalQueries open(Path dataDir) throws IOException {
    return open(dataDir, LocalQueries::systemNanos);
  }

  /** As {@link #open(Path)}, also reading the blocks still being filled (see below). */
  public static LocalQueries open(Path dataDir, OpenBlocks openBlocks) throws IOException {
    return open(dataDir, LocalQueries::systemNanos, openBlocks);
  }

  /**
   * As {@link #open(Path)}, with {@code clock} giving "now" in ns since the epoch (relative times
   * and the default window resolve against it).
   */
  public static LocalQueries open(Path dataDir, LongSupplier clock) throws IOException {
    return open(dataDir, clock, OpenBlocks.NONE);
  }

  /**
   * As {@link #open(Path, LongSupplier)}, also reading the blocks still being filled, from
   * {@code openBlocks} (a running node's pipeline): an export acknowledged before a query is in its
   * answer, with the write-ahead log on or off.
   */
  public static LocalQueries open(Path dataDir, LongSupplier clock, OpenBlocks openBlocks) throws IOException {
    Path dir = dataDir.toAbsolutePath().normalize();
    if (!Files.isDirectory(dir)) {
      throw Files.exists(dir) ? new NotDirectoryException(dir.toString())
          : new java.nio.file.NoSuchFileException(dir.toString(), null, "no such data directory");
    }
    return new LocalQueries(dir, Pruning.withSidecars(SidecarCache.forThisHeap()), ScanThreads.shared(), Admission.shared(),
        clock, openBlocks);
  }

  /** As {@link #open(Path, LongSupplier)}, pruning by {@code pruning} (tests compare it on and off). */
  static LocalQueries open(Path dataDir, LongSupplier clock, Pruning pruning) {
    return new LocalQueries(dataDir.toAbsolutePath().normalize(), pruning, ScanThreads.shared(), Admission.shared(), clock,
        OpenBlocks.NONE);
  }

  public Path dataDir() {
    return dataDir;
  }

  /** "Now" as this instance resolves it, ns since the epoch. */
  public long now() {
    return clock.getAsLong();
  }

  /**
   * Runs a parsed search.
   *
   * @throws BusyException if no query slot freed up in time
   * @throws IOException if the data directory cannot be listed (a damaged block is not an
   *     error: it is listed in {@link SearchResult#refused()})
   */
  public SearchResult search(SearchQuery q) throws BusyException, IOException {
    try {
      return call(() -> Search.run(engine, q));
    } catch (QueryException e) {
      throw new IllegalStateException("a parsed query was refused", e);
    }
  }

  /**
   * Counts the rows of {@code signal} in [from, to] that satisfy every term, exactly and without
   * reading any row (the count is {@code stats().rowsMatched()}; damaged blocks are in
   * {@code refused()}). For alert rules: there is no HTTP form, since a caller of the API asking
   * for zero rows has almost certainly made a mistake.
   */
  public SearchResult count(Signal signal, long from, long to, List<Term> where)
      throws BusyException, IOException {
    try {
      return call(() -> Search.count(engine, signal, from, to, where));
    } catch (QueryException e) {
      throw new IllegalStateException("a count was refused", e);
    }
  }

  /**
   * Parses and runs a query document ({@code POST /api/v1/query}).
   *
   * @throws QueryException if the document is not valid (the message says why)
   */
  public SearchResult search(byte[] document) throws QueryException, BusyException, IOException {
    return search(document, now());
  }

  /**
   * Parses and runs a query document with relative times resolved against {@code now} (ns): how a
   * replica answers a peer, so that every node reads the same window.
   */
  public SearchResult search(byte[] document, long now) throws QueryException, BusyException, IOException {
    return search(Documents.search(document, now));
  }

  /**
   * Every span of the trace {@code traceIdHex} (32 hex digits, any case) across all of
   * retention, sorted by start time.
   *
   * @throws QueryException if the id is malformed, or the trace has more spans than one answer holds
   */
  public TraceResult trace(String traceIdHex) throws QueryException, BusyException, IOException {
    return call(() -> TraceLookup.run(engine, traceIdHex));
  }

  /**
   * The metrics with a data point in the window, with type, unit and description. {@code from}
   * and {@code to} are time strings (null: the last hour).
   */
  public MetricList metrics(String from, String to) throws QueryException, BusyException, IOException {
    return metrics(from, to, null);
  }

  /**
   * The metrics with a data point in the window passing filter text {@code q} (null: every
   * metric), with type, unit, description, temporality, monotonicity, the point attribute keys
   * and histogram bounds seen.
   *
   * @throws QueryException if a time or the filter text does not parse, or the text holds a term
   *     series do not take (a root field, a text search)
   */
  public MetricList metrics(String from, String to, String q) throws QueryException, BusyException, IOException {
    return metrics(from, to, q, now());
  }

  /** {@link #metrics(String, String, String)} with relative times resolved against {@code now}. */
  public MetricList metrics(String from, String to, String q, long now)
      throws QueryException, BusyException, IOException {
    Window w = Documents.window(from, to, now);
    List<Term> terms = Documents.seriesTerms(q);
    return call(() -> MetricNames.run(engine, w, terms));
  }

  /**
   * Runs a parsed series query.
   *
   * @throws QueryException if its function has no meaning for a metric it reads (rate of a gauge)
   */
  public SeriesResult series(SeriesQuery q) throws QueryException, BusyException, IOException {
    return call(() -> SeriesScan.run(engine, q));
  }

  /**
   * The stored points {@code q} reads on this node, before its function ({@link SeriesPoints}): how
   * a replica answers a peer that computes a function over every node's points.
   */
  public SeriesPoints seriesPoints(SeriesQuery q) throws BusyException, IOException {
    try {
      return call(() -> SeriesScan.points(engine, q));
    } catch (QueryException e) {
      throw new IllegalStateException("gathering points was refused", e);
    }
  }

  /**
   * The answer of {@code q} over several nodes' stored points (this node's among them), with
   * {@code stats} as the cost of the whole; the function runs here, once, over their union.
   *
   * @throws QueryException if the function has no meaning for a series read (rate of a gauge)
   */
  public SeriesResult series(SeriesQuery q, List<SeriesPoints> parts, Stats stats) throws QueryException {
    return SeriesScan.over(q, parts, stats);
  }

  /** Parses and runs a series document ({@code POST /api/v1/series}). */
  public SeriesResult series(byte[] document) throws QueryException, BusyException, IOException {
    return series(document, now());
  }

  /** {@link #series(byte[])} with relative times resolved against {@code now}. */
  public SeriesResult series(byte[] document, long now) throws QueryException, BusyException, IOException {
    return series(Documents.series(document, now));
  }

  /**
   * The entities with records in a window ({@code POST /api/v1/entities}).
   *
   * @throws QueryException if the document is not valid
   */
  public EntityList entities(byte[] document) throws QueryException, BusyException, IOException {
    return entities(document, now(), false);
  }

  /**
   * {@link #entities(byte[])} with relative times resolved against {@code now}; with {@code whole},
   * every entity regardless of the document's limit (a replica merging several nodes' lists cuts
   * after the union, so that {@code total} counts each entity once).
   */
  public EntityList entities(byte[] document, long now, boolean whole)
      throws QueryException, BusyException, IOException {
    EntitiesQuery q = Documents.entities(document, now);
    return call(() -> Listings.entities(Census.run(engine, q.from(), q.to(), q.where()),
        whole ? Integer.MAX_VALUE : q.limit()));
  }

  /** Every service.name with records in a window ({@code GET /api/v1/services}); null times: the last hour. */
  public ServiceList services(String from, String to) throws QueryException, BusyException, IOException {
    return services(from, to, now());
  }

  /** {@link #services(String, String)} with relative times resolved against {@code now}. */
  public ServiceList services(String from, String to, long now) throws QueryException, BusyException, IOException {
    Window w = Documents.window(from, to, now);
    return call(() -> Listings.services(Census.run(engine, w.from(), w.to(), List.of())));
  }

  /**
   * A correlation frame from an anchor or an earlier frame ({@code POST /api/v1/correlate}).
   *
   * @throws QueryException if the document is not valid, the anchor matches nothing, or an
   *     expansion needs the entity of a resource without identity
   */
  public CorrelateResult correlate(byte[] document) throws QueryException, BusyException, IOException {
    return correlate(document, now());
  }

  /** {@link #correlate(byte[])} with relative times resolved against {@code now}. */
  public CorrelateResult correlate(byte[] document, long now) throws QueryException, BusyException, IOException {
    CorrelateQuery q = Documents.correlate(document, now);
    return call(() -> Correlate.run(engine, q));
  }

  /** The service map of a window ({@code POST /api/v1/map}). */
  public ServiceMap map(byte[] document) throws QueryException, BusyException, IOException {
    return map(document, now());
  }

  /** {@link #map(byte[])} with relative times resolved against {@code now}. */
  public ServiceMap map(byte[] document, long now) throws QueryException, BusyException, IOException {
    MapQuery q = Documents.map(document, now);
    return call(() -> ServiceMaps.run(engine, q));
  }

  /**
   * A correlation frame built from the rows {@code searcher} finds: how a replica with peers builds
   * one over every node's rows (each of its searches is admitted on its own).
   */
  public CorrelateResult correlate(CorrelateQuery q, Searcher searcher) throws QueryException, IOException {
    return Correlate.run(searcher, q);
  }

  /** The service map of the spans {@code searcher} finds (a replica with peers: every node's). */
  public ServiceMap map(MapQuery q, Searcher searcher) throws IOException {
    return ServiceMaps.run(searcher, q);
  }

  /**
   * The attribute keys on the records of {@code signal} ("logs" or "traces") in a window, with
   * their level, types and counts ({@code GET /api/v1/attributes}); null times: the last hour.
   *
   * @throws QueryException if the signal or a time is not valid
   */
  public AttributeList attributes(String signal, String from, String to)
      throws QueryException, BusyException, IOException {
    return attributes(signal, from, to, now());
  }

  /** {@link #attributes(String, String, String)} with relative times resolved against {@code now}. */
  public AttributeList attributes(String signal, String from, String to, long now)
      throws QueryException, BusyException, IOException {
    Signal s = Documents.recordSignal(signal);
    Window w = Documents.window(from, to, now);
    return call(() -> AttributeCensus.keys(engine, s, w.from(), w.to()));
  }

  /**
   * The most frequent values of chosen attribute keys among the records a document selects, with
   * exact counts ({@code POST /api/v1/facets}).
   *
   * @throws QueryException if the document is not valid
   */
  public FacetList facets(byte[] document) throws QueryException, BusyException, IOException {
    return facets(document, now(), false);
  }

  /**
   * {@link #facets(byte[])} with relative times resolved against {@code now}; with {@code whole},
   * every value of each key regardless of the document's limit (a replica merging several nodes'
   * facets sums each value's counts, then takes the top ones, so that they and their counts are exact).
   */
  public FacetList facets(byte[] document, long now, boolean whole) throws QueryException, BusyException, IOException {
    FacetsQuery q = Documents.facets(document, now);
    FacetsQuery asked = whole ? new FacetsQuery(q.signal(), q.from(), q.to(), q.where(), q.keys(), Integer.MAX_VALUE) : q;
    return call(() -> AttributeCensus.facets(engine, asked));
  }

  private <T> T call(Admission.Work<T> work) throws QueryException, BusyException, IOException {
    running.incrementAndGet();
    try {
      if (closed) {
        throw new IllegalStateException("LocalQueries on " + dataDir + " is closed");
      }
      return admission.run(work);
    } catch (QueryException | BusyException | IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("unexpected " + e, e);
    } finally {
      running.decrementAndGet();
    }
  }

  private static long systemNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  /**
   * Refuses new queries, waits up to {@link #CLOSE_WAIT_MS} ms for running ones, then closes the
   * blocks held open and releases the allocator (which fails loudly if a query leaked Arrow memory).
   */
  @Override
  public void close() {
    closed = true;
    long deadline = System.nanoTime() + CLOSE_WAIT_MS * 1_000_000L;
    while (running.get() > 0 && System.nanoTime() < deadline) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    housekeeping.shutdownNow();
    try {
      // A sweep in progress closes blocks into the allocator, which must outlive it.
      housekeeping.awaitTermination(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    readers.close();
    allocator.close();
  }

  /** How long {@link #close} waits for running queries. */
  public static final long CLOSE_WAIT_MS = 10_000;
}
