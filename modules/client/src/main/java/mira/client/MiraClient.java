package mira.client;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import mira.query.result.AttributeList;
import mira.query.result.BusyException;
import mira.query.result.FacetList;
import mira.query.result.CorrelateResult;
import mira.query.result.ServiceMap;
import mira.query.result.QueryException;
import mira.query.result.MetricList;
import mira.query.result.SearchResult;
import mira.query.result.SeriesResult;
import mira.query.result.TraceResult;

/**
 * Mira's query API over HTTP, answering with the records {@code mira.query.LocalQueries} returns
 * in-process: a caller can switch between a node and a data directory without changing how it
 * reads answers.
 *
 * <p>Errors map back to the in-process ones: a 400 is a {@link QueryException} with the node's
 * message, a 503 a {@link BusyException}; anything else (another status, a connection that fails, an
 * answer of the wrong shape) is an {@link IOException} naming the address and what went wrong.
 *
 * <p>Thread-safe; one instance per node, shared.
 */
public final class MiraClient {
  private final URI base;
  private final String token;
  private final Duration timeout;
  private final HttpClient http;

  /**
   * @param base the node's HTTP listener, e.g. {@code http://127.0.0.1:4318}
   * @param token a bearer token sent with every request, or null for none
   * @param timeout how long one request may take
   */
  public MiraClient(URI base, String token, Duration timeout) {
    String s = base.toString();
    this.base = URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
    this.token = token;
    this.timeout = timeout;
    // HTTP/1.1: the JDK client's default attempt to upgrade to h2c was seen to hang against the
    // HTTP listener. The calling thread as executor: an answer is read whole into a byte array, so
    // no step blocks, and the hand-off to a pool thread per answer goes (an empty answer 400 -> 326
    // us at p50 back to back, docs/performance.md "Answers over HTTP").
    this.http = HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1)
        .executor(Runnable::run).build();
  }

  /** A client for {@code host:port} over plain HTTP, no token, 10 s per request. */
  public static MiraClient of(String hostPort) {
    return new MiraClient(URI.create("http://" + hostPort), null, Duration.ofSeconds(10));
  }

  public URI base() {
    return base;
  }

  /** {@code POST /api/v1/query} with a query document (docs/api.md). */
  public SearchResult search(byte[] document) throws QueryException, BusyException, IOException {
    return ResultReader.search(post("/api/v1/query", document));
  }

  /** {@code GET /api/v1/traces/{trace_id}}. */
  public TraceResult trace(String traceIdHex) throws QueryException, BusyException, IOException {
    return ResultReader.trace(get("/api/v1/traces/" + URLEncoder.encode(traceIdHex, StandardCharsets.UTF_8)));
  }

  /** {@code POST /api/v1/series}: a series document (docs/api.md), typed. */
  public SeriesResult series(byte[] document) throws QueryException, BusyException, IOException {
    return ResultReader.series(post("/api/v1/series", document));
  }

  /** {@code GET /api/v1/metrics}: the metrics with a point between {@code from} and {@code to} (null: the default). */
  public MetricList metrics(String from, String to) throws QueryException, BusyException, IOException {
    return metrics(from, to, null);
  }

  /** {@code GET /api/v1/metrics?q=}: the same, only metrics with a point passing filter text {@code q} (null: all). */
  public MetricList metrics(String from, String to, String q) throws QueryException, BusyException, IOException {
    StringBuilder path = new StringBuilder("/api/v1/metrics");
    char sep = '?';
    String[][] params = {{"from", from}, {"to", to}, {"q", q}};
    for (String[] p : params) {
      if (p[1] != null) {
        path.append(sep).append(p[0]).append('=').append(URLEncoder.encode(p[1], StandardCharsets.UTF_8));
        sep = '&';
      }
    }
    return ResultReader.metrics(get(path.toString()));
  }

  /** {@code GET /api/v1/attributes}: the attribute keys on {@code signal}'s records in a window (null times: the default). */
  public AttributeList attributes(String signal, String from, String to)
      throws QueryException, BusyException, IOException {
    StringBuilder path = new StringBuilder("/api/v1/attributes?signal=")
        .append(URLEncoder.encode(signal, StandardCharsets.UTF_8));
    if (from != null) {
      path.append("&from=").append(URLEncoder.encode(from, StandardCharsets.UTF_8));
    }
    if (to != null) {
      path.append("&to=").append(URLEncoder.encode(to, StandardCharsets.UTF_8));
    }
    return ResultReader.attributes(get(path.toString()));
  }

  /** {@code POST /api/v1/facets}: a facets document (docs/api.md), typed. */
  public FacetList facets(byte[] document) throws QueryException, BusyException, IOException {
    return ResultReader.facets(post("/api/v1/facets", document));
  }

  /** {@code POST /api/v1/correlate}: a correlate document (docs/api.md), typed. */
  public CorrelateResult correlate(byte[] document) throws QueryException, BusyException, IOException {
    return ResultReader.correlate(post("/api/v1/correlate", document));
  }

  /** {@code POST /api/v1/map}: a map document (docs/api.md), typed. */
  public ServiceMap map(byte[] document) throws QueryException, BusyException, IOException {
    return ResultReader.map(post("/api/v1/map", document));
  }

  /** {@code GET /api/v1/alerts}: the node's rules and their state. */
  public AlertList alerts() throws QueryException, BusyException, IOException {
    return ResultReader.alerts(get("/api/v1/alerts"));
  }

  /** {@code POST path} with a JSON document; the answer's bytes on 200. */
  public byte[] post(String path, byte[] document) throws QueryException, BusyException, IOException {
    return send(request(path).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(document)).build());
  }

  /** {@code GET path} (with its query string); the answer's bytes on 200. */
  public byte[] get(String path) throws QueryException, BusyException, IOException {
    return send(request(path).GET().build());
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
        .header("Accept", "application/json");
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return b;
  }

  private byte[] send(HttpRequest req) throws QueryException, BusyException, IOException {
    HttpResponse<byte[]> res;
    try {
      res = http.send(req, HttpResponse.BodyHandlers.ofByteArray());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(req.method() + " " + req.uri() + " interrupted");
    } catch (IOException e) {
      throw new IOException(req.method() + " " + req.uri() + ": " + (e.getMessage() == null ? e : e.getMessage()), e);
    }
    byte[] body = res.body();
    if (res.statusCode() == 200) {
      return body;
    }
    String message = ResultReader.error(body);
    String said = message != null ? message : new String(body, 0, Math.min(body.length, 200), StandardCharsets.UTF_8);
    switch (res.statusCode()) {
      case 400 -> throw new QueryException(said);
      case 503 -> throw new BusyException(said);
      default -> throw new IOException(req.method() + " " + req.uri() + " answered HTTP " + res.statusCode() + ": " + said);
    }
  }
}
