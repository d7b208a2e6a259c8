package mira.tui;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import mira.client.MiraClient;
import mira.query.LocalQueries;
import mira.query.result.BusyException;
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
