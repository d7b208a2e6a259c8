package mira.server.ui;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.Locale;

/**
 * {@code GET /}, {@code /index.html} and {@code /assets/*} (and HEAD): the UI's files from a
 * {@link Bundle}. The request's raw path is looked up as it arrived, so an encoded or relative
 * path ({@code %2e%2e/}, {@code ..%2f}, a backslash) names no file and is a 404; nothing else on
 * the listener is matched by these patterns.
 *
 * <p>Every answer carries a Content-Security-Policy that allows only this origin (no inline style,
 * no inline script but index.html's own by its hash, no framing), {@code X-Content-Type-Options:
 * nosniff} and {@code Referrer-Policy}.
 */
public final class UiRoutes {
  private final Bundle bundle;
  private final String csp;

  public UiRoutes(Bundle bundle) {
    this.bundle = bundle;
    this.csp = csp(bundle.inlineScripts());
  }

  /**
   * The policy of every UI answer: this origin only, plus the inline scripts named by their hash
   * sources ({@link Bundle#inlineScripts()}); the bundle has no inline style or style attribute.
   */
  static String csp(List<String> inlineScripts) {
    StringBuilder script = new StringBuilder("'self'");
    for (String h : inlineScripts) {
      script.append(' ').append(h);
    }
    return "default-src 'self'; script-src " + script + "; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        + "frame-ancestors 'none'";
  }

  public void route(HttpRouting.Builder r) {
    Handler h = this::serve;
    for (String path : List.of("/", "/index.html", "/assets/*")) {
      r.get(path, h);
      r.head(path, h);
    }
  }

  private void serve(ServerRequest req, ServerResponse res) {
    res.header(HeaderNames.create("Content-Security-Policy"), csp);
    res.header(HeaderNames.X_CONTENT_TYPE_OPTIONS, "nosniff");
    res.header(HeaderNames.create("Referrer-Policy"), "no-referrer");
    res.header(HeaderNames.create("X-Frame-Options"), "DENY");
    Bundle.Asset a = bundle.find(req.prologue().uriPath().rawPath());
    if (a == null) {
      res.status(404).header(HeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
          .send(bundle.size() == 0 ? "this build of Mira has no UI bundle\n" : "not found\n");
      return;
    }
    boolean gzip = a.gzip() != null && acceptsGzip(req);
    String etag = gzip ? a.gzipEtag() : a.etag();
    res.header(HeaderNames.ETAG, etag);
    res.header(HeaderNames.CACHE_CONTROL, a.cacheControl());
    res.header(HeaderNames.VARY, "Accept-Encoding");
    if (req.headers().contains(HeaderNames.IF_NONE_MATCH)
        && matches(req.headers().get(HeaderNames.IF_NONE_MATCH).allValues(), etag)) {
      res.status(304).send();
      return;
    }
    res.header(HeaderNames.CONTENT_TYPE, a.type());
    byte[] body = gzip ? a.gzip() : a.identity();
    if (gzip) {
      res.header(HeaderNames.CONTENT_ENCODING, "gzip");
    }
    if (req.prologue().method() == Method.HEAD) {
      res.header(HeaderNames.CONTENT_LENGTH, Integer.toString(body.length));
      res.send();
      return;
    }
    res.send(body);
  }

  /** Whether the request's Accept-Encoding headers allow gzip (see {@link #acceptsGzip(String)}). */
  public static boolean acceptsGzip(ServerRequest req) {
    return req.headers().contains(HeaderNames.ACCEPT_ENCODING)
        && acceptsGzip(String.join(",", req.headers().get(HeaderNames.ACCEPT_ENCODING).allValues()));
  }

  /** Whether an Accept-Encoding header allows gzip: named (or {@code *}) without {@code q=0}. */
  static boolean acceptsGzip(String headerValue) {
    if (headerValue == null) {
      return false;
    }
    for (String part : headerValue.split(",")) {
      String[] p = part.split(";");
      String coding = p[0].strip().toLowerCase(Locale.ROOT);
      if (!coding.equals("gzip") && !coding.equals("x-gzip") && !coding.equals("*")) {
        continue;
      }
      boolean zero = false;
      for (int i = 1; i < p.length; i++) {
        String param = p[i].strip().toLowerCase(Locale.ROOT);
        if (param.startsWith("q=")) {
          try {
            zero = Double.parseDouble(param.substring(2)) == 0;
          } catch (NumberFormatException e) {
            zero = true;
          }
        }
      }
      if (!zero) {
        return true;
      }
    }
    return false;
  }

  /** If-None-Match: {@code *}, or a list of tags compared weakly (RFC 9110 13.1.2). */
  static boolean matches(List<String> values, String etag) {
    for (String v : values) {
      for (String tag : v.split(",")) {
        String t = tag.strip();
        if (t.equals("*")) {
          return true;
        }
        if (t.startsWith("W/")) {
          t = t.substring(2);
        }
        if (t.equals(etag)) {
          return true;
        }
      }
    }
    return false;
  }
}
