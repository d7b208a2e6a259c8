package mira.tui;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import mira.client.AlertList;
import mira.client.MiraClient;
import mira.query.LocalQueries;
import mira.query.result.BusyException;
import mira.query.result.CorrelateResult;
import mira.query.result.MetricList;
import mira.query.result.SeriesResult;
import mira.query.result.ServiceMap;
import mira.query.result.QueryException;
import mira.query.result.SearchResult;
import mira.query.result.TraceResult;

/**
 * Where the terminal UI reads from: a running node over HTTP, or a data directory in-process. Both
 * answer with the same typed results, so the screens cannot tell them apart.
 */
interface Source extends AutoCloseable {
  SearchResult search(byte[] document) throws QueryException, BusyException, IOException;

  TraceResult trace(String traceIdHex) throws QueryException, BusyException, IOException;

  /** The metrics with a point in the window (time strings). */
  MetricList metrics(String from, String to) throws QueryException, BusyException, IOException;

  SeriesResult series(byte[] document) throws QueryException, BusyException, IOException;

  CorrelateResult correlate(byte[] document) throws QueryException, BusyException, IOException;

  ServiceMap map(byte[] document) throws QueryException, BusyException, IOException;

  /** The node's alert rules; null over a data directory, where no rules run (they run in a server). */
  AlertList alerts() throws QueryException, BusyException, IOException;

  /** What the header shows: the address or the directory. */
  String describe();

  @Override
  void close();

  /** {@code --addr HOST:PORT} (or a full http(s) URL), with an optional bearer token. */
  static Source remote(String addr, String token) {
    URI base = URI.create(addr.contains("://") ? addr : "http://" + addr);
    MiraClient c = new MiraClient(base, token, Duration.ofSeconds(15));
    return new Source() {
      @Override
      public SearchResult search(byte[] document) throws QueryException, BusyException, IOException {
        return c.search(document);
      }

      @Override
      public TraceResult trace(String traceIdHex) throws QueryException, BusyException, IOException {
        return c.trace(traceIdHex);
      }

      @Override
      public MetricList metrics(String from, String to) throws QueryException, BusyException, IOException {
        return c.metrics(from, to);
      }

      @Override
      public SeriesResult series(byte[] document) throws QueryException, BusyException, IOException {
        return c.series(document);
      }

      @Override
      public CorrelateResult correlate(byte[] document) throws QueryException, BusyException, IOException {
        return c.correlate(document);
      }

      @Override
      public ServiceMap map(byte[] document) throws QueryException, BusyException, IOException {
        return c.map(document);
      }

      @Override
      public AlertList alerts() throws QueryException, BusyException, IOException {
        return c.alerts();
      }

      @Override
      public String describe() {
        return c.base().toString();
      }

      @Override
      public void close() {}
    };
  }

  /** {@code --data-dir DIR}: read-only, no port, safe beside a server writing the same directory. */
  static Source local(LocalQueries q) {
    return new Source() {
      @Override
      public SearchResult search(byte[] document) throws QueryException, BusyException, IOException {
        return q.search(document);
      }

      @Override
      public TraceResult trace(String traceIdHex) throws QueryException, BusyException, IOException {
        return q.trace(traceIdHex);
      }

      @Override
      public MetricList metrics(String from, String to) throws QueryException, BusyException, IOException {
        return q.metrics(from, to);
      }

      @Override
      public SeriesResult series(byte[] document) throws QueryException, BusyException, IOException {
        return q.series(document);
      }

      @Override
      public CorrelateResult correlate(byte[] document) throws QueryException, BusyException, IOException {
        return q.correlate(document);
      }

      @Override
      public ServiceMap map(byte[] document) throws QueryException, BusyException, IOException {
        return q.map(document);
      }

      @Override
      public AlertList alerts() {
        return null;
      }

      @Override
      public String describe() {
        return q.dataDir().toString();
      }

      @Override
      public void close() {
        q.close();
      }
    };
  }
}
