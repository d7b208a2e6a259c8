package mira.alert;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * POSTs notices: one attempt each, {@link #TIMEOUT} for the whole exchange, no queue (the next
 * evaluation is the retry). HTTPS uses the JDK's TLS and trust store (or the context given).
 * Error texts never carry the URL, only the redacted target.
 */
public final class Delivery {
  /** Connect plus answer, per POST. */
  public static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final HttpClient client;

  /** With the JDK's default TLS context (its trust store, or {@code javax.net.ssl.trustStore}). */
  public Delivery() {
    this(null);
  }

  /** With {@code tls} for HTTPS targets (tests trust their own CA this way); null: the default. */
  public Delivery(SSLContext tls) {
    HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NEVER)
        .version(HttpClient.Version.HTTP_1_1);
    if (tls != null) {
      b.sslContext(tls);
    }
    client = b.build();
  }

  /**
   * How an attempt went.
   *
   * @param ok the receiver answered 2xx
   * @param status the HTTP status, 0 if there was none
   * @param error why it failed, or null
   */
  public record Result(boolean ok, int status, String error) {}

  Result send(Target t, Notice n) {
    HttpRequest.Builder req = HttpRequest.newBuilder(t.url()).timeout(TIMEOUT)
        .header("Content-Type", "application/json")
        .header("User-Agent", "mira-alert")
        .POST(HttpRequest.BodyPublishers.ofByteArray(Payloads.body(t, n)));
    if (t instanceof Target.Webhook w) {
      for (Map.Entry<String, String> h : w.headers().entrySet()) {
        req.header(h.getKey(), h.getValue());
      }
    }
    try {
      HttpResponse<String> res = client.send(req.build(), HttpResponse.BodyHandlers.ofString());
      if (res.statusCode() / 100 == 2) {
        return new Result(true, res.statusCode(), null);
      }
      String body = res.body() == null ? "" : res.body().strip();
      return new Result(false, res.statusCode(), "HTTP " + res.statusCode()
          + (body.isEmpty() ? "" : ": " + (body.length() > 200 ? body.substring(0, 200) + "…" : body)));
    } catch (HttpTimeoutException e) {
      return new Result(false, 0, "no answer within " + TIMEOUT.toSeconds() + " s");
    } catch (IOException e) {
      return new Result(false, 0, describe(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(false, 0, "interrupted");
    } catch (IllegalArgumentException e) {
      return new Result(false, 0, "the request could not be built: " + e.getMessage());
    }
  }

  /** The cause chain's class names and messages, which name hosts at most (never the path or query). */
  private static String describe(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable c = e; c != null && out.length() < 300; c = c.getCause()) {
      if (!out.isEmpty()) {
        out.append(": ");
      }
      out.append(c.getClass().getSimpleName());
      if (c.getMessage() != null && !c.getMessage().contains("/")) {
        out.append(' ').append(c.getMessage());
      }
    }
    return out.toString();
  }
}
