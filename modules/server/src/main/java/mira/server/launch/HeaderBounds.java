package mira.server.launch;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Refuses a request with more than {@link Limits#MAX_HEADERS} header fields with 431 (RFC 6585 5)
 * and ends the connection. Helidon bounds the header block's bytes but not the number of fields;
 * no OTLP exporter, browser or API client sends more than a few dozen.
 */
final class HeaderBounds implements Filter {
  @Override
  public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
    if (req.headers().size() <= Limits.MAX_HEADERS) {
      chain.proceed();
      return;
    }
    res.status(431);
    res.header(HeaderValues.CONNECTION_CLOSE);
    res.header(HeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
    res.send("more than " + Limits.MAX_HEADERS + " header fields\n");
    throw new CloseConnectionException("request refused with 431; the connection ends with it");
  }
}
