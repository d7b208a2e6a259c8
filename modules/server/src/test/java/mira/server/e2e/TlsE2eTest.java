package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporterBuilder;
import io.opentelemetry.exporter.otlp.logs.OtlpGrpcLogRecordExporter;
import io.opentelemetry.exporter.otlp.logs.OtlpGrpcLogRecordExporterBuilder;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.resources.Resource;
import java.math.BigInteger;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import mira.server.config.Key;
import mira.server.launch.StartupException;
import mira.server.testing.TestPki;
import mira.server.testing.TestPki.KeyForm;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tls.cert, tls.key and tls.client_ca on a real node, with a CA made at test time: the SDK exports
 * over TLS (gRPC with ALPN h2, and HTTPS), a client that trusts another CA or speaks plain TCP is
 * refused, mTLS admits only clients with a certificate of the client CA, a bad file stops the
 * start naming it, and the certificate is rotated on reload and on a file change while a client
 * keeps exporting, without one failed export.
 */
class TlsE2eTest {
  enum Transport { GRPC, HTTP }

  @TempDir static Path dir;
  static TestPki ca;
  static TestPki other;
  static TestPki.Leaf server;
  static TestPki.Leaf client;
  static TestPki.Leaf stranger;

  @BeforeAll
  static void pki() throws Exception {
    ca = new TestPki(dir, "mira-test-ca");
    other = new TestPki(dir, "other-ca");
    server = ca.leaf("mira-server", "RSA", KeyForm.PKCS1_RSA);
    client = ca.leaf("exporter", "EC", KeyForm.PKCS8);
    stranger = other.leaf("stranger", "EC", KeyForm.PKCS8);
  }

  private static Path copy(Path from, String name) throws Exception {
    return Files.copy(from, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
  }

  private static Node node(String tag, boolean mutual) throws Exception {
    Map<Key, String> flags = new java.util.EnumMap<>(Key.class);
    flags.put(Key.TLS_CERT, copy(server.chain(), tag + ".crt").toString());
    flags.put(Key.TLS_KEY, copy(server.key(), tag + ".key").toString());
    if (mutual) {
      flags.put(Key.TLS_CLIENT_CA, ca.caPem.toString());
    }
    // Acknowledged from the log: an ack then takes milliseconds, not a block's age.
    flags.put(Key.INGEST_WAL, "true");
    return new Node(dir.resolve(tag + "-data"), flags);
  }

  static String grpcs(Node n) {
    return "https://127.0.0.1:" + n.server.grpcPort();
  }

  static String https(Node n) {
    return "https://127.0.0.1:" + n.server.httpPort();
  }

  /** An SDK exporter trusting {@code trust}'s CA and presenting {@code identity}, if any. */
  static LogRecordExporter exporter(Transport t, Node n, TestPki trust, TestPki.Leaf identity) throws Exception {
    return switch (t) {
      case GRPC -> {
        OtlpGrpcLogRecordExporterBuilder b = OtlpGrpcLogRecordExporter.builder().setEndpoint(grpcs(n))
            .setTimeout(Duration.ofSeconds(30)).setTrustedCertificates(trust.caBytes());
        if (identity != null) {
          b.setClientTls(identity.keyPem(), identity.chainPem());
        }
        yield b.build();
      }
      case HTTP -> {
        OtlpHttpLogRecordExporterBuilder b = OtlpHttpLogRecordExporter.builder().setEndpoint(https(n) + "/v1/logs")
            .setTimeout(Duration.ofSeconds(30)).setTrustedCertificates(trust.caBytes());
        if (identity != null) {
          b.setClientTls(identity.keyPem(), identity.chainPem());
        }
        yield b.build();
      }
    };
  }

  /** Exports {@code count} records through a Batch processor; how many exports the SDK saw fail. */
  static int failures(LogRecordExporter otlp, String body, int count, Runnable between) {
    return failures(otlp, body, count, between, () -> false);
  }

  /** As above, stopping early once {@code done} says so. */
  static int failures(LogRecordExporter otlp, String body, int count, Runnable between,
      java.util.function.BooleanSupplier done) {
    TokenAuthTest.Results results = new TokenAuthTest.Results(otlp);
    try (SdkLoggerProvider provider = SdkLoggerProvider.builder()
        .setResource(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "tls-test")))
        .addLogRecordProcessor(BatchLogRecordProcessor.builder(results).setScheduleDelay(Duration.ofMillis(20)).build())
        .build()) {
      for (int i = 0; i < count && !done.getAsBoolean(); i++) {
        provider.get("tls").logRecordBuilder().setBody(body + i).emit();
        provider.forceFlush().join(20, TimeUnit.SECONDS);
        between.run();
      }
    }
    assertThat(results.codes).as("exports made").hasSizeGreaterThanOrEqualTo(Math.min(count, 1));
    int failed = 0;
    for (CompletableResultCode r : results.codes) {
      r.join(20, TimeUnit.SECONDS);
      if (!r.isSuccess()) {
        failed++;
        System.err.println("export failed: done=" + r.isDone() + " " + r.getFailureThrowable());
      }
    }
    return failed;
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static boolean exports(Transport t, Node n, TestPki trust, TestPki.Leaf identity) throws Exception {
    return failures(exporter(t, n, trust, identity), "one-" + t, 1, () -> { }) == 0;
  }

  /** The serial of the certificate the HTTP listener presents to a new handshake. */
  static BigInteger servedSerial(Node n, SSLContext context) throws Exception {
    try (SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", n.server.httpPort())) {
      s.startHandshake();
      return ((X509Certificate) s.getSession().getPeerCertificates()[0]).getSerialNumber();
    }
  }

  static int status(String url, SSLContext context) throws Exception {
    HttpsURLConnection c = (HttpsURLConnection) URI.create(url).toURL().openConnection();
    c.setSSLSocketFactory(context.getSocketFactory());
    c.setConnectTimeout(5_000);
    c.setReadTimeout(10_000);
    return c.getResponseCode();
  }

  @Test
  void theSdkExportsOverTlsAndOtherClientsAreRefused() throws Exception {
    try (Node n = node("plain-tls", false)) {
      for (Transport t : Transport.values()) {
        assertThat(exports(t, n, ca, null)).as(t + " with the test CA").isTrue();
        assertThat(exports(t, n, other, null)).as(t + " trusting another CA").isFalse();
      }
      assertThat(status(https(n) + "/readyz", ca.clientContext(null))).isEqualTo(200);
      // Plain HTTP to the TLS port is not answered as HTTP.
      assertThatThrownBy(() -> mira.server.testing.HttpExchange.send("GET",
          "http://127.0.0.1:" + n.server.httpPort() + "/readyz", Map.of(), null, false))
          .isInstanceOf(java.io.IOException.class);
      assertThat(n.ingest.stats().of(mira.proto.wire.Signal.LOGS).recordsAccepted.sum()).isEqualTo(2);
    }
  }

  /**
   * grpc-java over Netty, the other common gRPC stack. Disabled because it fails against Helidon
   * 4.5.0: over TLS the server's first HTTP/2 frame is its ACK of the client's SETTINGS, not its
   * own SETTINGS (Netty: "First received frame was not SETTINGS. Hex dump for first 5 bytes:
   * 0000000401"). OkHttp, the OpenTelemetry Java SDK's sender, accepts that order; Netty does not.
   * Setting writeQueueLength(0) and smartAsyncWrites(false) on the listener did not change it.
   * Enable it when Helidon sends its preface first.
   */
  @org.junit.jupiter.api.Disabled("Helidon 4.5.0 sends SETTINGS ACK before its own SETTINGS over TLS; see docs/security.md")
  @Test
  void aNettyGrpcClientExportsOverTls() throws Exception {
    try (Node n = node("netty-tls", false);
         mira.server.testing.RawGrpcClient c = new mira.server.testing.RawGrpcClient("127.0.0.1", n.server.grpcPort(),
             io.grpc.TlsChannelCredentials.newBuilder().trustManager(ca.caPem.toFile()).build())) {
      c.export(mira.proto.wire.Signal.LOGS, mira.server.testing.Samples.logs(3).toByteArray(), null);
      assertThat(n.ingest.stats().of(mira.proto.wire.Signal.LOGS).recordsAccepted.sum()).isEqualTo(3);
    }
  }

  @Test
  void mutualTlsAdmitsOnlyClientsWithACertificateOfTheClientCa() throws Exception {
    try (Node n = node("mtls", true)) {
      for (Transport t : Transport.values()) {
        assertThat(exports(t, n, ca, client)).as(t + " with a client certificate").isTrue();
        assertThat(exports(t, n, ca, null)).as(t + " without one").isFalse();
        assertThat(exports(t, n, ca, stranger)).as(t + " with one of another CA").isFalse();
      }
      assertThat(status(https(n) + "/readyz", ca.clientContext(client))).isEqualTo(200);
      assertThat(n.ingest.stats().of(mira.proto.wire.Signal.LOGS).recordsAccepted.sum()).isEqualTo(2);
    }
  }

  @Test
  void aBadFileAtStartIsAOneLineRefusalNamingIt() throws Exception {
    Path junk = Files.writeString(dir.resolve("junk.crt"), "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    assertThatThrownBy(() -> new Node(dir.resolve("bad-data"), Map.of(Key.TLS_CERT, junk.toString(),
        Key.TLS_KEY, server.key().toString())))
        .isInstanceOf(StartupException.class).hasMessageStartingWith("tls: " + junk + ": ")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void theCertificateRotatesOnReloadAndOnAFileChangeWhileAClientExports() throws Exception {
    TestPki.Leaf second = ca.leaf("mira-server-2", "EC", KeyForm.SEC1_EC);
    TestPki.Leaf third = ca.leaf("mira-server-3", "RSA", KeyForm.PKCS8);
    try (Node n = node("rotate", false)) {
      Path crt = dir.resolve("rotate.crt");
      Path key = dir.resolve("rotate.key");
      SSLContext trust = ca.clientContext(null);
      assertThat(servedSerial(n, trust)).isEqualTo(server.serial());
      AtomicBoolean stop = new AtomicBoolean();
      int[] grpcFailed = new int[1];
      Thread grpc = Thread.ofPlatform().start(() -> {
        try {
          grpcFailed[0] += failures(exporter(Transport.GRPC, n, ca, null), "rot-grpc-", 60, () -> sleep(100), stop::get);
        } catch (Exception ex) {
          grpcFailed[0] += 1000;
        }
      });
      int[] step = new int[1];
      int httpFailed = failures(exporter(Transport.HTTP, n, ca, null), "rot-http-", 40, () -> {
        try {
          step[0]++;
          if (step[0] == 10) {
            // SIGHUP's path: both files replaced, then the reload.
            Files.copy(second.chain(), crt, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(second.key(), key, StandardCopyOption.REPLACE_EXISTING);
            n.server.reload();
            assertThat(servedSerial(n, trust)).isEqualTo(second.serial());
          } else if (step[0] == 20) {
            // A key that does not match is refused; the running certificate stays.
            Files.copy(third.key(), key, StandardCopyOption.REPLACE_EXISTING);
            n.server.reload();
            assertThat(servedSerial(n, trust)).isEqualTo(second.serial());
            // The watch: the matching certificate arrives; no reload is called.
            Files.copy(third.chain(), crt, StandardCopyOption.REPLACE_EXISTING);
          } else if (step[0] > 20 && step[0] < 38) {
            Thread.sleep(200);
          }
        } catch (Exception ex) {
          throw new AssertionError(ex);
        }
      });
      grpc.join(60_000);
      stop.set(true);
      assertThat(servedSerial(n, trust)).as("the watch picked up the file change").isEqualTo(third.serial());
      assertThat(httpFailed).as("failed HTTP exports").isZero();
      assertThat(grpcFailed[0]).as("failed gRPC exports").isZero();
    }
  }
}
