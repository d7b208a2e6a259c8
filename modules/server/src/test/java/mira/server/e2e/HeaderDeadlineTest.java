package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import mira.server.config.Key;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * server.header_timeout on a real node, set to 1 s: a connection that sends half a request head
 * (HTTP/1.1), nothing at all, half an HTTP/2 frame or a header block without its end is closed
 * (HTTP/1.1 with a 408 naming the key), while good clients are served: a kept-alive connection
 * idle for longer than the deadline, a body that trickles in for longer than it, and the SDK on
 * both listeners.
 */
class HeaderDeadlineTest {
  private static final String NAMED = "request headers not complete within 1 s (server.header_timeout)";
  private static final byte[] H2_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] EMPTY_SETTINGS = {0, 0, 0, 0x4, 0, 0, 0, 0, 0};

  @TempDir static Path data;
  static Node node;

  @BeforeAll
  static void start() throws Exception {
    node = new Node(data, Map.of(Key.SERVER_HEADER_TIMEOUT, "1s", Key.INGEST_WAL, "true"));
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  private static Socket open(int port) throws IOException {
    Socket s = new Socket("127.0.0.1", port);
    // Generous: the server must close well before this, or the test fails with a timeout.
    s.setSoTimeout(15_000);
    return s;
  }

  private static void send(Socket s, String text) throws IOException {
    s.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
    s.getOutputStream().flush();
  }

  /** Everything the server sends until it closes the connection. */
  private static String untilClosed(Socket s) throws IOException {
    return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  /** Reads one HTTP/1.1 response (head and Content-Length body). */
  private static String response(Socket s) throws IOException {
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
    return h + new String(in.readNBytes(m.find() ? Integer.parseInt(m.group(1)) : 0), StandardCharsets.UTF_8);
  }

  @Test
  void halfARequestHeadIsAnswered408AndClosed() throws Exception {
    try (Socket s = open(node.server.httpPort())) {
      send(s, "GET /readyz HTTP/1.1\r\nHost: mira\r\nX-Half: ab");
      String answer = untilClosed(s);
      assertThat(answer).startsWith("HTTP/1.1 408 Request Timeout\r\n").containsIgnoringCase("connection: close")
          .contains(NAMED);
    }
  }

  @Test
  void aConnectionThatSendsNothingIsClosed() throws Exception {
    try (Socket s = open(node.server.httpPort())) {
      assertThat(untilClosed(s)).startsWith("HTTP/1.1 408");
    }
  }

  @Test
  void aSecondRequestsHalfHeadIsClosedToo() throws Exception {
    try (Socket s = open(node.server.httpPort())) {
      send(s, "GET /readyz HTTP/1.1\r\nHost: mira\r\n\r\n");
      assertThat(response(s)).startsWith("HTTP/1.1 200");
      Thread.sleep(1_500);
      send(s, "GET /readyz HTTP/1.1\r\nHo");
      assertThat(untilClosed(s)).startsWith("HTTP/1.1 408").contains(NAMED);
    }
  }

  @Test
  void aKeptAliveConnectionIdleBeyondTheDeadlineIsStillServed() throws Exception {
    try (Socket s = open(node.server.httpPort())) {
      send(s, "GET /readyz HTTP/1.1\r\nHost: mira\r\n\r\n");
      assertThat(response(s)).startsWith("HTTP/1.1 200");
      // Three deadlines of nothing between requests: that is idle, not a slow header.
      Thread.sleep(3_000);
      send(s, "GET /health HTTP/1.1\r\nHost: mira\r\n\r\n");
      assertThat(response(s)).startsWith("HTTP/1.1 200").endsWith("ok\n");
    }
  }

  @Test
  void aBodyThatTricklesInForLongerThanTheDeadlineIsServed() throws Exception {
    String body = "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"stringValue\":\"slow body\"}}]}]}]}";
    try (Socket s = open(node.server.httpPort())) {
      send(s, "POST /v1/logs HTTP/1.1\r\nHost: mira\r\nContent-Type: application/json\r\nContent-Length: "
          + body.length() + "\r\n\r\n");
      int step = body.length() / 5 + 1;
      for (int i = 0; i < body.length(); i += step) {
        send(s, body.substring(i, Math.min(body.length(), i + step)));
        Thread.sleep(600);
      }
      assertThat(response(s)).startsWith("HTTP/1.1 200").endsWith("{}");
    }
  }

  @Test
  void goodClientsAreServedWhileStalledOnesWait() throws Exception {
    try (Socket stalledHttp = open(node.server.httpPort()); Socket stalledGrpc = open(node.server.grpcPort())) {
      send(stalledHttp, "POST /v1/logs HTTP/1.1\r\nHost: mi");
      stalledGrpc.getOutputStream().write(H2_PREFACE);
      for (int i = 0; i < 3; i++) {
        assertThat(TokenAuthTest.export(TokenAuthTest.Transport.GRPC, node.grpc(), node.http(), null, "good-grpc-" + i))
            .isTrue();
        assertThat(TokenAuthTest.export(TokenAuthTest.Transport.HTTP, node.grpc(), node.http(), null, "good-http-" + i))
            .isTrue();
        assertThat(HttpExchange.send("GET", node.http() + "/api/v1/stats", Map.of(), null, false).status()).isEqualTo(200);
      }
      assertThat(untilClosed(stalledHttp)).startsWith("HTTP/1.1 408");
      untilClosed(stalledGrpc);
    }
  }

  @Test
  void http2HalfAFrameIsClosed() throws Exception {
    try (Socket s = open(node.server.grpcPort())) {
      OutputStream out = s.getOutputStream();
      out.write(H2_PREFACE);
      out.write(EMPTY_SETTINGS, 0, 5);
      out.flush();
      untilClosed(s); // a read timeout here fails the test
    }
  }

  @Test
  void http2AHeaderBlockWithoutItsEndIsClosed() throws Exception {
    try (Socket s = open(node.server.grpcPort())) {
      OutputStream out = s.getOutputStream();
      out.write(H2_PREFACE);
      out.write(EMPTY_SETTINGS);
      // HEADERS on stream 1, one HPACK byte (:method GET), no END_HEADERS: a CONTINUATION must follow.
      out.write(new byte[] {0, 0, 1, 0x1, 0, 0, 0, 0, 1, (byte) 0x82});
      out.flush();
      untilClosed(s);
    }
  }

  @Test
  void http2AnIdleConnectionWithItsPrefaceSentStaysOpen() throws Exception {
    try (Socket s = open(node.server.grpcPort())) {
      OutputStream out = s.getOutputStream();
      out.write(H2_PREFACE);
      out.write(EMPTY_SETTINGS);
      out.flush();
      s.setSoTimeout(3_000);
      InputStream in = s.getInputStream();
      byte[] buf = new byte[1024];
      // The server's own frames, then nothing for three deadlines: still open.
      assertThatThrownBy(() -> {
        while (true) {
          if (in.read(buf) < 0) {
            throw new AssertionError("the server closed an idle HTTP/2 connection");
          }
        }
      }).isInstanceOf(SocketTimeoutException.class);
    }
  }
}
