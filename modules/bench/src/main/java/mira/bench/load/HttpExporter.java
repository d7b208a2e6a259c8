package mira.bench.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * OTLP/HTTP with java.net.http over one HTTP/1.1 connection (its own client, so connections are
 * not shared between exporters): protobuf or JSON bodies, optionally gzipped by the caller.
 */
final class HttpExporter implements Exporter {
  private final HttpClient client;
  private final URI[] uris = new URI[Signal.values().length];
  private final String contentType;
  private final boolean gzip;

  HttpExporter(String host, int port, boolean json, boolean gzip, java.nio.file.Path tlsCa) {
    HttpClient.Builder b = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5));
    if (tlsCa != null) {
      b.sslContext(trusting(tlsCa));
    }
    this.client = b.build();
    String scheme = tlsCa == null ? "http://" : "https://";
    for (Signal s : Signal.values()) {
      uris[s.ordinal()] = URI.create(scheme + hostForUri(host) + ":" + port + s.httpPath);
    }
    this.contentType = json ? "application/json" : "application/x-protobuf";
    this.gzip = gzip;
  }

  /** A TLS context that trusts only the PEM CA certificates in {@code ca}. */
  static javax.net.ssl.SSLContext trusting(java.nio.file.Path ca) {
    try (java.io.InputStream in = java.nio.file.Files.newInputStream(ca)) {
      java.security.KeyStore ks = java.security.KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      int i = 0;
      for (java.security.cert.Certificate c : java.security.cert.CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        ks.setCertificateEntry("ca" + i++, c);
      }
      javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
          javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(ks);
      javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      return ctx;
    } catch (java.io.IOException | java.security.GeneralSecurityException e) {
      throw new IllegalArgumentException("--tls-ca " + ca + ": " + e.getMessage(), e);
    }
  }

  static String hostForUri(String host) {
    return host.indexOf(':') >= 0 ? "[" + host + "]" : host;
  }

  @Override
  public Outcome send(Signal signal, byte[] body) {
    HttpRequest.Builder r = HttpRequest.newBuilder(uris[signal.ordinal()])
        .timeout(Duration.ofSeconds(DEADLINE_SECONDS))
        .header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (gzip) r.header("Content-Encoding", "gzip");
    HttpResponse<byte[]> response;
    try {
      response = client.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      return Outcome.failed(e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Outcome.failed("interrupted");
    }
    int code = response.statusCode();
    if (code == 200) return Outcome.ACCEPTED;
    String detail = "HTTP " + code + ": " + text(response.body());
    if (code == 503) {
      long after = response.headers().firstValueAsLong("Retry-After").orElse(0);
      return Outcome.retry(after * 1000, detail);
    }
    return Outcome.failed(detail);
  }

  /** A short printable form of an error body (protobuf Status bodies show their message text). */
  static String text(byte[] body) {
    String s = new String(body, 0, Math.min(body.length, 300), StandardCharsets.UTF_8);
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      b.append(c >= 0x20 && c != 0x7f && c != '\uFFFD' ? c : ' ');
    }
    return b.toString().strip();
  }

  @Override
  public void close() {
    client.close();
  }
}
