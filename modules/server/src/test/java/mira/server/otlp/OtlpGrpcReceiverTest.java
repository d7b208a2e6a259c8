package mira.server.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.rpc.RetryInfo;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import mira.proto.wire.Signal;
import mira.server.ingest.IngestSink;
import mira.server.testing.RawGrpcClient;
import mira.server.testing.Samples;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OTLP/gRPC against a running server with a grpc-java client: outcomes, RetryInfo in the trailers,
 * the size limit as a status (never a hang), gzip, and a good export on the same channel after each.
 */
class OtlpGrpcReceiverTest {
  @TempDir static Path data;
  private static RunningServer mira;
  private static RawGrpcClient client;
  /** Sends "gzip" messages whose deflate data is damaged (a valid gzip header, then garbage). */
  private static RawGrpcClient corruptingClient;
  /** Everything logged with a stack trace while the tests ran, to prove refusals log none. */
  private static final List<LogRecord> traces = new CopyOnWriteArrayList<>();
  private static final Handler collectTraces = new Handler() {
    @Override
    public void publish(LogRecord r) {
      if (r.getThrown() != null) {
        traces.add(r);
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  @BeforeAll
  static void start() throws Exception {
    Logger.getLogger("").addHandler(collectTraces);
    mira = new RunningServer(data, "256KiB");
    client = new RawGrpcClient(mira.grpcTarget());
    corruptingClient = new RawGrpcClient(mira.grpcTarget(), RawGrpcClient.CORRUPT_GZIP);
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    corruptingClient.close();
    mira.close();
    Logger.getLogger("").removeHandler(collectTraces);
  }

  @BeforeEach
  void reset() {
    mira.sink.reset();
    traces.clear();
  }

  @AfterEach
  void aGoodExportStillSucceedsAndNothingLoggedAStackTrace() throws Exception {
    mira.sink.reset();
    ExportLogsServiceRequest request = Samples.logs(3);
    client.export(Signal.LOGS, request.toByteArray(), null);
    assertThat(mira.sink.<ExportLogsServiceRequest>requests(Signal.LOGS)).containsExactly(request);
    assertThat(traces).extracting(r -> r.getLoggerName() + ": " + r.getMessage()).isEmpty();
  }

  private static StatusRuntimeException refusal(Signal signal, byte[] request, String compression) {
    return catchThrowableOfType(StatusRuntimeException.class, () -> client.export(signal, request, compression));
  }

  @Test
  void acceptedExportIsOkWithAnEmptyResponse() throws Exception {
    ExportLogsServiceRequest request = Samples.logs(10);
    byte[] response = client.export(Signal.LOGS, request.toByteArray(), null);
    assertThat(ExportLogsServiceResponse.parseFrom(response)).isEqualTo(ExportLogsServiceResponse.getDefaultInstance());
    assertThat(mira.sink.<ExportLogsServiceRequest>requests(Signal.LOGS)).containsExactly(request);
  }

  @Test
  void eachSignalHasItsOwnService() {
    client.export(Signal.TRACES, ExportTraceServiceRequest.getDefaultInstance().toByteArray(), null);
    client.export(Signal.METRICS, ExportMetricsServiceRequest.getDefaultInstance().toByteArray(), null);
    assertThat(mira.sink.received).extracting(RecordingSink.Received::signal)
        .containsExactly(Signal.TRACES, Signal.METRICS);
  }

  @Test
  void gzipCompressedExportIsInflatedBeforeTheSinkSeesIt() {
    ExportLogsServiceRequest request = Samples.logs(500);
    client.export(Signal.LOGS, request.toByteArray(), "gzip");
    assertThat(mira.sink.<ExportLogsServiceRequest>requests(Signal.LOGS)).containsExactly(request);
    assertThat(mira.sink.received.getFirst().length()).isEqualTo(request.getSerializedSize());
  }

  @Test
  void gzipExportLongerThanOneFrameIsInflatedToo() throws Exception {
    ExportLogsServiceRequest request = Samples.noisyLogs(2500, 3);
    assertThat(Samples.gzip(request.toByteArray()).length).as("compressed, still several 16 KiB frames")
        .isGreaterThan(64 * 1024);
    assertThat(request.getSerializedSize()).isLessThan(mira.limit);
    client.export(Signal.LOGS, request.toByteArray(), "gzip");
    assertThat(mira.sink.<ExportLogsServiceRequest>requests(Signal.LOGS)).containsExactly(request);
  }

  @Test
  void corruptGzipGetsAStatusNotAHang() {
    StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
        () -> corruptingClient.export(Signal.LOGS, Samples.logs(5).toByteArray(), "gzip"));
    assertThat(e.getStatus().getDescription()).as(e.getStatus().toString()).contains("gzip");
    assertThat(mira.sink.received).isEmpty();
  }

  @Test
  void corruptGzipLongerThanOneFrameGetsAStatus() {
    StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
        () -> corruptingClient.export(Signal.LOGS, Samples.noisyLogs(2500, 4).toByteArray(), "gzip"));
    assertThat(e.getStatus().getCode()).as(e.getStatus().toString()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(e.getStatus().getDescription()).contains("gzip request message does not inflate");
    assertThat(mira.sink.received).isEmpty();
  }

  @Test
  void invalidFromTheSinkIsInvalidArgument() {
    mira.sink.answer(new IngestSink.Invalid("resource_logs[0]: resource has 2 service.name attributes"));
    StatusRuntimeException e = refusal(Signal.LOGS, Samples.logs(1).toByteArray(), null);
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(e.getStatus().getDescription()).isEqualTo("resource_logs[0]: resource has 2 service.name attributes");
  }

  @Test
  void retryFromTheSinkIsUnavailableWithRetryInfo() throws Exception {
    mira.sink.answer(new IngestSink.Retry("all shard queues full for 5s", Duration.ofMillis(1250)));
    StatusRuntimeException e = refusal(Signal.LOGS, Samples.logs(1).toByteArray(), null);
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    com.google.rpc.Status details = StatusProto.fromThrowable(e);
    assertThat(details).as("grpc-status-details-bin").isNotNull();
    assertThat(details.getMessage()).isEqualTo("all shard queues full for 5s");
    RetryInfo retry = details.getDetails(0).unpack(RetryInfo.class);
    assertThat(retry.getRetryDelay().getSeconds()).isEqualTo(1);
    assertThat(retry.getRetryDelay().getNanos()).isEqualTo(250_000_000);
  }

  @Test
  void permanentFromTheSinkIsInternal() {
    mira.sink.answer(new IngestSink.Permanent("cannot fit an empty block"));
    StatusRuntimeException e = refusal(Signal.LOGS, Samples.logs(1).toByteArray(), null);
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL);
    assertThat(e.getStatus().getDescription()).isEqualTo("cannot fit an empty block");
  }

  @Test
  void messageOverTheLimitGetsResourceExhaustedNotAHang() {
    byte[] big = new byte[mira.limit + 1];
    StatusRuntimeException e = refusal(Signal.LOGS, big, null);
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(e.getStatus().getDescription()).contains("ingest.max_request_bytes (" + mira.limit + " bytes)")
        .contains("batch size");
    assertThat(mira.sink.received).isEmpty();
    assertThat(mira.sink.refused).as("counted as too_large").containsExactly("LOGS 413");
  }

  @Test
  void messageOfExactlyTheLimitIsHandedOver() {
    // Not a valid export, so the test sink refuses it: what matters is that it got there.
    byte[] atLimit = new byte[mira.limit];
    StatusRuntimeException e = refusal(Signal.LOGS, atLimit, null);
    assertThat(e.getStatus().getDescription()).startsWith("test sink:");
  }

  @Test
  void gzipMessageOverTheLimitAsSentGetsResourceExhausted() {
    byte[] incompressible = new byte[mira.limit + 50_000];
    new Random(1).nextBytes(incompressible);
    StatusRuntimeException e = refusal(Signal.LOGS, incompressible, "gzip");
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(e.getStatus().getDescription()).contains("ingest.max_request_bytes");
    assertThat(mira.sink.refused).containsExactly("LOGS 413");
  }

  @Test
  void gzipMessageInflatingPastTheLimitGetsResourceExhausted() {
    // 64 MiB of zeros is ~64 KB compressed: within the limit as sent, far past it inflated.
    byte[] zeros = new byte[64 << 20];
    StatusRuntimeException e = refusal(Signal.LOGS, zeros, "gzip");
    assertThat(e.getStatus().getCode()).as(e.getStatus().toString()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(e.getStatus().getDescription()).contains("inflated request message")
        .contains("ingest.max_request_bytes");
    assertThat(mira.sink.received).isEmpty();
  }
}
