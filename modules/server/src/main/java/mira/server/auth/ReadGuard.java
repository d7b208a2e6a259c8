package mira.server.auth;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * The HTTP listener's filter for reads: with {@code auth.read_tokens} set, every request needs a
 * read token except the probes, the UI's static files and the OTLP routes (which check ingest
 * tokens themselves, see {@code HttpExportHandler}).
 *
 * <p>It is a deny list turned around: what is open is named, everything else (the query API,
 * {@code /mcp}, any route added later, and 404s) needs the token, so a new read route cannot be
 * left open by forgetting it here. The path is the one routing matches on (decoded and
 * normalised), so an encoded or dotted path cannot reach a route without passing this check.
 */
public final class ReadGuard implements Filter {
  private static final Set<String> OPEN = Set.of("/readyz", "/health", "/", "/index.html",
      "/v1/logs", "/v1/traces", "/v1/metrics");
  private static final String OPEN_PREFIX = "/assets/";
  private static final byte[] BODY = "{\"error\":\"this route needs a read token: Authorization: Bearer <token>\"}"
      .getBytes(StandardCharsets.UTF_8);

  private final Access access;

  public ReadGuard(Access access) {
    this.access = access;
  }

  @Override
  public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
    if (!access.checks(Access.Need.READ)) {
      chain.proceed();
      return;
    }
    String path = req.path().path();
    if (OPEN.contains(path) || path.startsWith(OPEN_PREFIX)) {
      chain.proceed();
      return;
    }
    String authorization = req.headers().first(HeaderNames.AUTHORIZATION).orElse(null);
    if (access.allows(Access.Need.READ, authorization)) {
      chain.proceed();
      return;
    }
    res.status(401);
    res.header(HeaderNames.WWW_AUTHENTICATE, Challenge.of(authorization));
    res.header(HeaderNames.CONTENT_TYPE, "application/json");
    boolean body = req.headers().contentLength().orElse(0) > 0 || req.headers().contains(HeaderNames.TRANSFER_ENCODING);
    if (body) {
      // The body is not read; Helidon 4.5 would read it as the next request unless the connection ends.
      res.header(HeaderValues.CONNECTION_CLOSE);
    }
    res.send(BODY);
    if (body) {
      throw new CloseConnectionException("request refused with 401; the connection ends with it");
    }
  }
}
