package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import mira.server.config.Key;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * server.max_connections on a real node, set to 20: with 20 connections held on a listener the
 * 21st is answered and closed (HTTP: 503 naming the bound with Connection: close; gRPC: SETTINGS
 * and GOAWAY with ENHANCE_YOUR_CALM naming it), the SDK's exports fail, and once some held
 * connections close a new client is served again. The held ones keep being served throughout.
 */
class ConnectionBoundTest {
  private static final int BOUND = 20;
  private static final byte[] H2_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] EMPTY_SETTINGS = {0, 0, 0, 0x4, 0, 0, 0, 0, 0};
  private static final String NAMED = "limit of " + BOUND + " connections (server.max_connections)";

  @TempDir Path data;

  private static Node node(Path data) throws Exception {
    return new Node(data, Map.of(Key.SERVER_MAX_CONNECTIONS, Integer.toString(BOUND), Key.INGEST_WAL, "true"));
  }

  /** Sends a GET on {@code s} and reads one response (status line to the end of its body). */
  private static String get(Socket s, String path) throws IOException {
    OutputStream out = s.getOutputStream();
    out.write(("GET " + path + " HTTP/1.1\r\nHost: mira\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    InputStream in = s.getInputStream();
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed after " + head.toString(StandardCharsets.US_ASCII));
      }
      head.write(b);
    }
    String h = head.toString(StandardCharsets.US_ASCII);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(h);
    int len = m.find() ? Integer.parseInt(m.group(1)) : 0;
    return h + new String(in.readNBytes(len), StandardCharsets.UTF_8);
  }

  /** Everything the server sends on {@code s} until it closes (fails if it does not within 10 s). */
  private static byte[] untilClosed(Socket s) throws IOException {
    s.setSoTimeout(10_000);
    return s.getInputStream().readAllBytes();
  }

  private static void await(String what, BooleanSupplier ok) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (!ok.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 15 s: " + what);
      }
      Thread.sleep(100);
    }
  }

  private static Socket h2(int port) throws IOException {
    Socket s = new Socket("127.0.0.1", port);
    s.setSoTimeout(10_000);
    s.getOutputStream().write(H2_PREFACE);
    s.getOutputStream().write(EMPTY_SETTINGS);
    s.getOutputStream().flush();
    return s;
  }

  /** Reads one HTTP/2 frame: {type, flags, payload...} as type, then the payload. */
  private static int[] frameHeader(DataInputStream in) throws IOException {
    int len = (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
    int type = in.readUnsignedByte();
    int flags = in.readUnsignedByte();
    in.readInt();
    return new int[] {len, type, flags};
  }

  @Test
  void pastTheBoundAnHttpClientGets503NamingItAndIsServedOnceConnectionsClose() throws Exception {
    try (Node n = node(data)) {
      List<Socket> held = new ArrayList<>();
      try {
        for (int i = 0; i < BOUND; i++) {
          Socket s = new Socket("127.0.0.1", n.server.httpPort());
          s.setSoTimeout(10_000);
          held.add(s);
          assertThat(get(s, "/readyz")).as("held connection %d", i).startsWith("HTTP/1.1 200");
        }
        try (Socket extra = new Socket("127.0.0.1", n.server.httpPort())) {
          extra.getOutputStream().write("GET /readyz HTTP/1.1\r\nHost: mira\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
          String answer = new String(untilClosed(extra), StandardCharsets.UTF_8);
          assertThat(answer).startsWith("HTTP/1.1 503 Service Unavailable\r\n").containsIgnoringCase("connection: close\r\n")
              .contains("Retry-After: 1\r\n").contains("the HTTP listener holds its " + NAMED);
        }
        HttpExchange r = HttpExchange.send("GET", n.http() + "/api/v1/stats", Map.of(), null, false);
        assertThat(r.status()).as("HttpURLConnection past the bound").isEqualTo(503);
        assertThat(r.text()).contains(NAMED);
        assertThat(TokenAuthTest.export(TokenAuthTest.Transport.HTTP, n.grpc(), n.http(), null, "refused-http"))
            .as("an SDK export past the bound").isFalse();
        assertThat(get(held.getFirst(), "/readyz")).as("a held connection is still served").startsWith("HTTP/1.1 200");

        for (int i = 0; i < 5; i++) {
          held.removeLast().close();
        }
        await("a new HTTP client is served", () -> {
          try {
            return HttpExchange.send("GET", n.http() + "/readyz", Map.of(), null, false).status() == 200;
          } catch (Exception e) {
            return false;
          }
        });
        assertThat(TokenAuthTest.export(TokenAuthTest.Transport.HTTP, n.grpc(), n.http(), null, "served-http"))
            .as("an SDK export once connections closed").isTrue();
      } finally {
        for (Socket s : held) {
          s.close();
        }
      }
    }
  }

  @Test
  void pastTheBoundAGrpcClientGetsGoawayNamingItAndIsServedOnceConnectionsClose() throws Exception {
    try (Node n = node(data)) {
      List<Socket> held = new ArrayList<>();
      try {
        for (int i = 0; i < BOUND; i++) {
          Socket s = h2(n.server.grpcPort());
          held.add(s);
          int[] f = frameHeader(new DataInputStream(s.getInputStream()));
          assertThat(f[1]).as("held connection %d gets the server's SETTINGS", i).isEqualTo(0x4);
        }
        try (Socket extra = h2(n.server.grpcPort())) {
          DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(untilClosed(extra)));
          int[] settings = frameHeader(in);
          assertThat(settings[1]).as("the server preface comes first").isEqualTo(0x4);
          in.skipNBytes(settings[0]);
          int[] goAway = frameHeader(in);
          assertThat(goAway[1]).as("then GOAWAY").isEqualTo(0x7);
          assertThat(in.readInt()).as("last stream id: none processed").isZero();
          assertThat(in.readInt()).as("ENHANCE_YOUR_CALM").isEqualTo(0xb);
          String debug = new String(in.readNBytes(goAway[0] - 8), StandardCharsets.UTF_8);
          assertThat(debug).contains("the gRPC listener holds its " + NAMED);
        }
        assertThat(TokenAuthTest.export(TokenAuthTest.Transport.GRPC, n.grpc(), n.http(), null, "refused-grpc"))
            .as("an SDK export past the bound").isFalse();
        for (int i = 0; i < 5; i++) {
          held.removeLast().close();
        }
        await("a new gRPC client is served", () ->
            TokenAuthTest.export(TokenAuthTest.Transport.GRPC, n.grpc(), n.http(), null, "served-grpc"));
        // The HTTP listener is counted apart: it was never full.
        assertThat(TokenAuthTest.export(TokenAuthTest.Transport.HTTP, n.grpc(), n.http(), null, "http-meanwhile")).isTrue();
      } finally {
        for (Socket s : held) {
          s.close();
        }
      }
    }
  }
}
