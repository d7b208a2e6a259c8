package mira.bench.load;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.RetryInfo;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * OTLP/gRPC over one HTTP/2 connection (grpc-java, Netty transport), unary {@code Export} calls.
 * The request is already-serialised protobuf and the response is not decoded: the generator pays
 * for encoding once, and what it sends is exactly what it counted. (java.net.http cannot speak
 * HTTP/2 without TLS unless it first tries an HTTP/1.1 upgrade, which a gRPC server refuses.)
 */
final class GrpcExporter implements Exporter {
  private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try (stream) {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };
  private static final Metadata.Key<byte[]> STATUS_DETAILS =
      Metadata.Key.of("grpc-status-details-bin", Metadata.BINARY_BYTE_MARSHALLER);

  private final ManagedChannel channel;
  private final MethodDescriptor<byte[], byte[]>[] methods;
  private final boolean gzip;

  @SuppressWarnings("unchecked")
  GrpcExporter(String host, int port, boolean gzip, java.nio.file.Path tlsCa) {
    this.channel = (tlsCa == null ? ManagedChannelBuilder.forAddress(host, port).usePlaintext()
        : io.grpc.Grpc.newChannelBuilderForAddress(host, port, tlsCredentials(tlsCa)))
        .maxInboundMessageSize(1 << 20).build();
    this.gzip = gzip;
    this.methods = new MethodDescriptor[Signal.values().length];
    for (Signal s : Signal.values()) {
      methods[s.ordinal()] = MethodDescriptor.<byte[], byte[]>newBuilder().setType(MethodDescriptor.MethodType.UNARY)
          .setFullMethodName(s.grpcMethod).setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
    }
  }

  private static io.grpc.ChannelCredentials tlsCredentials(java.nio.file.Path ca) {
    try {
      return io.grpc.TlsChannelCredentials.newBuilder().trustManager(ca.toFile()).build();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("--tls-ca " + ca + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Outcome send(Signal signal, byte[] body) {
    CallOptions options = CallOptions.DEFAULT.withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
    if (gzip) options = options.withCompression("gzip");
    ClientCall<byte[], byte[]> call = channel.newCall(methods[signal.ordinal()], options);
    CompletableFuture<Outcome> done = new CompletableFuture<>();
    call.start(new ClientCall.Listener<>() {
      @Override
      public void onClose(Status status, Metadata trailers) {
        done.complete(outcome(status, trailers));
      }
    }, new Metadata());
    call.request(1);
    call.sendMessage(body);
    call.halfClose();
    try {
      return done.get();
    } catch (InterruptedException e) {
      call.cancel("interrupted", e);
      Thread.currentThread().interrupt();
      return Outcome.failed("interrupted");
    } catch (ExecutionException e) {
      return Outcome.failed(String.valueOf(e.getCause()));
    }
  }

  private static Outcome outcome(Status status, Metadata trailers) {
    if (status.isOk()) return Outcome.ACCEPTED;
    String detail = status.getCode() + (status.getDescription() != null ? ": " + status.getDescription() : "");
    if (status.getCode() == Status.Code.UNAVAILABLE && status.getCause() == null) {
      return Outcome.retry(retryDelayMillis(trailers), detail);
    }
    return Outcome.failed(status.getCause() != null ? detail + " (" + status.getCause() + ")" : detail);
  }

  /** The RetryInfo delay in the status details trailer, or 0 if there is none. */
  static long retryDelayMillis(Metadata trailers) {
    byte[] details = trailers == null ? null : trailers.get(STATUS_DETAILS);
    if (details == null) return 0;
    try {
      for (Any any : com.google.rpc.Status.parseFrom(details).getDetailsList()) {
        if (any.is(RetryInfo.class)) {
          com.google.protobuf.Duration d = any.unpack(RetryInfo.class).getRetryDelay();
          return d.getSeconds() * 1000 + d.getNanos() / 1_000_000;
        }
      }
    } catch (InvalidProtocolBufferException e) {
      return 0;
    }
    return 0;
  }

  @Override
  public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
