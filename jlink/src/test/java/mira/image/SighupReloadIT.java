package mira.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.logs.OtlpGrpcLogRecordExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.resources.Resource;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code kill -HUP} to the image's process, with TLS and ingest tokens on: the token file
 * and the certificate and key are replaced, the signal is sent, and then a removed token is refused,
 * the added one accepted, and a new handshake gets the new certificate, while an OpenTelemetry SDK
 * exporter on each listener keeps exporting across the signal without one failed export.
 *
 * <p>The new certificate and key are written in place, padded to the old files' sizes and given
 * back their old modification times, so the 2-second file watch cannot see the change: only the
 * signal can have loaded them.
 */
class SighupReloadIT {
  private static final Duration START = Duration.ofSeconds(30);
  private static final String PASS = "test-pass";
  private static final int PEM_SIZE = 4096;
  private static final String KEEP = "keep-token-0123456789abcdef";
  private static final String OLD = "old-token-0123456789abcdef";
  private static final String NEW = "new-token-0123456789abcdef";

  @TempDir Path dir;

  /** A self-signed EC certificate for 127.0.0.1, as PEM chain and PKCS#8 key padded to a fixed size. */
  record Identity(String chainPem, String keyPem, BigInteger serial) {}

  private Identity identity(String name) throws Exception {
    Path ks = dir.resolve(name + ".p12");
    keytool("-genkeypair", "-keystore", ks.toString(), "-storetype", "PKCS12", "-storepass", PASS, "-alias", "k",
        "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name, "-validity", "3",
        "-ext", "san=ip:127.0.0.1,dns:localhost");
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(ks)) {
      store.load(in, PASS.toCharArray());
    }
    X509Certificate cert = (X509Certificate) store.getCertificate("k");
    PrivateKey key = (PrivateKey) store.getKey("k", PASS.toCharArray());
    return new Identity(pem("CERTIFICATE", cert.getEncoded()), pem("PRIVATE KEY", key.getEncoded()),
        cert.getSerialNumber());
  }

  private static String pem(String type, byte[] der) {
    String body = "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END " + type + "-----\n";
    // Text after the block is ignored by the reader; the padding keeps every file the same size.
    assertThat(body.length()).isLessThan(PEM_SIZE);
    return body + "\n".repeat(PEM_SIZE - body.length());
  }

  private static void keytool(String... args) throws Exception {
    List<String> cmd = new java.util.ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException("keytool " + String.join(" ", args) + " failed: " + out);
    }
  }

  /** Trusts exactly the given certificates. */
  private static SSLContext trusting(Identity... ids) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    CertificateFactory f = CertificateFactory.getInstance("X.509");
    for (int i = 0; i < ids.length; i++) {
      trust.setCertificateEntry("c" + i, f.generateCertificate(
          new java.io.ByteArrayInputStream(ids[i].chainPem().getBytes(StandardCharsets.US_ASCII))));
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext c = SSLContext.getInstance("TLS");
    c.init(null, tmf.getTrustManagers(), null);
    return c;
  }

  /** Writes {@code text} into {@code file} in place (same inode) and puts {@code mtime} back. */
  private static void rewriteUnseen(Path file, String text, FileTime mtime) throws IOException {
    assertThat(text.length()).isEqualTo(Files.size(file));
    Files.writeString(file, text, StandardCharsets.US_ASCII, java.nio.file.StandardOpenOption.WRITE,
        java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);
    Files.setLastModifiedTime(file, mtime);
  }

  private static BigInteger servedSerial(SSLContext trust, int port) throws Exception {
    try (SSLSocket s = (SSLSocket) trust.getSocketFactory().createSocket("127.0.0.1", port)) {
      s.startHandshake();
      return ((X509Certificate) s.getSession().getPeerCertificates()[0]).getSerialNumber();
    }
  }

  private static int export(HttpClient http, int port, String token) throws Exception {
    String body = "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"stringValue\":\"probe\"}}]}]}]}";
    return http.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/v1/logs"))
        .header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** Records the result of every export the SDK makes. */
  static final class Results implements LogRecordExporter {
    final LogRecordExporter delegate;
    final List<CompletableResultCode> codes = new CopyOnWriteArrayList<>();

    Results(LogRecordExporter delegate) {
      this.delegate = delegate;
    }

    @Override
    public CompletableResultCode export(Collection<LogRecordData> logs) {
      CompletableResultCode r = delegate.export(logs);
      codes.add(r);
      return r;
    }

    @Override
    public CompletableResultCode flush() {
      return delegate.flush();
    }

    @Override
    public CompletableResultCode shutdown() {
      return delegate.shutdown();
    }
  }

  /** Emits a record and flushes every 50 ms until {@code stop}; the exports the SDK made. */
  private static Thread exporting(LogRecordExporter exporter, String name, AtomicBoolean stop, Results[] into) {
    Results results = new Results(exporter);
    into[0] = results;
    return Thread.ofPlatform().name(name).start(() -> {
      try (SdkLoggerProvider provider = SdkLoggerProvider.builder()
          .setResource(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), name)))
          .addLogRecordProcessor(BatchLogRecordProcessor.builder(results).setScheduleDelay(Duration.ofMillis(20)).build())
          .build()) {
        for (int i = 0; !stop.get(); i++) {
          provider.get("sighup").logRecordBuilder().setBody(name + "-" + i).emit();
          provider.forceFlush().join(20, TimeUnit.SECONDS);
          Thread.sleep(50);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
  }

  private static int failed(Results r) {
    int failed = 0;
    for (CompletableResultCode c : r.codes) {
      c.join(20, TimeUnit.SECONDS);
      if (!c.isSuccess()) {
        failed++;
      }
    }
    return failed;
  }

  @Test
  void aRealSighupRotatesTokensAndTheCertificateWhileTheSdkExports() throws Exception {
    Identity first = identity("mira-first");
    Identity second = identity("mira-second");
    Path crt = Files.writeString(dir.resolve("tls.crt"), first.chainPem());
    Path key = Files.writeString(dir.resolve("tls.key"), first.keyPem());
    Path tokens = Files.writeString(dir.resolve("ingest.tokens"), "# before\n" + KEEP + "\n" + OLD + "\n");
    Path cfg = Files.writeString(dir.resolve("mira.yaml"), "{auth: {ingest_tokens: \"" + tokens + "\"},"
        + " tls: {cert: \"" + crt + "\", key: \"" + key + "\"}}\n");
    byte[] bothCerts = (first.chainPem().strip() + "\n" + second.chainPem().strip() + "\n").getBytes(StandardCharsets.US_ASCII);
    SSLContext trustBoth = trusting(first, second);
    HttpClient http = HttpClient.newBuilder().sslContext(trustBoth).connectTimeout(Duration.ofSeconds(5)).build();

    try (Launched m = Launched.start(dir, "serve", "--grpc-listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0",
        "--data-dir", dir.resolve("data").toString(), "--config", cfg.toString())) {
      int[] ports = m.awaitListening(START);
      assertThat(servedSerial(trustBoth, ports[1])).isEqualTo(first.serial());
      assertThat(servedSerial(trustBoth, ports[0])).isEqualTo(first.serial());
      assertThat(export(http, ports[1], OLD)).isEqualTo(200);
      assertThat(export(http, ports[1], NEW)).isEqualTo(401);

      AtomicBoolean stop = new AtomicBoolean();
      Results[] grpc = new Results[1];
      Results[] httpSdk = new Results[1];
      Thread g = exporting(OtlpGrpcLogRecordExporter.builder().setEndpoint("https://127.0.0.1:" + ports[0])
          .setTrustedCertificates(bothCerts).addHeader("Authorization", "Bearer " + KEEP)
          .setTimeout(Duration.ofSeconds(30)).build(), "sighup-grpc", stop, grpc);
      Thread h = exporting(OtlpHttpLogRecordExporter.builder().setEndpoint("https://127.0.0.1:" + ports[1] + "/v1/logs")
          .setTrustedCertificates(bothCerts).addHeader("Authorization", "Bearer " + KEEP)
          .setTimeout(Duration.ofSeconds(30)).build(), "sighup-http", stop, httpSdk);
      Thread.sleep(1_000);

      FileTime crtTime = Files.getLastModifiedTime(crt);
      FileTime keyTime = Files.getLastModifiedTime(key);
      rewriteUnseen(crt, second.chainPem(), crtTime);
      rewriteUnseen(key, second.keyPem(), keyTime);
      Files.writeString(tokens, "# after\n" + KEEP + "\n" + NEW + "\n");
      // Two watch periods: had the watch seen the files, the new certificate would be served by now.
      Thread.sleep(4_500);
      assertThat(servedSerial(trustBoth, ports[1])).as("the watch did not see the in-place rewrite")
          .isEqualTo(first.serial());
      int before = count(m.stderr(), "tls: reloaded");

      m.hangup();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (System.nanoTime() < deadline && count(m.stderr(), "tls: reloaded") == before) {
        Thread.sleep(50);
      }
      assertThat(count(m.stderr(), "tls: reloaded")).as("the signal reloaded TLS:\n" + m.stderr()).isEqualTo(before + 1);
      assertThat(m.stderr()).contains("auth.ingest_tokens: 2 token(s) loaded from " + tokens);
      assertThat(servedSerial(trustBoth, ports[1])).as("HTTP listener").isEqualTo(second.serial());
      assertThat(servedSerial(trustBoth, ports[0])).as("gRPC listener").isEqualTo(second.serial());
      assertThat(servedSerial(trusting(second), ports[1])).isEqualTo(second.serial());
      HttpClient fresh = HttpClient.newBuilder().sslContext(trusting(second)).connectTimeout(Duration.ofSeconds(5)).build();
      assertThat(export(fresh, ports[1], NEW)).as("the added token").isEqualTo(200);
      assertThat(export(fresh, ports[1], OLD)).as("the removed token").isEqualTo(401);
      assertThat(export(fresh, ports[1], KEEP)).as("the kept token").isEqualTo(200);

      Thread.sleep(1_000);
      stop.set(true);
      g.join(30_000);
      h.join(30_000);
      assertThat(grpc[0].codes).as("gRPC exports made").hasSizeGreaterThan(10);
      assertThat(httpSdk[0].codes).as("HTTP exports made").hasSizeGreaterThan(10);
      assertThat(failed(grpc[0])).as("failed gRPC exports").isZero();
      assertThat(failed(httpSdk[0])).as("failed HTTP exports").isZero();
      assertThat(m.process.isAlive()).as("SIGHUP does not stop the process").isTrue();
      m.terminate();
      assertThat(m.awaitExit(Duration.ofSeconds(20))).isZero();
    }
  }

  private static int count(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
