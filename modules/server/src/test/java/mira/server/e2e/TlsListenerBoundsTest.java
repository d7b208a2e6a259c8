package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import mira.server.config.Key;
import mira.server.testing.TestPki;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * server.header_timeout and server.max_connections with TLS on: Helidon 4.5.0 shakes hands on a
 * connection's first read or write, after it has handed the connection to its protocol, so a
 * client that connects and never starts its handshake is held to the header deadline (closed on
 * both listeners) and counted against the bound, and a client past the bound reads the 503 over TLS.
 * A kept-alive TLS connection idle for longer than the deadline is still served.
 */
class TlsListenerBoundsTest {
  @TempDir Path dir;

  private Node node(TestPki ca, Map<Key, String> extra) throws Exception {
    TestPki.Leaf leaf = ca.leaf("mira-server", "EC", TestPki.KeyForm.PKCS8);
    Map<Key, String> flags = new java.util.EnumMap<>(Key.class);
    flags.put(Key.TLS_CERT, leaf.chain().toString());
    flags.put(Key.TLS_KEY, leaf.key().toString());
    flags.putAll(extra);
    return new Node(dir.resolve("data"), flags);
  }

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

  private static SSLSocket tls(SSLContext trust, int port) throws IOException {
    SSLSocket s = (SSLSocket) trust.getSocketFactory().createSocket("127.0.0.1", port);
    s.setSoTimeout(15_000);
    s.startHandshake();
    return s;
  }

  private static void get(Socket s) throws IOException {
    s.getOutputStream().write("GET /readyz HTTP/1.1\r\nHost: mira\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
  }

  @Test
  void aHandshakeThatNeverStartsIsClosedAtTheHeaderDeadlineAndAnIdleTlsConnectionIsNot() throws Exception {
    TestPki ca = new TestPki(dir, "ca");
    try (Node n = node(ca, Map.of(Key.SERVER_HEADER_TIMEOUT, "1s"));
         Socket rawHttp = new Socket("127.0.0.1", n.server.httpPort());
         Socket rawGrpc = new Socket("127.0.0.1", n.server.grpcPort());
         SSLSocket idle = tls(ca.clientContext(null), n.server.httpPort())) {
      get(idle);
      assertThat(response(idle)).startsWith("HTTP/1.1 200");
      for (Socket s : List.of(rawHttp, rawGrpc)) {
        s.setSoTimeout(15_000);
        // Nothing sent, not even a ClientHello: a read timeout here fails the test.
        assertThat(s.getInputStream().read()).as("closed without a byte").isEqualTo(-1);
      }
      Thread.sleep(2_000);
      get(idle);
      assertThat(response(idle)).as("kept alive across two deadlines").startsWith("HTTP/1.1 200");
    }
  }

  @Test
  void pastTheBoundATlsClientReadsThe503AndAStalledHandshakeIsClosedAfterTheDrain() throws Exception {
    TestPki ca = new TestPki(dir, "ca");
    SSLContext trust = ca.clientContext(null);
    try (Node n = node(ca, Map.of(Key.SERVER_MAX_CONNECTIONS, "2", Key.SERVER_HEADER_TIMEOUT, "60s"))) {
      List<Socket> held = new ArrayList<>();
      try {
        for (int i = 0; i < 2; i++) {
          SSLSocket s = tls(trust, n.server.httpPort());
          held.add(s);
          get(s);
          assertThat(response(s)).startsWith("HTTP/1.1 200");
        }
        try (SSLSocket extra = tls(trust, n.server.httpPort())) {
          get(extra);
          String answer = new String(extra.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
          assertThat(answer).startsWith("HTTP/1.1 503").contains("limit of 2 connections (server.max_connections)");
        }
        try (Socket stalled = new Socket("127.0.0.1", n.server.httpPort())) {
          stalled.setSoTimeout(15_000);
          // Past the bound and never shaking hands: the 2 s drain ends it, not the 60 s deadline.
          assertThat(stalled.getInputStream().read()).isEqualTo(-1);
        }
        Socket kept = held.getFirst();
        get(kept);
        assertThat(response(kept)).as("a held connection is still served").startsWith("HTTP/1.1 200");
        kept.setSoTimeout(500);
        assertThatThrownBy(() -> kept.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
      } finally {
        for (Socket s : held) {
          s.close();
        }
      }
    }
  }
}
