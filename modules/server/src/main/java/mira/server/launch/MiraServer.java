package mira.server.launch;

import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.grpc.GrpcConfig;
import io.helidon.webserver.grpc.GrpcRouting;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.ProtocolConfigs;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionProvider;
import io.helidon.webserver.http2.Http2Config;
import io.helidon.webserver.http2.Http2ConnectionProvider;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.io.IOException;
import java.lang.System.Logger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import mira.server.auth.Access;
import mira.server.auth.BadTokenFile;
import mira.server.auth.ReadGuard;
import mira.server.config.Config;
import mira.server.config.HostPort;
import mira.server.ingest.IngestSink;
import mira.server.tls.BadTlsFile;
import mira.server.tls.ServerTls;
import mira.server.tls.TlsWatch;
import mira.server.otlp.OtlpReceivers;

/**
 * The running process: the two Helidon listeners and everything they serve.
 *
 * <p>The default socket is OTLP/gRPC (HTTP/2 prior knowledge); the socket named {@code http} is
 * HTTP/1.1 for OTLP/HTTP, the query API and the probes. {@link #start} returns only once both are
 * bound; until then {@code /readyz} does not answer 200.
 */
public final class MiraServer implements AutoCloseable {
  private static final Logger LOG = System.getLogger(MiraServer.class.getName());
  static final String HTTP_SOCKET = "http";

  /** How often the TLS files are checked for a change. */
  static final Duration TLS_POLL = Duration.ofSeconds(2);

  private final WebServer web;
  private final AtomicBoolean ready;
  private final Access access;
  private final ServerTls tls;
  private final TlsWatch watch;

  private final List<HeaderDeadline> deadlines;

  private MiraServer(WebServer web, AtomicBoolean ready, Access access, ServerTls tls, List<HeaderDeadline> deadlines) {
    this.web = web;
    this.deadlines = deadlines;
    this.ready = ready;
    this.access = access;
    this.tls = tls;
    this.watch = tls == null ? null
        : new TlsWatch(files(tls), TLS_POLL, this::reloadTls).start();
  }

  private static List<Path> files(ServerTls tls) {
    List<Path> out = new ArrayList<>(List.of(tls.cert(), tls.key()));
    tls.clientCa().ifPresent(out::add);
    return out;
  }

  /**
   * Binds both listeners and starts serving OTLP (gRPC and HTTP) into {@code sink}.
   *
   * @param sink receives every export that decodes and fits {@code ingest.max_request_bytes}
   * @throws StartupException if either address cannot be bound, or a token file cannot be used
   *     (named in the message)
   */
  public static MiraServer start(Config config, DataDirectory.Checked data, IngestSink sink) throws StartupException {
    return start(config, data, sink, r -> { });
  }

  /**
   * As {@link #start(Config, DataDirectory.Checked, IngestSink)}, with {@code api} adding the
   * routes of the HTTP API to the http listener.
   */
  public static MiraServer start(Config config, DataDirectory.Checked data, IngestSink sink,
      Consumer<HttpRouting.Builder> api) throws StartupException {
    // Helidon logs a bind failure and shuts down without saying which socket failed, so each
    // address is tried first; the check after start covers the race of losing one in between.
    requireBindable("gRPC", config.grpcListen());
    requireBindable("HTTP", config.httpListen());
    Access access;
    try {
      access = Access.load(config.ingestTokens(), config.readTokens());
    } catch (BadTokenFile e) {
      throw new StartupException("auth: " + e.getMessage());
    }
    ServerTls tls = null;
    ServerTls.Material material = null;
    if (config.tlsCert().isPresent()) {
      tls = new ServerTls(config.tlsCert().get(), config.tlsKey().orElseThrow(), config.tlsClientCa());
      try {
        material = tls.load();
      } catch (BadTlsFile e) {
        throw new StartupException("tls: " + e.getMessage());
      }
    }
    ServerTls.Material m = material;
    boolean mutual = tls != null && tls.mutual();
    AtomicBoolean ready = new AtomicBoolean();
    OtlpReceivers otlp = new OtlpReceivers(config.maxRequestBytes(), sink, access);
    GrpcRouting.Builder grpc = GrpcRouting.builder();
    otlp.routeGrpc(grpc);
    // Each listener's one protocol is built here rather than discovered by Helidon, so that its
    // connections pass through ConnectionBound (a single selector is also what lets Helidon hand
    // a connection to it right after accept, without reading first).
    HeaderDeadline grpcDeadline = new HeaderDeadline("gRPC", config.headerTimeout(), ConnectionBound.Protocol.HTTP2);
    HeaderDeadline httpDeadline = new HeaderDeadline("HTTP", config.headerTimeout(), ConnectionBound.Protocol.HTTP1);
    ConnectionBound grpcBound = new ConnectionBound("gRPC", config.maxConnections(), ConnectionBound.Protocol.HTTP2,
        grpcDeadline);
    ConnectionBound httpBound = new ConnectionBound("HTTP", config.maxConnections(), ConnectionBound.Protocol.HTTP1,
        httpDeadline);
    Http2Config h2 = http2(m != null);
    GrpcConfig grpcConfig = GrpcConfig.builder().enableCompression(true)
        .maxReadBufferSize(otlp.grpcMaxReadBufferSize()).build();
    ServerConnectionSelector grpcSelector = grpcBound.wrap(new Http2ConnectionProvider()
        .create(WebServer.DEFAULT_SOCKET_NAME, h2, ProtocolConfigs.create(List.of(h2, grpcConfig))));
    Http1Config h1 = Http1Config.builder().maxHeadersSize(Limits.MAX_HEADER_BYTES)
        .maxPrologueLength(Limits.MAX_PROLOGUE_BYTES)
        .addReceiveListener(httpDeadline.received())
        .addSendListener(httpDeadline.sent())
        .build();
    ServerConnectionSelector httpSelector = httpBound.wrap(new Http1ConnectionProvider()
        .create(HTTP_SOCKET, h1, ProtocolConfigs.create(List.of(h1))));
    WebServerConfig.Builder builder = WebServer.builder()
        .shutdownHook(false)
        .host(config.grpcListen().host())
        .port(config.grpcListen().port())
        .protocolsDiscoverServices(false)
        // Nagle's algorithm held the last frames of a gRPC answer (HEADERS, DATA and trailers go
        // out as separate writes) until the client's delayed ACK: ~50 ms on every export.
        .connectionOptions(o -> o.tcpNoDelay(true))
        .maxTcpConnections(grpcBound.helidonLimit())
        .idleConnectionTimeout(Limits.IDLE_TIMEOUT)
        .idleConnectionPeriod(Limits.IDLE_CHECK)
        .addConnectionSelector(grpcSelector)
        .addRouting(grpc)
        .putSocket(HTTP_SOCKET, l -> l
            .host(config.httpListen().host())
            .port(config.httpListen().port())
            .protocolsDiscoverServices(false)
            .connectionOptions(o -> o.tcpNoDelay(true))
            .maxTcpConnections(httpBound.helidonLimit())
            .idleConnectionTimeout(Limits.IDLE_TIMEOUT)
            .idleConnectionPeriod(Limits.IDLE_CHECK)
            .addConnectionSelector(httpSelector)
            // Request bodies reach handlers still encoded: OTLP inflates them itself, under the limit.
            .contentEncoding(OtlpReceivers.httpContentEncoding())
            .routing(r -> {
              r.addFilter(new HeaderBounds());
              r.addFilter(new ReadGuard(access));
              probes(r, ready);
              otlp.routeHttp(r);
              api.accept(r);
            })
            .update(l2 -> {
              if (m != null) {
                l2.tls(m.tls(mutual));
              }
            }));
    if (m != null) {
      builder.tls(m.tls(mutual));
      LOG.log(Level.INFO, "TLS on both listeners" + (mutual ? ", client certificates required" : "") + ": "
          + m.describe());
    }
    WebServer web = builder.build();
    try {
      web.start();
    } catch (RuntimeException e) {
      throw new StartupException("cannot start listeners (gRPC " + config.grpcListen() + ", HTTP "
          + config.httpListen() + "): " + e.getMessage(), e);
    }
    // Helidon does not throw when an address is taken: it logs and leaves that listener down.
    if (!web.isRunning() || web.port() < 0 || web.port(HTTP_SOCKET) < 0) {
      if (web.isRunning()) {
        web.stop();
      }
      requireBindable("gRPC", config.grpcListen());
      requireBindable("HTTP", config.httpListen());
      throw new StartupException("cannot bind gRPC listen address " + config.grpcListen() + " or HTTP listen address "
          + config.httpListen());
    }
    grpcDeadline.start(config.headerTimeout());
    httpDeadline.start(config.headerTimeout());
    ready.set(true);
    return new MiraServer(web, ready, access, tls, List.of(grpcDeadline, httpDeadline));
  }

  /**
   * HTTP/2 settings of the gRPC listener. Over TLS, Helidon 4.5.0's first frame is its ACK of the
   * client's SETTINGS, before its own SETTINGS; OkHttp (the SDK's sender) accepts a SETTINGS ACK
   * as the first frame, but not the connection WINDOW_UPDATE Helidon adds for an initial window
   * above the protocol default ("Expected a SETTINGS frame but was WINDOW_UPDATE", TlsE2eTest).
   * So with TLS the window stays at the default (65,535 bytes). Netty clients refuse even the ACK
   * (docs/security.md).
   */
  private static Http2Config http2(boolean tls) {
    Http2Config.Builder b = Http2Config.builder().maxHeaderListSize(Limits.MAX_HEADER_BYTES);
    if (tls) {
      b.initialWindowSize(65_535);
    }
    return b.build();
  }

  private static void requireBindable(String what, HostPort address) throws StartupException {
    if (address.port() == 0) {
      return;
    }
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getByName(address.host()), address.port()));
    } catch (IOException e) {
      throw new StartupException("cannot bind " + what + " listen address " + address + ": "
          + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    }
  }

  private static void probes(HttpRouting.Builder r, AtomicBoolean ready) {
    r.get("/readyz", (req, res) -> {
      if (ready.get()) {
        res.send("ok\n");
      } else {
        res.status(503).send("starting\n");
      }
    });
    r.get("/health", (req, res) -> {
      if (ready.get()) {
        res.send("ok\n");
      } else {
        res.status(503).send("starting\n");
      }
    });
  }

  /** The bound gRPC port (useful when the config asked for port 0). */
  public int grpcPort() {
    return web.port();
  }

  /** The bound HTTP port. */
  public int httpPort() {
    return web.port(HTTP_SOCKET);
  }

  /**
   * Reads the token files again (SIGHUP). A file that cannot be used is logged and its previous
   * tokens stay in force; requests in flight are not disturbed.
   */
  public void reload() {
    access.reload();
    if (tls != null) {
      reloadTls();
    }
  }

  /**
   * Loads the certificate, key and CA again and hands them to both listeners; connections
   * already open keep the session they have, new handshakes get the new certificate. Material
   * that does not load is logged and the running one stays.
   */
  private synchronized void reloadTls() {
    ServerTls.Material m;
    try {
      m = tls.load();
    } catch (BadTlsFile e) {
      LOG.log(Level.ERROR, "tls: reload refused, the running certificate stays: " + e.getMessage());
      return;
    }
    web.reloadTls(m.tls(tls.mutual()));
    web.reloadTls(HTTP_SOCKET, m.tls(tls.mutual()));
    LOG.log(Level.INFO, "tls: reloaded " + m.describe());
  }

  /** Stops accepting, lets in-flight requests finish and releases both sockets. */
  @Override
  public void close() {
    if (watch != null) {
      watch.close();
    }
    deadlines.forEach(HeaderDeadline::stop);
    if (ready.getAndSet(false) && web.isRunning()) {
      web.stop();
      LOG.log(Level.INFO, "listeners stopped");
    }
  }
}
