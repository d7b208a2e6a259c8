package mira.server.otlp;

import com.google.rpc.Code;
import com.google.rpc.Status;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import mira.proto.wire.Signal;
import mira.server.auth.Access;
import mira.server.auth.Challenge;
import mira.server.ingest.IngestSink;
import mira.server.ingest.IngestSink.Outcome;

/**
 * {@code POST /v1/<signal>} (OTLP/HTTP). Checks method, Content-Type and Content-Encoding before it
 * reads a byte, reads the body into one array (sized by Content-Length when there is one), inflates
 * it under the limit, converts JSON to protobuf, and answers what the sink says in the request's
 * content type.
 */
final class HttpExportHandler implements Handler {
  private static final Logger LOG = System.getLogger(HttpExportHandler.class.getName());
  static final String PROTOBUF = "application/x-protobuf";
  static final String JSON = "application/json";
  private static final String SUPPORTED_TYPES = PROTOBUF + " or " + JSON;
  private static final String SUPPORTED_ENCODINGS = "gzip, zstd or identity (or no Content-Encoding)";
  private static final byte[] EMPTY = new byte[0];
  private static final RequestBuffers BUFFERS = RequestBuffers.shared();
  private static final byte[] EMPTY_JSON = "{}".getBytes(StandardCharsets.US_ASCII);
  /**
   * Heap held while an OTLP/JSON body is converted, per byte of it: the body, protobuf-java's
   * objects for it and the protobuf bytes they become.
   */
  private static final long JSON_HEAP_FACTOR = 6;
  /** How many times the limit a refused body may be read and dropped to keep the connection. */
  private static final long DISCARD_FACTOR = 4;

  /** How the response body is written: as the request's content type, or as text if that is unknown. */
  private enum Format { PROTOBUF, JSON, TEXT }

  private enum Encoding { IDENTITY, GZIP, ZSTD }

  private final Signal signal;
  private final int limit;
  private final IngestSink sink;
  private final JsonDecoder json;
  private final Access access;

  HttpExportHandler(Signal signal, int limit, IngestSink sink, JsonDecoder json, Access access) {
    this.signal = signal;
    this.limit = limit;
    this.sink = sink;
    this.json = json;
    this.access = access;
  }

  @Override
  public void handle(ServerRequest req, ServerResponse res) {
    try {
      answer(req, res);
    } finally {
      int code = res.status().code();
      if (code == 405 || code == 413 || code == 415) {
        sink.refusedAtReceiver(signal, code);
      }
    }
  }

  private void answer(ServerRequest req, ServerResponse res) {
    Optional<String> contentType = req.headers().first(HeaderNames.CONTENT_TYPE);
    Format format = format(contentType);
    if (access.checks(Access.Need.INGEST)) {
      // First, so that a client without a token learns nothing else about the route.
      String authorization = req.headers().first(HeaderNames.AUTHORIZATION).orElse(null);
      if (!access.allows(Access.Need.INGEST, authorization)) {
        res.header(HeaderNames.WWW_AUTHENTICATE, Challenge.of(authorization));
        refuse(req, res, format == null ? Format.TEXT : format, 401, Challenge.message("OTLP export", authorization));
        return;
      }
    }
    if (!req.prologue().method().equals(Method.POST)) {
      res.header(HeaderNames.ALLOW, "POST");
      refuse(req, res, format == null ? Format.TEXT : format, 405,
          req.prologue().method().text() + " is not allowed on " + req.path().path() + "; use POST");
      return;
    }
    if (format == null) {
      refuse(req, res, Format.TEXT, 415, contentType
          .map(t -> "Content-Type \"" + t + "\" is not supported; send " + SUPPORTED_TYPES)
          .orElse("Content-Type is missing; send " + SUPPORTED_TYPES));
      return;
    }
    Optional<String> contentEncoding = req.headers().first(HeaderNames.CONTENT_ENCODING);
    Encoding encoding = encoding(contentEncoding);
    if (encoding == null) {
      refuse(req, res, format, 415,
          "Content-Encoding \"" + contentEncoding.orElse("") + "\" is not supported; send " + SUPPORTED_ENCODINGS);
      return;
    }
    OptionalLong declared = req.headers().contentLength();
    if (declared.isPresent() && declared.getAsLong() > limit) {
      refuse(req, res, format, 413, Statuses.tooLarge(
          "request body (Content-Length " + declared.getAsLong() + ")", limit));
      return;
    }

    // The body, and for JSON the object graph and the protobuf it becomes, are held in the heap
    // before the sink sees them: ingest's budget is asked for them first. (A chunked body has no
    // length to ask for, and an encoded one inflates to more: both are counted once submitted.)
    long room = declared.orElse(0) * (format == Format.JSON ? JSON_HEAP_FACTOR : 1);
    IngestSink.Retry full = sink.reserve(signal, room);
    if (full != null) {
      res.header(HeaderNames.RETRY_AFTER, Long.toString(Statuses.retryAfterSeconds(full.after())));
      shed(req, res, format, Statuses.retry(full.message(), full.after()));
      return;
    }
    try {
      readAndSubmit(req, res, format, encoding, declared);
    } finally {
      sink.release(room);
    }
  }

  private void readAndSubmit(ServerRequest req, ServerResponse res, Format format, Encoding encoding,
      OptionalLong declared) {
    Body body;
    InputStream in = req.content().inputStream();
    try {
      body = declared.isPresent()
          ? BoundedBodies.readExactly(in, (int) declared.getAsLong())
          : BoundedBodies.readAtMost(in, -1, limit);
    } catch (TooLarge e) {
      // Chunked, so there was no length to refuse early on; the rest is discarded (up to a bound).
      String message = Statuses.tooLarge("request body", limit);
      if (discardRest(in)) {
        reply(res, format, 413, message);
      } else {
        replyAndClose(res, format, 413, message);
      }
      return;
    } catch (IOException | UncheckedIOException e) {
      replyAndClose(res, format, 400, "cannot read the request body: " + message(e));
      return;
    }
    // From here the whole body has been read, so the connection stays usable whatever the answer.
    Body wire = body;
    try {
      body = switch (encoding) {
        case IDENTITY -> body;
        case GZIP -> BoundedBodies.gunzip(body, limit);
        case ZSTD -> BoundedBodies.unzstd(body, limit);
      };
    } catch (TooLarge e) {
      reply(res, format, 413, Statuses.tooLarge(encoding.name().toLowerCase(Locale.ROOT) + "-inflated request body", limit));
      return;
    } catch (IOException e) {
      reply(res, format, 400, encoding.name().toLowerCase(Locale.ROOT) + " request body does not inflate: " + message(e));
      return;
    } catch (LinkageError e) {
      // zstd-jni extracts a native library on first use; a read-only or noexec temp dir stops it.
      reply(res, format, 415, "zstd is unavailable on this server (" + message(e) + "); send gzip or identity");
      return;
    } finally {
      if (body != wire) {
        BUFFERS.give(wire.bytes());
      }
    }
    if (format == Format.JSON) {
      Body text = body;
      try {
        byte[] protobuf = json.toProtobuf(signal, body.bytes(), body.length());
        body = new Body(protobuf, protobuf.length);
      } catch (BadBody e) {
        reply(res, format, e.httpStatus(), e.getMessage());
        return;
      } finally {
        BUFFERS.give(text.bytes());
      }
    }

    Outcome outcome;
    try {
      outcome = sink.submit(signal, body.bytes(), body.length());
    } finally {
      // The sink keeps nothing of the array once it returns (IngestSink.submit).
      BUFFERS.give(body.bytes());
    }
    switch (outcome) {
      case IngestSink.Accepted a -> {
        res.status(200);
        res.header(HeaderNames.CONTENT_TYPE, format == Format.JSON ? JSON : PROTOBUF);
        res.send(format == Format.JSON ? EMPTY_JSON : EMPTY);
      }
      case IngestSink.Invalid i -> reply(res, format, 400, i.message());
      case IngestSink.Retry r -> {
        res.header(HeaderNames.RETRY_AFTER, Long.toString(Statuses.retryAfterSeconds(r.after())));
        reply(res, format, 503, Statuses.retry(r.message(), r.after()));
      }
      case IngestSink.Permanent p -> reply(res, format, 500, p.message());
    }
  }

  /**
   * Answers without having read the body. A client that sends its whole body before reading the
   * answer (most do) sees a reset instead of the answer if the server closes with the body unread,
   * so an unread body is discarded, up to {@link #discardLimit()} bytes: Helidon discards a body
   * of declared length after the response unless the connection is to close, and a chunked body is
   * discarded here. A longer body closes the connection, as does a client still waiting for
   * {@code 100 Continue}.
   */
  private void refuse(ServerRequest req, ServerResponse res, Format format, int httpStatus, String message) {
    OptionalLong declared = req.headers().contentLength();
    boolean close;
    if (req.headers().containsToken(HeaderValues.EXPECT_100) && !req.continueSent()) {
      // The client waits for 100 Continue before it sends the body, and after this answer it will
      // not send it: draining would take its next request for the body.
      close = true;
    } else if (declared.isPresent()) {
      close = declared.getAsLong() > discardLimit();
    } else {
      close = req.headers().contains(HeaderNames.TRANSFER_ENCODING) && !discardRest(req.content().inputStream());
    }
    if (close) {
      replyAndClose(res, format, httpStatus, message);
    } else {
      reply(res, format, httpStatus, message);
    }
  }

  /**
   * Answers 503 to a body the heap budget has no room for, without holding it: the body is read
   * through a small buffer and dropped before the answer goes out, so the connection is left at
   * the start of the next request and the client, which may read the answer while it still sends,
   * never waits on a connection that neither reads its body nor ends. A client waiting for
   * {@code 100 Continue}, or a body that does not end within {@link #discardLimit()}, has the
   * connection closed with the answer instead.
   */
  private void shed(ServerRequest req, ServerResponse res, Format format, Status message) {
    boolean waitsForContinue = req.headers().containsToken(HeaderValues.EXPECT_100) && !req.continueSent();
    if (waitsForContinue || !discardRest(req.content().inputStream())) {
      replyAndClose(res, format, 503, message);
    } else {
      reply(res, format, 503, message);
    }
  }

  /**
   * Answers with {@code Connection: close} and then ends the connection. Helidon 4.5.0 only skips
   * draining the request body when a response says {@code Connection: close}; it keeps the socket
   * and reads whatever follows as the next request. Its CloseConnectionException is how a handler
   * ends the connection (Helidon logs it at TRACE).
   */
  private static void replyAndClose(ServerResponse res, Format format, int httpStatus, String message) {
    replyAndClose(res, format, httpStatus, Statuses.of(codeFor(httpStatus), message));
  }

  private static void replyAndClose(ServerResponse res, Format format, int httpStatus, Status message) {
    res.header(HeaderValues.CONNECTION_CLOSE);
    reply(res, format, httpStatus, message);
    throw new CloseConnectionException("OTLP/HTTP request refused with " + httpStatus + "; the connection ends with it");
  }

  private long discardLimit() {
    return DISCARD_FACTOR * limit;
  }

  /** Reads and drops what is left of a body, up to the discard limit; true if the body ended. */
  private boolean discardRest(InputStream in) {
    try {
      long left = discardLimit();
      byte[] sink = new byte[8192];
      while (left > 0) {
        int r = in.read(sink, 0, (int) Math.min(sink.length, left));
        if (r < 0) {
          return true;
        }
        left -= r;
      }
      return in.read() < 0;
    } catch (IOException | UncheckedIOException e) {
      return false;
    }
  }

  private static void reply(ServerResponse res, Format format, int httpStatus, String message) {
    reply(res, format, httpStatus, Statuses.of(codeFor(httpStatus), message));
  }

  /** The google.rpc.Code a Status body carries for each HTTP status this handler answers with. */
  private static Code codeFor(int httpStatus) {
    return switch (httpStatus) {
      case 401 -> Code.UNAUTHENTICATED;
      case 405, 415 -> Code.UNIMPLEMENTED;
      case 413 -> Code.RESOURCE_EXHAUSTED;
      case 500 -> Code.INTERNAL;
      case 503 -> Code.UNAVAILABLE;
      default -> Code.INVALID_ARGUMENT;
    };
  }

  private static void reply(ServerResponse res, Format format, int httpStatus, Status status) {
    LOG.log(Level.DEBUG, () -> "OTLP/HTTP " + httpStatus + ": " + status.getMessage());
    res.status(httpStatus);
    switch (format) {
      case PROTOBUF -> {
        res.header(HeaderNames.CONTENT_TYPE, PROTOBUF);
        res.send(status.toByteArray());
      }
      case JSON -> {
        res.header(HeaderNames.CONTENT_TYPE, JSON);
        res.send(Statuses.json(status));
      }
      case TEXT -> {
        res.header(HeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        res.send((status.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  /** The media type without parameters, compared case-insensitively (RFC 9110 8.3.1). */
  private static Format format(Optional<String> contentType) {
    if (contentType.isEmpty()) {
      return null;
    }
    String t = contentType.get();
    int semi = t.indexOf(';');
    String type = (semi < 0 ? t : t.substring(0, semi)).strip();
    if (type.equalsIgnoreCase(PROTOBUF)) {
      return Format.PROTOBUF;
    }
    if (type.equalsIgnoreCase(JSON)) {
      return Format.JSON;
    }
    return null;
  }

  private static Encoding encoding(Optional<String> contentEncoding) {
    if (contentEncoding.isEmpty()) {
      return Encoding.IDENTITY;
    }
    String e = contentEncoding.get().strip();
    if (e.isEmpty() || e.equalsIgnoreCase("identity")) {
      return Encoding.IDENTITY;
    }
    if (e.equalsIgnoreCase("gzip")) {
      return Encoding.GZIP;
    }
    if (e.equalsIgnoreCase("zstd")) {
      return Encoding.ZSTD;
    }
    return null;
  }

  private static String message(Throwable e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
