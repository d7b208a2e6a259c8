package mira.server.launch;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.http.Headers;
import io.helidon.http.Status;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;
import io.helidon.webserver.http1.Http1ConnectionListener;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The deadline for a request's headers ({@code server.header_timeout}), which Helidon 4.5.0 does
 * not have: its socket read timeout and its idle check leave a connection that sent half a header
 * and then nothing open for as long as the client likes (the idle check counts only the wait for
 * a request line as idle).
 *
 * <p>Each connection's reads go through a {@link DataReader} of Mira's over Helidon's, so every
 * arrival of bytes is seen; the connection is armed when a request head (or, on HTTP/2, a frame or
 * header block) has started and disarmed when it is complete. A check every
 * {@link #checkPeriod} closes a connection armed for longer than the deadline:
 *
 * <ul>
 *   <li>HTTP/1.1: armed from the connection's start until its first request's headers are read
 *       (Helidon's receive listener), and after each response from the first byte of the next
 *       request until its headers are read. The wait between requests is not armed: a kept-alive
 *       connection that sends nothing is the idle timeout's (5 minutes). An expired connection is
 *       answered {@code 408} with {@code Connection: close} and closed.</li>
 *   <li>HTTP/2 (gRPC): the bytes are followed frame by frame. Armed from the start until the
 *       client's preface (the 24 bytes and its first frame, SETTINGS) is whole, while a frame is part-way in, and while a header block is open
 *       (HEADERS without END_HEADERS until its last CONTINUATION). An expired connection is closed
 *       without a frame: Helidon's writer may be part-way through one of its own.</li>
 * </ul>
 */
final class HeaderDeadline {
  private static final Logger LOG = System.getLogger(HeaderDeadline.class.getName());
  private static final long LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final String listener;
  private final long timeoutNanos;
  private final boolean http2;
  private final Set<Watched> watched = ConcurrentHashMap.newKeySet();
  private final AtomicLong expired = new AtomicLong();
  private final AtomicLong lastLog = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);
  private final byte[] timeoutAnswer;
  private ScheduledFuture<?> check;

  HeaderDeadline(String listener, Duration timeout, ConnectionBound.Protocol protocol) {
    this.listener = listener;
    this.timeoutNanos = timeout.toNanos();
    this.http2 = protocol == ConnectionBound.Protocol.HTTP2;
    byte[] body = ("mira: request headers not complete within " + timeout.toSeconds()
        + " s (server.header_timeout)\n").getBytes(StandardCharsets.UTF_8);
    byte[] head = ("HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
        + body.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    this.timeoutAnswer = new byte[head.length + body.length];
    System.arraycopy(head, 0, timeoutAnswer, 0, head.length);
    System.arraycopy(body, 0, timeoutAnswer, head.length, body.length);
  }

  /** How often connections are checked: a quarter of the deadline, at most a second. */
  static Duration checkPeriod(Duration timeout) {
    return Duration.ofMillis(Math.clamp(timeout.toMillis() / 4, 50, 1000));
  }

  /** Starts the periodic check. */
  HeaderDeadline start(Duration timeout) {
    long period = checkPeriod(timeout).toMillis();
    check = ConnectionBound.TIMER.scheduleAtFixedRate(this::expire, period, period, TimeUnit.MILLISECONDS);
    return this;
  }

  void stop() {
    if (check != null) {
      check.cancel(false);
    }
  }

  /** Connections closed for an incomplete header since start. */
  long expired() {
    return expired.get();
  }

  /** A context for {@code ctx} whose reads are followed; the protocol's connection is built on it. */
  ConnectionContext watch(ConnectionContext ctx) {
    return new Watched(ctx);
  }

  /** From now until {@link #forget}, {@code ctx} (made by {@link #watch}) is held to the deadline. */
  void track(ConnectionContext ctx) {
    if (ctx instanceof Watched w) {
      w.thread = Thread.currentThread();
      w.armedAt = System.nanoTime();
      watched.add(w);
    }
  }

  void forget(ConnectionContext ctx) {
    if (ctx instanceof Watched w) {
      watched.remove(w);
    }
  }

  /** The HTTP/1.1 receive listener: a request's headers are read. */
  Http1ConnectionListener received() {
    return new Http1ConnectionListener() {
      @Override
      public void headers(ConnectionContext ctx, Headers headers) {
        if (ctx instanceof Watched w) {
          w.inRequest = true;
          w.armedAt = 0;
        }
      }
    };
  }

  /** The HTTP/1.1 send listener: a final response is going out, so the next bytes start a new request. */
  Http1ConnectionListener sent() {
    return new Http1ConnectionListener() {
      @Override
      public void status(ConnectionContext ctx, Status status) {
        if (status.code() >= 200 && ctx instanceof Watched w) {
          w.inRequest = false;
        }
      }
    };
  }

  private void expire() {
    long now = System.nanoTime();
    for (Watched w : watched) {
      long armed = w.armedAt;
      if (armed != 0 && now - armed > timeoutNanos && watched.remove(w)) {
        long total = expired.incrementAndGet();
        long last = lastLog.get();
        if (now - last >= LOG_EVERY_NANOS && lastLog.compareAndSet(last, now)) {
          LOG.log(Level.WARNING, "the " + listener + " listener closed a connection from " + w.remotePeer().host()
              + " whose request headers were not complete within " + timeoutNanos / 1_000_000_000 + " s"
              + " (server.header_timeout; " + total + " since start)");
        }
        Thread.ofVirtual().name("mira-header-timeout").start(() -> w.expire());
      }
    }
  }

  /**
   * A connection's context with its own reader. Fields are written by the connection's thread
   * (and the receive and send listeners, which run on it) and read by the check.
   */
  private final class Watched implements ConnectionContext {
    private final ConnectionContext ctx;
    private final DataReader reader;
    volatile long armedAt;
    volatile boolean inRequest;
    volatile boolean reading;
    /** Whether bytes have come through once: with TLS, the handshake is then done. */
    volatile boolean pulled;
    /** The connection's thread (it runs the protocol's handle). */
    volatile Thread thread;
    // HTTP/2 framing, touched only by the connection's thread.
    private int prefaceLeft = 24;
    private final byte[] frameHead = new byte[9];
    private int frameHeadFill;
    private long payloadLeft;
    private boolean headerBlockOpen;
    /** The preface is the 24 bytes and the client's first frame (its SETTINGS). */
    private boolean frameSeen;

    Watched(ConnectionContext ctx) {
      this.ctx = ctx;
      this.reader = DataReader.create(this::pull);
    }

    /** The next bytes from Helidon's reader, noting when a request has started. */
    private byte[] pull() {
      if (!http2 && !inRequest && armedAt == 0 && reader.available() > 0) {
        // Part of a request head is buffered and more is needed: the request has started.
        armedAt = System.nanoTime();
      }
      DataReader in = ctx.dataReader();
      byte[] bytes;
      reading = true;
      try {
        in.ensureAvailable();
        bytes = in.readBytes(in.available());
      } finally {
        reading = false;
      }
      pulled = true;
      if (http2) {
        follow(bytes);
      } else if (!inRequest && armedAt == 0) {
        armedAt = System.nanoTime();
      }
      return bytes;
    }

    /** Advances the HTTP/2 frame state over {@code bytes}; armed while anything is part-way in. */
    private void follow(byte[] bytes) {
      int i = 0;
      while (i < bytes.length) {
        if (prefaceLeft > 0) {
          int n = Math.min(prefaceLeft, bytes.length - i);
          prefaceLeft -= n;
          i += n;
        } else if (payloadLeft > 0) {
          int n = (int) Math.min(payloadLeft, bytes.length - i);
          payloadLeft -= n;
          i += n;
          frameSeen |= payloadLeft == 0;
        } else {
          frameHead[frameHeadFill++] = bytes[i++];
          if (frameHeadFill == 9) {
            frameHeadFill = 0;
            payloadLeft = ((frameHead[0] & 0xffL) << 16) | ((frameHead[1] & 0xff) << 8) | (frameHead[2] & 0xff);
            frameSeen |= payloadLeft == 0;
            int type = frameHead[3] & 0xff;
            boolean endHeaders = (frameHead[4] & 0x4) != 0;
            if (type == 0x1 || type == 0x5) {
              headerBlockOpen = !endHeaders;
            } else if (type == 0x9 && endHeaders) {
              headerBlockOpen = false;
            }
          }
        }
      }
      boolean partWay = prefaceLeft > 0 || !frameSeen || frameHeadFill > 0 || payloadLeft > 0 || headerBlockOpen;
      if (!partWay) {
        armedAt = 0;
      } else if (armedAt == 0) {
        armedAt = System.nanoTime();
      }
    }

    /**
     * Closes the connection; an HTTP/1.1 connection blocked reading a request head is answered
     * 408 first (with TLS only once the handshake is done: writing would otherwise wait for it).
     * Closing Helidon's socket does not end a TLS connection whose handshake waits for the client
     * (Helidon 4.5.0 shakes hands on the first read or write of its NIO socket), so the
     * connection's thread is also interrupted, which closes the channel it is blocked on.
     */
    void expire() {
      // If the answer cannot be written (the client reads nothing), the close comes anyway.
      ScheduledFuture<?> hard = ConnectionBound.TIMER.schedule(() -> Thread.ofVirtual().start(this::kill),
          1, TimeUnit.SECONDS);
      try {
        if (!http2 && reading && !inRequest && (pulled || !ctx.isSecure())) {
          ctx.dataWriter().writeNow(BufferData.create(timeoutAnswer));
        }
      } catch (RuntimeException e) {
        // The client went away meanwhile; closing is all that is left.
      } finally {
        kill();
        hard.cancel(false);
      }
    }

    /** Interrupts first: closing a TLS socket whose handshake is waiting blocks until that ends. */
    private void kill() {
      Thread t = thread;
      if (t != null) {
        t.interrupt();
      }
      try {
        ctx.serverSocket().close();
      } catch (RuntimeException e) {
        // Already closed.
      }
    }

    @Override
    public DataReader dataReader() {
      return reader;
    }

    @Override
    public ListenerContext listenerContext() {
      return ctx.listenerContext();
    }

    @Override
    public ExecutorService executor() {
      return ctx.executor();
    }

    @Override
    public DataWriter dataWriter() {
      return ctx.dataWriter();
    }

    @Override
    public Router router() {
      return ctx.router();
    }

    @Override
    public Optional<ProxyProtocolData> proxyProtocolData() {
      return ctx.proxyProtocolData();
    }

    @Override
    public HelidonSocket serverSocket() {
      return ctx.serverSocket();
    }

    @Override
    public PeerInfo remotePeer() {
      return ctx.remotePeer();
    }

    @Override
    public PeerInfo localPeer() {
      return ctx.localPeer();
    }

    @Override
    public boolean isSecure() {
      return ctx.isSecure();
    }

    @Override
    public String socketId() {
      return ctx.socketId();
    }

    @Override
    public String childSocketId() {
      return ctx.childSocketId();
    }
  }
}
