package mira.server.testing;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Compressor;
import io.grpc.CompressorRegistry;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import mira.proto.wire.Signal;

/**
 * A grpc-java client (Netty transport) that sends Export requests as raw bytes, so tests can send
 * what the SDK never would (oversized or non-protobuf messages) and read statuses and trailers.
 */
public final class RawGrpcClient implements AutoCloseable {
  private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  /**
   * A "gzip" compressor that writes a real gzip stream with its deflate data overwritten after the
   * first bytes, so the server sees a gzip header followed by data that does not inflate.
   */
  public static final Compressor CORRUPT_GZIP = new Compressor() {
    @Override
    public String getMessageEncoding() {
      return "gzip";
    }

    @Override
    public OutputStream compress(OutputStream os) {
      return new ByteArrayOutputStream() {
        @Override
        public void close() throws IOException {
          byte[] gz = Samples.gzip(toByteArray());
          java.util.Arrays.fill(gz, 12, gz.length - 8, (byte) 0x5a);
          os.write(gz);
          os.close();
        }
      };
    }
  };

  public final ManagedChannel channel;

  public RawGrpcClient(String target) {
    channel = NettyChannelBuilder.forTarget(target).usePlaintext().build();
  }

  /** Over TLS (or mTLS) with {@code credentials}, e.g. {@code TlsChannelCredentials}. */
  public RawGrpcClient(String host, int port, io.grpc.ChannelCredentials credentials) {
    channel = NettyChannelBuilder.forAddress(host, port, credentials).build();
  }

  public RawGrpcClient(String target, Compressor gzip) {
    channel = NettyChannelBuilder.forTarget(target).usePlaintext()
        .compressorRegistry(registryWith(gzip)).build();
  }

  private static CompressorRegistry registryWith(Compressor c) {
    CompressorRegistry r = CompressorRegistry.newEmptyInstance();
    r.register(c);
    return r;
  }

  public static MethodDescriptor<byte[], byte[]> export(Signal signal) {
    return MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(service(signal), "Export"))
        .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
  }

  /** The OTLP service names as the specification spells them, not as the server computes them. */
  private static String service(Signal signal) {
    return switch (signal) {
      case LOGS -> "opentelemetry.proto.collector.logs.v1.LogsService";
      case TRACES -> "opentelemetry.proto.collector.trace.v1.TraceService";
      case METRICS -> "opentelemetry.proto.collector.metrics.v1.MetricsService";
    };
  }

  /**
   * One unary call with a 10 s deadline; a server that never answers fails the test with
   * DEADLINE_EXCEEDED instead of hanging it.
   *
   * @param compression "gzip" or null
   * @throws StatusRuntimeException carrying the status and trailers of a call that did not end OK
   */
  public byte[] export(Signal signal, byte[] request, String compression) {
    CallOptions options = CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS);
    if (compression != null) {
      options = options.withCompression(compression);
    }
    ClientCall<byte[], byte[]> call = channel.newCall(export(signal), options);
    CompletableFuture<byte[]> result = new CompletableFuture<>();
    call.start(new ClientCall.Listener<>() {
      private byte[] response;

      @Override
      public void onMessage(byte[] message) {
        response = message;
      }

      @Override
      public void onClose(Status status, Metadata trailers) {
        if (status.isOk()) {
          result.complete(response);
        } else {
          result.completeExceptionally(status.asRuntimeException(trailers));
        }
      }
    }, new Metadata());
    call.request(2);
    call.sendMessage(request);
    call.halfClose();
    try {
      return result.get(20, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw (StatusRuntimeException) e.getCause();
    } catch (InterruptedException | TimeoutException e) {
      call.cancel("test gave up", e);
      throw new AssertionError("no status within 20 s", e);
    }
  }

  @Override
  public void close() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
