package mira.server.launch;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.task.InterruptableTask;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bound on one listener's concurrent connections ({@code server.max_connections}), with a
 * refusal a client can read. Helidon's {@code maxTcpConnections} only stops calling
 * {@code accept} (the permit is taken before it), so past it a client waits in the kernel's
 * backlog with no answer. Here Helidon admits {@link #REFUSING} more than the bound, and a
 * connection past the bound is answered and closed:
 *
 * <ul>
 *   <li>HTTP/1.1: {@code 503} with {@code Connection: close}, {@code Retry-After: 1} and a one-line
 *       body naming the bound;</li>
 *   <li>HTTP/2 (the gRPC listener): the server preface (an empty SETTINGS frame) and
 *       {@code GOAWAY} with last stream 0, {@code ENHANCE_YOUR_CALM} and the same line as debug
 *       data, so no stream was processed and a client may retry.</li>
 * </ul>
 *
 * <p>Over TLS the answer waits for the client's first bytes (so for its handshake). After the
 * answer the refused connection's input is read and dropped until the client closes,
 * for at most {@link #DRAIN}, so a request still arriving does not turn the close into a reset
 * that would discard the answer. A connection is counted from the moment Helidon hands it to its
 * protocol, right after accept (with TLS too: Helidon 4.5.0 shakes hands on the connection's first
 * read or write), until it ends.
 */
final class ConnectionBound {
  private static final Logger LOG = System.getLogger(ConnectionBound.class.getName());

  /** Refusals that may be in progress at once past the bound; Helidon admits bound + this. */
  static final int REFUSING = 64;
  /** How long a refused connection is drained before it is closed. */
  static final Duration DRAIN = Duration.ofSeconds(2);
  private static final int DRAIN_BYTES = 1 << 20;
  private static final long LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

  /** Closes drained connections at their deadline. One daemon thread for the process. */
  static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(
      Thread.ofPlatform().daemon().name("mira-connection-timer").factory());

  enum Protocol { HTTP1, HTTP2 }

  private final String listener;
  private final int max;
  private final byte[] refusal;
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong lastLog = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);

  private final HeaderDeadline deadline;

  /** @param deadline holds every served connection to the header deadline */
  ConnectionBound(String listener, int max, Protocol protocol, HeaderDeadline deadline) {
    this.listener = listener;
    this.max = max;
    this.deadline = deadline;
    String line = "mira: the " + listener + " listener holds its limit of " + max
        + " connections (server.max_connections); try again later";
    this.refusal = protocol == Protocol.HTTP1 ? http503(line) : goAway(line);
  }

  /** What Helidon's own admission is set to: the bound and room to refuse past it. */
  int helidonLimit() {
    return max + REFUSING;
  }

  /** Connections being served now (refused ones not counted). */
  int open() {
    return open.get();
  }

  /** Connections refused since start. */
  long refused() {
    return refused.get();
  }

  /** {@code selector}, with every connection it makes counted against the bound. */
  ServerConnectionSelector wrap(ServerConnectionSelector selector) {
    return new ServerConnectionSelector() {
      @Override
      public int bytesToIdentifyConnection() {
        return selector.bytesToIdentifyConnection();
      }

      @Override
      public Support supports(BufferData data) {
        return selector.supports(data);
      }

      @Override
      public Set<String> supportedApplicationProtocols() {
        return selector.supportedApplicationProtocols();
      }

      @Override
      public ServerConnection connection(ConnectionContext ctx) {
        ConnectionContext watched = deadline.watch(ctx);
        return new Counted(selector.connection(watched), watched);
      }
    };
  }

  private boolean enter() {
    while (true) {
      int n = open.get();
      if (n >= max) {
        return false;
      }
      if (open.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  private void leave() {
    open.decrementAndGet();
  }

  /** Answers with the refusal, drains the input for at most {@link #DRAIN}, and returns (Helidon closes). */
  private void refuse(ConnectionContext ctx) {
    long total = refused.incrementAndGet();
    long now = System.nanoTime();
    long last = lastLog.get();
    if (now - last >= LOG_EVERY_NANOS && lastLog.compareAndSet(last, now)) {
      LOG.log(Level.WARNING, "the " + listener + " listener holds its limit of " + max
          + " connections (server.max_connections); refusing new ones (" + total + " refused since start)");
    }
    // Closing Helidon's socket does not end a TLS connection still waiting for the client's
    // handshake (done on the first write); interrupting this thread closes the channel.
    Thread self = Thread.currentThread();
    ScheduledFuture<?> cut = TIMER.schedule(() -> {
      // Interrupt first: closing a TLS socket whose handshake is waiting blocks until that ends.
      self.interrupt();
      Thread.ofVirtual().start(() -> {
        try {
          ctx.serverSocket().close();
        } catch (RuntimeException e) {
          // The interrupt closed the channel already.
        }
      });
    }, DRAIN.toMillis(), TimeUnit.MILLISECONDS);
    try {
      DataReader in = ctx.dataReader();
      if (ctx.isSecure()) {
        // Helidon 4.5.0 shakes hands on the first read or write, and an answer written by the
        // handshake's write did not reach the client; so over TLS the client's first bytes come first.
        in.ensureAvailable();
      }
      ctx.dataWriter().writeNow(BufferData.create(refusal));
      for (int read = 0; read < DRAIN_BYTES; ) {
        in.ensureAvailable();
        int n = in.available();
        in.skip(n);
        read += n;
      }
    } catch (RuntimeException e) {
      // The client closed, or the drain ran out: either way the connection ends here.
    } finally {
      cut.cancel(false);
      Thread.interrupted();
    }
  }

  private static byte[] http503(String line) {
    byte[] body = (line + "\n").getBytes(StandardCharsets.UTF_8);
    String head = "HTTP/1.1 503 Service Unavailable\r\n"
        + "Content-Type: text/plain; charset=utf-8\r\n"
        + "Content-Length: " + body.length + "\r\n"
        + "Retry-After: 1\r\n"
        + "Connection: close\r\n\r\n";
    byte[] h = head.getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[h.length + body.length];
    System.arraycopy(h, 0, out, 0, h.length);
    System.arraycopy(body, 0, out, h.length, body.length);
    return out;
  }

  /** An empty SETTINGS frame (the server preface) and GOAWAY(last stream 0, ENHANCE_YOUR_CALM, line). */
  static byte[] goAway(String line) {
    byte[] debug = line.getBytes(StandardCharsets.UTF_8);
    int len = 8 + debug.length;
    byte[] out = new byte[9 + 9 + len];
    // SETTINGS: length 0, type 0x4, flags 0, stream 0.
    out[3] = 0x4;
    int o = 9;
    out[o] = (byte) (len >>> 16);
    out[o + 1] = (byte) (len >>> 8);
    out[o + 2] = (byte) len;
    out[o + 3] = 0x7;
    // flags 0, stream 0, last stream id 0 (bytes o+4..o+12 stay zero), error code 0xb.
    out[o + 9 + 7] = 0xb;
    System.arraycopy(debug, 0, out, o + 9 + 8, debug.length);
    return out;
  }

  /** A connection counted while Helidon runs it; past the bound it is refused instead. */
  private final class Counted implements ServerConnection, InterruptableTask<Void> {
    private final ServerConnection delegate;
    private final ConnectionContext ctx;

    Counted(ServerConnection delegate, ConnectionContext ctx) {
      this.delegate = delegate;
      this.ctx = ctx;
    }

    @Override
    public void handle(Limit limit) throws InterruptedException {
      if (!enter()) {
        refuse(ctx);
        return;
      }
      deadline.track(ctx);
      try {
        delegate.handle(limit);
      } finally {
        deadline.forget(ctx);
        leave();
      }
    }

    @Override
    public void handle(Semaphore requestSemaphore) throws InterruptedException {
      if (!enter()) {
        refuse(ctx);
        return;
      }
      deadline.track(ctx);
      try {
        delegate.handle(requestSemaphore);
      } finally {
        deadline.forget(ctx);
        leave();
      }
    }

    @Override
    public Duration idleTime() {
      return delegate.idleTime();
    }

    @Override
    public void close(boolean interrupt) {
      delegate.close(interrupt);
    }

    /** As the protocol's connection says: an HTTP/1.1 connection waiting for a request may be interrupted at shutdown. */
    @Override
    public boolean canInterrupt() {
      return delegate instanceof InterruptableTask<?> t && t.canInterrupt();
    }
  }
}
