package mira.server.api;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import mira.cluster.Cluster;
import mira.query.result.BusyException;
import mira.query.LocalQueries;
import mira.query.doc.Documents;
import mira.query.doc.FilterText;
import mira.query.doc.FilterTextException;
import mira.query.doc.Term;
import mira.query.render.AttributeJson;
import mira.query.render.EntityJson;
import mira.query.render.FrameJson;
import mira.query.render.Json;
import mira.query.render.MapJson;
import mira.query.render.TermJson;
import mira.query.render.ResponseJson;
import mira.query.render.SeriesJson;
import mira.query.result.QueryException;
import mira.query.result.TraceResult;

/**
 * The query API on the http listener, each route a thin wrapper over {@link LocalQueries}:
 *
 * <ul>
 *   <li>{@code POST /api/v1/query} — a query document; the search envelope
 *   <li>{@code GET /api/v1/traces/{trace_id}} — every span of one trace ({@code ?shape=compact}: each
 *       resource and scope listed once, defaults left out)
 *   <li>{@code GET /api/v1/metrics?from=&to=} — metric names in a window
 *   <li>{@code POST /api/v1/series} — a series document; series of points
 *   <li>{@code POST /api/v1/entities} — what emitted records in a window, by entity
 *   <li>{@code GET /api/v1/services?from=&to=} — every service.name in a window, with counts
 *   <li>{@code POST /api/v1/correlate} — a correlation frame from an anchor query or an earlier frame
 *   <li>{@code POST /api/v1/map} — the service map of a window, computed from spans
 *   <li>{@code POST /api/v1/filter} — filter text to terms and back, in canonical form
 *   <li>{@code GET /api/v1/attributes?signal=&from=&to=} — the attribute keys on a signal's records, with counts
 *   <li>{@code POST /api/v1/facets} — the top values of chosen attribute keys over a search, with exact counts
 * </ul>
 *
 * Errors are {@code {"error": "..."}}: 400 for a document or parameter that is wrong (the message
 * names it), 405 for another method, 413 for a document over {@link #MAX_DOCUMENT_BYTES}, 415 for
 * a compressed body (the listener hands bodies over still encoded, and documents are small), 503
 * with Retry-After when every query slot is taken, 500 when the data directory cannot be read.
 */
public final class QueryRoutes {
  /** The largest query or series document accepted. */
  public static final int MAX_DOCUMENT_BYTES = 1 << 20;

  private static final Logger LOG = System.getLogger(QueryRoutes.class.getName());
  private static final JsonFactory JSON = new JsonFactory();
  private static final String JSON_TYPE = "application/json";
  private static final HeaderName HOP = HeaderNames.create(Cluster.HOP);
  private static final HeaderName NOW = HeaderNames.create(Cluster.NOW);
  private static final HeaderName NODE = HeaderNames.create(Cluster.NODE);
  private static final HeaderName POINTS = HeaderNames.create(Cluster.POINTS);
  private static final HeaderName COUNT = HeaderNames.create(Cluster.COUNT);
  private static final HeaderName TIMING = HeaderNames.create(Cluster.TIMING);

  private final Cluster cluster;
  private final LocalQueries queries;

  public QueryRoutes(Cluster cluster) {
    this.cluster = cluster;
    this.queries = cluster.local();
  }

  public void route(HttpRouting.Builder r) {
    // Every API answer names its node: how a replica recognises itself among its peers.
    r.any("/api/v1/*", (req, res) -> {
      res.header(NODE, cluster.node());
      res.next();
    });
    r.any("/api/v1/query", only(Method.POST, (req, res) -> {
      byte[] doc = document(req, res);
      if (doc != null) {
        OptionalLong hop = hop(req);
        answer(req, res, hop.isPresent() && req.headers().contains(COUNT) ? () -> count(doc, hop.getAsLong())
            : hop.isPresent() ? () -> ResponseJson.search(queries.search(doc, hop.getAsLong()), true)
            : () -> cluster(req, cluster.searchRendered(doc), rendered -> rendered));
      }
    }));
    r.any("/api/v1/series", only(Method.POST, (req, res) -> {
      byte[] doc = document(req, res);
      if (doc != null) {
        OptionalLong hop = hop(req);
        answer(req, res, hop.isPresent() && req.headers().contains(POINTS)
            ? () -> SeriesJson.points(queries.seriesPoints(Documents.series(doc, hop.getAsLong())))
            : hop.isPresent() ? () -> SeriesJson.series(queries.series(doc, hop.getAsLong()))
            : () -> cluster(req, cluster.series(doc), SeriesJson::series));
      }
    }));
    r.any("/api/v1/entities", only(Method.POST, (req, res) -> {
      byte[] doc = document(req, res);
      if (doc != null) {
        OptionalLong hop = hop(req);
        answer(req, res, hop.isPresent() ? () -> EntityJson.entities(queries.entities(doc, hop.getAsLong(), true), true)
            : () -> cluster(req, cluster.entities(doc), EntityJson::entities));
      }
    }));
    r.any("/api/v1/services", only(Method.GET, (req, res) -> {
      if (params(req, res, List.of("from", "to"))) {
        String from = req.query().first("from").orElse(null);
        String to = req.query().first("to").orElse(null);
        OptionalLong hop = hop(req);
        answer(req, res, hop.isPresent() ? () -> EntityJson.services(queries.services(from, to, hop.getAsLong()), true)
            : () -> cluster(req, cluster.services(from, to), EntityJson::services));
      }
    }));
    r.any("/api/v1/correlate", only(Method.POST, (req, res) -> {
      byte[] doc = document(req, res);
      if (doc != null) {
        OptionalLong hop = hop(req);
        answer(req, res, hop.isPresent() ? () -> FrameJson.correlate(queries.correlate(doc, hop.getAsLong()))
            : () -> cluster(req, cluster.correlate(doc), FrameJson::correlate));
      }
    }));
    r.any("/api/v1/map", only(Method.POST, (req, res) -> {
      byte[] doc = document(req, res);
      if (doc != null) {
        OptionalLong hop = hop(req);
        answer(req, res, hop.isPresent() ? () -> MapJson.map(queries.map(doc, hop.getAsLong()))
            : () -> cluster(req, cluster.map(doc), MapJson::map));
      }
    }));
    r.any("/api/v1/filter", only(Method.POST, (req, res) -> {
      byte[] doc = document(req, res);
      if (doc != null) {
        answer(req, res, () -> Json.render(g -> {
          List<Term> terms = Documents.filter(doc);
          g.writeStartObject();
          g.writeStringField("q", FilterText.print(terms));
          g.writeFieldName("where");
          TermJson.where(g, terms);
          g.writeEndObject();
        }));
      }
    }));
    r.any("/api/v1/attributes", only(Method.GET, (req, res) -> {
      if (params(req, res, List.of("signal", "from", "to"))) {
        String signal = req.query().first("signal").orElse(null);
        String from = req.query().first("from").orElse(null);
        String to = req.query().first("to").orElse(null);
        OptionalLong hop = hop(req);
        answer(req, res, hop.isPresent() ? () -> AttributeJson.attributes(queries.attributes(signal, from, to,
            hop.getAsLong())) : () -> cluster(req, cluster.attributes(signal, from, to), AttributeJson::attributes));
      }
    }));
    r.any("/api/v1/facets", only(Method.POST, (req, res) -> {
      byte[] doc = document(req, res);
      if (doc != null) {
        OptionalLong hop = hop(req);
        answer(req, res, hop.isPresent() ? () -> AttributeJson.facets(queries.facets(doc, hop.getAsLong(), true))
            : () -> cluster(req, cluster.facets(doc), AttributeJson::facets));
      }
    }));
    r.any("/api/v1/metrics", only(Method.GET, (req, res) -> {
      if (params(req, res, List.of("from", "to", "q"))) {
        String from = req.query().first("from").orElse(null);
        String to = req.query().first("to").orElse(null);
        String q = req.query().first("q").orElse(null);
        OptionalLong hop = hop(req);
        answer(req, res, hop.isPresent() ? () -> SeriesJson.metrics(queries.metrics(from, to, q, hop.getAsLong()))
            : () -> cluster(req, cluster.metrics(from, to, q), SeriesJson::metrics));
      }
    }));
    r.any("/api/v1/traces/{trace_id}", only(Method.GET, (req, res) -> {
      if (params(req, res, List.of("shape"))) {
        String id = req.path().pathParameters().get("trace_id");
        String shape = req.query().first("shape").orElse("full");
        if (!shape.equals("full") && !shape.equals("compact")) {
          error(res, 400, "shape must be \"full\" or \"compact\", not \"" + shape + "\"");
          return;
        }
        // The compact shape is a rendering of the same result, merged across the cluster first: a
        // peer is always asked for the full shape (Cluster#trace).
        Function<TraceResult, byte[]> render = shape.equals("compact") ? ResponseJson::traceCompact : ResponseJson::trace;
        OptionalLong hop = hop(req);
        answer(req, res, hop.isPresent() ? () -> render.apply(queries.trace(id))
            : () -> cluster(req, cluster.trace(id), render));
      }
    }));
  }

  /**
   * A peer's question ({@link Cluster#HOP}): answered from this node's data, with relative times
   * against the asking node's now ({@link Cluster#NOW}); empty for a client's question.
   */
  private OptionalLong hop(ServerRequest req) {
    if (!req.headers().contains(HOP)) {
      return OptionalLong.empty();
    }
    Optional<String> now = req.headers().first(NOW);
    try {
      return OptionalLong.of(now.map(Long::parseLong).orElseGet(queries::now));
    } catch (NumberFormatException e) {
      return OptionalLong.of(queries.now());
    }
  }

  /** A peer's count ({@link Cluster#COUNT}): the search envelope with no rows, the count in its stats. */
  private byte[] count(byte[] doc, long now) throws QueryException, BusyException, IOException {
    mira.query.doc.SearchQuery q = Documents.search(doc, now);
    return ResponseJson.search(queries.count(q.signal(), q.from(), q.to(), q.where()), true);
  }

  /**
   * A cluster answer rendered, with its sources appended when peers were asked, and where the time
   * went among them when the question asks ({@link Cluster#TIMING}).
   */
  private static <T> byte[] cluster(ServerRequest req, Cluster.Answer<T> a, Function<T, byte[]> render) {
    byte[] doc = render.apply(a.result());
    if (a.sources() == null) {
      return doc;
    }
    return (req.headers().contains(TIMING) ? a.timedSources() : a.sources()).appendTo(doc);
  }

  /** A query that yields the response document. */
  @FunctionalInterface
  private interface Work {
    byte[] run() throws QueryException, BusyException, IOException;
  }

  /**
   * Runs {@code work} and sends what it rendered. The caller's {@code Authorization} is bound for
   * the work's duration, so the peers a cluster read asks see the same credentials.
   */
  private static void answer(ServerRequest req, ServerResponse res, Work work) {
    byte[] body;
    try {
      body = asCaller(req.headers().first(HeaderNames.AUTHORIZATION), work);
    } catch (FilterTextException e) {
      error(res, 400, e.getMessage(), e.column());
      return;
    } catch (QueryException e) {
      error(res, 400, e.getMessage());
      return;
    } catch (BusyException e) {
      res.header(HeaderNames.RETRY_AFTER, "1");
      error(res, 503, e.getMessage());
      return;
    } catch (IOException | UncheckedIOException e) {
      LOG.log(Level.WARNING, "query failed reading the data directory: " + e.getMessage());
      error(res, 500, "cannot read the data directory: " + e.getMessage());
      return;
    }
    res.status(200);
    res.header(HeaderNames.CONTENT_TYPE, JSON_TYPE);
    Compression.send(req, res, body);
  }

  private static byte[] asCaller(Optional<String> auth, Work work) throws QueryException, BusyException, IOException {
    if (auth.isEmpty()) {
      return work.run();
    }
    try {
      return ScopedValue.where(Cluster.AUTHORIZATION, auth.get()).call(work::run);
    } catch (QueryException | BusyException | IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("unexpected " + e, e);
    }
  }

  private static Handler only(Method method, Handler handler) {
    return (req, res) -> {
      if (!req.prologue().method().equals(method)) {
        res.header(HeaderNames.ALLOW, method.text());
        refuseUnread(req, res, 405, req.prologue().method().text() + " is not allowed on " + req.path().path()
            + "; use " + method.text());
        return;
      }
      handler.handle(req, res);
    };
  }

  /** Refuses query parameters the route does not take, naming them; true if all are known. */
  private static boolean params(ServerRequest req, ServerResponse res, List<String> known) {
    Set<String> names = req.query().names();
    for (String n : names) {
      if (!known.contains(n)) {
        error(res, 400, "unknown parameter \"" + n + "\" on " + req.path().path() + "; "
            + (known.isEmpty() ? "it takes none" : "the implemented parameters are: " + String.join(", ", known)));
        return false;
      }
    }
    return true;
  }

  /** The request body, or null if the request was answered (refused) instead. */
  static byte[] document(ServerRequest req, ServerResponse res) {
    Optional<String> encoding = req.headers().first(HeaderNames.CONTENT_ENCODING);
    if (encoding.isPresent() && !encoding.get().strip().toLowerCase(Locale.ROOT).equals("identity")) {
      refuseUnread(req, res, 415, "Content-Encoding \"" + encoding.get() + "\" is not supported on "
          + req.path().path() + "; send the document uncompressed (identity)");
      return null;
    }
    OptionalLong declared = req.headers().contentLength();
    if (declared.isPresent() && declared.getAsLong() > MAX_DOCUMENT_BYTES) {
      refuseUnread(req, res, 413, tooLarge());
      return null;
    }
    byte[] body;
    try {
      body = req.content().inputStream().readNBytes(MAX_DOCUMENT_BYTES + 1);
    } catch (IOException | UncheckedIOException e) {
      body = null;
      closeAfter(res, 400, "cannot read the request body: " + e.getMessage());
    }
    if (body.length > MAX_DOCUMENT_BYTES) {
      closeAfter(res, 413, tooLarge());
    }
    return body;
  }

  private static String tooLarge() {
    return "the document is larger than " + MAX_DOCUMENT_BYTES + " bytes";
  }

  /**
   * Answers without reading the body. Helidon discards a body of declared length after the
   * response; a chunked one is read and dropped here, up to a bound past which the connection
   * closes (as it does for a client still waiting for 100 Continue).
   */
  private static void refuseUnread(ServerRequest req, ServerResponse res, int status, String message) {
    OptionalLong declared = req.headers().contentLength();
    boolean close;
    if (req.headers().containsToken(HeaderValues.EXPECT_100) && !req.continueSent()) {
      close = true;
    } else if (declared.isPresent()) {
      close = declared.getAsLong() > 4L * MAX_DOCUMENT_BYTES;
    } else if (req.headers().contains(HeaderNames.TRANSFER_ENCODING)) {
      close = !drain(req.content().inputStream());
    } else {
      close = false;
    }
    if (close) {
      closeAfter(res, status, message);
    } else {
      error(res, status, message);
    }
  }

  private static boolean drain(InputStream in) {
    try {
      long left = 4L * MAX_DOCUMENT_BYTES;
      byte[] sink = new byte[8192];
      while (left > 0) {
        int n = in.read(sink, 0, (int) Math.min(sink.length, left));
        if (n < 0) {
          return true;
        }
        left -= n;
      }
      return in.read() < 0;
    } catch (IOException | UncheckedIOException e) {
      return false;
    }
  }

  /** Answers, then ends the connection (the rest of the body is not read). */
  private static void closeAfter(ServerResponse res, int status, String message) {
    res.header(HeaderValues.CONNECTION_CLOSE);
    error(res, status, message);
    throw new CloseConnectionException("query API request refused with " + status + "; the connection ends with it");
  }

  /** {@code {"error": message}} with {@code status}. */
  static void error(ServerResponse res, int status, String message) {
    error(res, status, message, 0);
  }

  /** {@code {"error": message, "column": column}} with {@code status}; no column when it is 0. */
  static void error(ServerResponse res, int status, String message, int column) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64 + message.length());
    try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
      g.writeStartObject();
      g.writeStringField("error", message);
      if (column > 0) {
        g.writeNumberField("column", column);
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    res.status(status);
    res.header(HeaderNames.CONTENT_TYPE, JSON_TYPE);
    res.send(out.toByteArray());
  }
}
