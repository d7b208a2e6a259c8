package mira.alert;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/** A real HTTP(S) receiver on a loopback port that records every request it is sent. */
final class Receiver implements AutoCloseable {
  /** One request as received. */
  record Request(String method, String path, Map<String, List<String>> headers, String body) {
    String header(String name) {
      for (Map.Entry<String, List<String>> e : headers.entrySet()) {
        if (e.getKey().equalsIgnoreCase(name)) {
          return e.getValue().getFirst();
        }
      }
      return null;
    }
  }

  private final HttpServer server;
  private final LinkedBlockingQueue<Request> received = new LinkedBlockingQueue<>();
  private final List<Request> all = java.util.Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger status = new AtomicInteger(200);
  private final String scheme;

  private Receiver(HttpServer server, String scheme) {
    this.server = server;
    this.scheme = scheme;
    server.createContext("/", ex -> {
      byte[] body = ex.getRequestBody().readAllBytes();
      Request r = new Request(ex.getRequestMethod(), ex.getRequestURI().toString(), Map.copyOf(ex.getRequestHeaders()),
          new String(body, StandardCharsets.UTF_8));
      all.add(r);
      received.add(r);
      byte[] answer = "{\"status\":\"success\"}".getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(status.get(), answer.length);
      ex.getResponseBody().write(answer);
      ex.close();
    });
    server.start();
  }

  static Receiver plain() throws IOException {
    return new Receiver(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0), "http");
  }

  static Receiver tls(SSLContext server) throws IOException {
    HttpsServer s = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    s.setHttpsConfigurator(new HttpsConfigurator(server));
    return new Receiver(s, "https");
  }

  /** The status every later request is answered with. */
  void answer(int code) {
    status.set(code);
  }

  URI url(String path) {
    return URI.create(scheme + "://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  /** The next request not yet taken, waiting up to {@code wait}; null if none came. */
  Request next(Duration wait) throws InterruptedException {
    return received.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Requests not yet taken, without waiting. */
  List<Request> drain() {
    List<Request> out = new ArrayList<>();
    received.drainTo(out);
    return out;
  }

  List<Request> all() {
    synchronized (all) {
      return List.copyOf(all);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
