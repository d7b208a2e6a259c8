package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import mira.server.config.Key;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile clients on both listeners: hundreds of connections that each write a request one byte
 * at a time do not keep a good client (the SDK over gRPC and HTTP, and plain API requests) from
 * being served; a request with too many header fields is refused with 431.
 */
class SlowlorisTest {
  private static final int PER_LISTENER = 250;

  @TempDir Path data;

  @Test
  void hundredsOfTricklingConnectionsDoNotStopAGoodClient() throws Exception {
    try (Node node = new Node(data, Map.of(Key.INGEST_WAL, "true"))) {
      byte[] http = ("POST /v1/logs HTTP/1.1\r\nHost: mira\r\nContent-Type: application/json\r\nX-Pad: "
          + "a".repeat(200)).getBytes(StandardCharsets.US_ASCII);
      byte[] h2 = ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + "\0".repeat(200)).getBytes(StandardCharsets.ISO_8859_1);
      List<Socket> sockets = new ArrayList<>();
      for (int i = 0; i < PER_LISTENER; i++) {
        sockets.add(new Socket("127.0.0.1", node.server.httpPort()));
        sockets.add(new Socket("127.0.0.1", node.server.grpcPort()));
      }
      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger written = new AtomicInteger();
      Thread trickle = Thread.ofPlatform().start(() -> {
        int pos = 0;
        while (!stop.get() && pos < 200) {
          for (int i = 0; i < sockets.size(); i++) {
            try {
              OutputStream out = sockets.get(i).getOutputStream();
              out.write(i % 2 == 0 ? http[pos] : h2[pos]);
              out.flush();
              written.incrementAndGet();
            } catch (Exception e) {
              // closed by the server: that is allowed
            }
          }
          pos++;
          try {
            Thread.sleep(300);
          } catch (InterruptedException e) {
            return;
          }
        }
      });
      try {
        Thread.sleep(1000); // every hostile connection is open and has started its request
        for (int i = 0; i < 5; i++) {
          assertThat(TokenAuthTest.export(TokenAuthTest.Transport.GRPC, node.grpc(), node.http(), null, "good-grpc-" + i))
              .as("gRPC export %d", i).isTrue();
          assertThat(TokenAuthTest.export(TokenAuthTest.Transport.HTTP, node.grpc(), node.http(), null, "good-http-" + i))
              .as("HTTP export %d", i).isTrue();
          assertThat(HttpExchange.send("GET", node.http() + "/api/v1/stats", Map.of(), null, false).status()).isEqualTo(200);
        }
        assertThat(written.get()).as("the hostile clients were writing meanwhile").isGreaterThan(2 * PER_LISTENER);
      } finally {
        stop.set(true);
        trickle.join();
        for (Socket s : sockets) {
          s.close();
        }
      }
    }
  }

  @Test
  void tooManyHeaderFieldsAre431() throws Exception {
    try (Node node = new Node(data)) {
      Map<String, String> headers = new HashMap<>();
      for (int i = 0; i < 150; i++) {
        headers.put("X-H" + i, "v");
      }
      assertThat(HttpExchange.send("GET", node.http() + "/readyz", headers, null, false).status()).isEqualTo(431);
      assertThat(HttpExchange.send("GET", node.http() + "/readyz", Map.of(), null, false).status()).isEqualTo(200);
    }
  }
}
