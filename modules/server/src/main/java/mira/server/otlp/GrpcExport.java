package mira.server.otlp;

import com.google.protobuf.Descriptors.ServiceDescriptor;
import io.grpc.KnownLength;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.opentelemetry.proto.collector.logs.v1.LogsServiceProto;
import io.opentelemetry.proto.collector.metrics.v1.MetricsServiceProto;
import io.opentelemetry.proto.collector.trace.v1.TraceServiceProto;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import mira.proto.wire.Signal;
import mira.server.ingest.IngestSink;
import mira.server.ingest.IngestSink.Outcome;

/**
 * {@code <signal>Service/Export} (OTLP/gRPC) as a grpc-java call handler over raw bytes: the request
 * marshaller copies the message into one array under the limit (inflating it if Helidon did not),
 * and the sink gets that array; protobuf-java never parses it here. The array comes from
 * {@link RequestBuffers} and goes back there once the sink has returned.
 *
 * <p>Three behaviours of Helidon 4.5.0's gRPC server are handled here:
 * <ul>
 *   <li>A message longer than {@code GrpcConfig.maxReadBufferSize} (set to the limit) as sent, or a
 *       gzip message whose gzip header is corrupt: Helidon logs the exception, calls the listener's
 *       {@code onCancel} and sends nothing, so the client would wait for a status until its deadline.
 *       A cancel the client did not send is therefore answered here with RESOURCE_EXHAUSTED.</li>
 *   <li>An exception thrown by the marshaller takes the same silent path, so the marshaller never
 *       throws: it returns a {@link Request} that carries the refusal instead of the bytes.</li>
 *   <li>Helidon decompresses a gzip message only when it fits in the DATA frame that carries its
 *       gRPC header; a longer one arrives still compressed. The marshaller recognises gzip by its
 *       magic number and inflates it under the limit itself.</li>
 * </ul>
 */
final class GrpcExport implements ServerCallHandler<GrpcExport.Request, byte[]> {
  private static final Logger LOG = System.getLogger(GrpcExport.class.getName());
  private static final byte[] EMPTY = new byte[0];
  private static final Metadata.Key<String> GRPC_ENCODING =
      Metadata.Key.of("grpc-encoding", Metadata.ASCII_STRING_MARSHALLER);

  /** An Export request message as bytes, or why it could not be read. */
  record Request(byte[] bytes, int length, Status refusal) {}

  private final Signal signal;
  private final int limit;
  private final IngestSink sink;

  private GrpcExport(Signal signal, int limit, IngestSink sink) {
    this.signal = signal;
    this.limit = limit;
    this.sink = sink;
  }

  /** The service definition for one signal's Export method. */
  static ServerServiceDefinition service(Signal signal, int limit, IngestSink sink) {
    String service = serviceDescriptor(signal).getFullName();
    MethodDescriptor<Request, byte[]> export = MethodDescriptor.<Request, byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(service, "Export"))
        .setRequestMarshaller(new RequestMarshaller(limit))
        .setResponseMarshaller(new EmptyResponseMarshaller())
        .build();
    return ServerServiceDefinition.builder(service).addMethod(export, new GrpcExport(signal, limit, sink)).build();
  }

  static ServiceDescriptor serviceDescriptor(Signal signal) {
    return switch (signal) {
      case LOGS -> LogsServiceProto.getDescriptor().findServiceByName("LogsService");
      case TRACES -> TraceServiceProto.getDescriptor().findServiceByName("TraceService");
      case METRICS -> MetricsServiceProto.getDescriptor().findServiceByName("MetricsService");
    };
  }

  @Override
  public ServerCall.Listener<Request> startCall(ServerCall<Request, byte[]> call, Metadata headers) {
    // Two, so that a second message in a unary call is seen and refused rather than left unread.
    call.request(2);
    String encoding = headers.get(GRPC_ENCODING);
    return new Call(call, encoding != null && !encoding.equalsIgnoreCase("identity"));
  }

  /** One Export call. Every method runs on the stream's thread except a client cancel (see onCancel). */
  private final class Call extends ServerCall.Listener<Request> {
    private final ServerCall<Request, byte[]> call;
    private final boolean compressed;
    private Request request;
    private boolean extraMessage;
    private volatile boolean closed;

    Call(ServerCall<Request, byte[]> call, boolean compressed) {
      this.call = call;
      this.compressed = compressed;
    }

    @Override
    public void onMessage(Request message) {
      if (request == null) {
        request = message;
      } else {
        extraMessage = true;
      }
    }

    @Override
    public void onHalfClose() {
      if (closed) {
        return;
      }
      if (request == null) {
        close(Status.INVALID_ARGUMENT.withDescription("the call ended without a request message"), new Metadata());
      } else if (extraMessage) {
        close(Status.INVALID_ARGUMENT.withDescription("Export is unary; the call sent more than one request message"),
            new Metadata());
      } else if (request.refusal() != null) {
        if (request.refusal().getCode() == Status.Code.RESOURCE_EXHAUSTED) {
          sink.refusedAtReceiver(signal, 413);
        }
        close(request.refusal(), new Metadata());
      } else {
        export(request);
      }
    }

    /**
     * Called by Helidon on the connection thread when the client resets the stream, and on the
     * stream thread when Helidon could not read a message (see the class comment). Only the second
     * still needs an answer; the first is recognisable by {@code isCancelled()}. Helidon does not
     * say what went wrong: without compression it can only be the size (or a compressed flag with
     * no grpc-encoding, which no real client sends); with gzip it may also be a corrupt gzip header.
     */
    @Override
    public void onCancel() {
      if (closed || call.isCancelled()) {
        return;
      }
      GrpcRefusalLog.expectHelidonError();
      String message = compressed
          ? "request message exceeds ingest.max_request_bytes (" + limit + " bytes) as sent, or its gzip header"
              + " is corrupt; if it is the size, raise ingest.max_request_bytes or lower the sender's batch size"
          : Statuses.tooLarge("request message", limit);
      // Counted with the HTTP receiver's 413s: the same refusal, before any decoding.
      sink.refusedAtReceiver(signal, 413);
      close(Status.RESOURCE_EXHAUSTED.withDescription(message), new Metadata());
    }

    private void export(Request r) {
      Outcome outcome;
      try {
        outcome = sink.submit(signal, r.bytes(), r.length());
      } catch (RuntimeException e) {
        RequestBuffers.shared().give(r.bytes());
        LOG.log(Level.ERROR, "ingest sink failed on a " + signal.dir() + " export", e);
        close(Status.INTERNAL.withDescription("ingest failed: " + e), new Metadata());
        return;
      }
      // The sink keeps nothing of the array once it returns (IngestSink.submit).
      RequestBuffers.shared().give(r.bytes());
      switch (outcome) {
        case IngestSink.Accepted a -> {
          call.sendHeaders(new Metadata());
          call.sendMessage(EMPTY);
          close(Status.OK, new Metadata());
        }
        case IngestSink.Invalid i -> close(Status.INVALID_ARGUMENT.withDescription(i.message()), new Metadata());
        case IngestSink.Retry rt -> {
          // StatusProto puts the google.rpc.Status (with RetryInfo) in grpc-status-details-bin.
          StatusRuntimeException e = StatusProto.toStatusRuntimeException(Statuses.retry(rt.message(), rt.after()));
          close(e.getStatus(), e.getTrailers());
        }
        case IngestSink.Permanent p -> close(Status.INTERNAL.withDescription(p.message()), new Metadata());
      }
    }

    private void close(Status status, Metadata trailers) {
      closed = true;
      call.close(status, trailers);
    }
  }

  /**
   * Copies a request message into one array under the limit. Never throws (see the class comment):
   * a message it cannot read becomes a {@link Request} carrying the status to answer with.
   */
  private static final class RequestMarshaller implements MethodDescriptor.Marshaller<Request> {
    private final int limit;

    RequestMarshaller(int limit) {
      this.limit = limit;
    }

    @Override
    public Request parse(InputStream in) {
      // Helidon hands over its own buffer as a KnownLength stream (at most maxReadBufferSize, the
      // limit) when it did not decompress, and an inflating stream when it did.
      boolean raw = in instanceof KnownLength;
      boolean inflating = !raw;
      try {
        Body b = BoundedBodies.readAtMost(in, raw ? in.available() : -1, limit);
        if (raw && isGzip(b)) {
          // Helidon 4.5.0 reads the compressed flag only in the DATA frame that carries the message
          // header, so a gzip message longer than one frame reaches here still compressed.
          inflating = true;
          Body wire = b;
          try {
            b = BoundedBodies.gunzip(wire, limit);
          } finally {
            RequestBuffers.shared().give(wire.bytes());
          }
        }
        return new Request(b.bytes(), b.length(), null);
      } catch (TooLarge e) {
        return refused(Status.RESOURCE_EXHAUSTED,
            Statuses.tooLarge(inflating ? "inflated request message" : "request message", limit));
      } catch (IOException | RuntimeException e) {
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return refused(Status.INVALID_ARGUMENT,
            (inflating ? "gzip request message does not inflate: " : "request message cannot be read: ") + why);
      }
    }

    private static Request refused(Status status, String message) {
      return new Request(null, 0, status.withDescription(message));
    }

    /**
     * The gzip magic number. Unambiguous here: no protobuf message starts with 0x1f, which would be
     * field 3 with wire type 7, and wire type 7 does not exist.
     */
    private static boolean isGzip(Body b) {
      return b.length() >= 2 && b.bytes()[0] == (byte) 0x1f && b.bytes()[1] == (byte) 0x8b;
    }

    @Override
    public InputStream stream(Request value) {
      throw new UnsupportedOperationException("the server never sends a request");
    }
  }

  /** The response is always an empty Export*ServiceResponse: zero bytes. */
  private static final class EmptyResponseMarshaller implements MethodDescriptor.Marshaller<byte[]> {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream in) {
      throw new UnsupportedOperationException("the server never reads a response");
    }
  }
}
