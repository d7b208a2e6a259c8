package mira.server.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import com.google.rpc.Code;
import com.google.rpc.RetryInfo;
import com.google.rpc.Status;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import mira.proto.wire.Signal;
import mira.server.ingest.IngestSink;
import mira.server.testing.HttpExchange;
import mira.server.testing.Samples;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OTLP/HTTP against a running server: every status, and that a good export still works after each. */
class OtlpHttpReceiverTest {
  private static final String PROTOBUF = "application/x-protobuf";
  @TempDir static Path data;
  private static RunningServer mira;

  @BeforeAll
  static void start() throws Exception {
    mira = new RunningServer(data, "256KiB");
  }

  @AfterAll
  static void stop() {
    mira.close();
  }

  @BeforeEach
  void reset() {
    mira.sink.reset();
  }

  /** Whatever a test did to the server, the next well-formed export is stored and answered 200. */
  @AfterEach
  void aGoodExportStillSucceeds() throws Exception {
    mira.sink.reset();
    ExportLogsServiceRequest request = Samples.logs(3);
    HttpExchange r = HttpExchange.post(url("/v1/logs"), PROTOBUF, null, request.toByteArray());
    assertThat(r.status()).as(r.text()).isEqualTo(200);
    assertThat(mira.sink.<ExportLogsServiceRequest>requests(Signal.LOGS)).containsExactly(request);
  }

  private static String url(String path) {
    return mira.httpBase() + path;
  }

  private static Status status(HttpExchange r) throws Exception {
    assertThat(r.header("Content-Type")).isEqualTo(PROTOBUF);
    return Status.parseFrom(r.body());
  }

  @Test
  void acceptedExportIsAnswered200WithAnEmptyProtobufResponse() throws Exception {
    ExportLogsServiceRequest request = Samples.logs(5);
    HttpExchange r = HttpExchange.post(url("/v1/logs"), PROTOBUF, null, request.toByteArray());
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.header("Content-Type")).isEqualTo(PROTOBUF);
    assertThat(ExportLogsServiceResponse.parseFrom(r.body())).isEqualTo(ExportLogsServiceResponse.getDefaultInstance());
    assertThat(mira.sink.<ExportLogsServiceRequest>requests(Signal.LOGS)).containsExactly(request);
  }

  @Test
  void eachSignalHasItsOwnPath() throws Exception {
    assertThat(HttpExchange.post(url("/v1/traces"), PROTOBUF, null,
        ExportTraceServiceRequest.getDefaultInstance().toByteArray()).status()).isEqualTo(200);
    assertThat(HttpExchange.post(url("/v1/metrics"), PROTOBUF, null,
        ExportMetricsServiceRequest.getDefaultInstance().toByteArray()).status()).isEqualTo(200);
    assertThat(mira.sink.received).extracting(RecordingSink.Received::signal)
        .containsExactly(Signal.TRACES, Signal.METRICS);
  }

  @Test
  void aPostWithNoBodyIsAnEmptyExport() throws Exception {
    HttpExchange r = HttpExchange.send("POST", url("/v1/logs"), Map.of("Content-Type", PROTOBUF), null, false);
    assertThat(r.status()).as(r.text()).isEqualTo(200);
    assertThat(mira.sink.received).singleElement().satisfies(got -> assertThat(got.length()).isZero());
  }

  @Test
  void getIsRefusedWith405AllowingPost() throws Exception {
    HttpExchange r = HttpExchange.send("GET", url("/v1/logs"), Map.of(), null, false);
    assertThat(r.status()).isEqualTo(405);
    assertThat(r.header("Allow")).isEqualTo("POST");
    assertThat(r.text()).contains("GET is not allowed on /v1/logs");
  }

  @Test
  void textPlainIsRefusedWith415NamingTheSupportedTypes() throws Exception {
    HttpExchange r = HttpExchange.post(url("/v1/logs"), "text/plain", null, "hello".getBytes());
    assertThat(r.status()).isEqualTo(415);
    assertThat(r.text()).contains("text/plain").contains("application/x-protobuf").contains("application/json");
    assertThat(mira.sink.received).isEmpty();
  }

  @Test
  void unknownContentEncodingIsRefusedWith415NamingTheSupportedEncodings() throws Exception {
    HttpExchange r = HttpExchange.post(url("/v1/logs"), PROTOBUF, "br", Samples.logs(1).toByteArray());
    assertThat(r.status()).isEqualTo(415);
    Status s = status(r);
    assertThat(s.getCode()).isEqualTo(Code.UNIMPLEMENTED.getNumber());
    assertThat(s.getMessage()).contains("\"br\"").contains("gzip").contains("zstd").contains("identity");
    assertThat(mira.sink.received).isEmpty();
  }

  @Test
  void bodyOverTheLimitIsRefusedWith413BeforeItIsRead() throws Exception {
    byte[] big = new byte[mira.limit + 1];
    HttpExchange r = HttpExchange.post(url("/v1/logs"), PROTOBUF, null, big);
    assertThat(r.status()).isEqualTo(413);
    Status s = status(r);
    assertThat(s.getCode()).isEqualTo(Code.RESOURCE_EXHAUSTED.getNumber());
    assertThat(s.getMessage()).contains("Content-Length " + big.length).contains("ingest.max_request_bytes")
        .contains(Integer.toString(mira.limit)).contains("batch size");
    assertThat(mira.sink.received).isEmpty();
  }

  @Test
  void aClientWaitingFor100ContinueGets413AndTheConnectionCloses() throws Exception {
    String response = headersOnly("Expect: 100-continue\r\nContent-Length: " + (mira.limit * 2) + "\r\n");
    assertThat(response).startsWith("HTTP/1.1 413 ").containsIgnoringCase("connection: close")
        .doesNotContain("100 Continue").contains("ingest.max_request_bytes");
    assertThat(mira.sink.received).isEmpty();
  }

  @Test
  void aContentLengthFarPastTheLimitIsRefusedAndTheConnectionCloses() throws Exception {
    String response = headersOnly("Content-Length: " + (1L << 40) + "\r\n");
    assertThat(response).startsWith("HTTP/1.1 413 ").containsIgnoringCase("connection: close")
        .contains("Content-Length " + (1L << 40));
  }

  /**
   * Sends a POST's headers and no body, then reads until the server closes the connection (a
   * server that keeps it open fails the test with a timeout).
   */
  private static String headersOnly(String extraHeaders) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", mira.server.httpPort())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(("POST /v1/logs HTTP/1.1\r\nHost: mira\r\n"
          + "Content-Type: application/x-protobuf\r\n" + extraHeaders + "\r\n").getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }

  @Test
  void chunkedBodyOverTheLimitIsRefusedWith413() throws Exception {
    HttpExchange r = HttpExchange.send("POST", url("/v1/logs"), Map.of("Content-Type", PROTOBUF),
        new byte[mira.limit + 100_000], true);
    assertThat(r.status()).isEqualTo(413);
    assertThat(status(r).getMessage()).contains("ingest.max_request_bytes");
    assertThat(mira.sink.received).isEmpty();
  }

  @Test
  void chunkedBodyWithinTheLimitIsAccepted() throws Exception {
    ExportLogsServiceRequest request = Samples.logs(100);
    HttpExchange r = HttpExchange.send("POST", url("/v1/logs"), Map.of("Content-Type", PROTOBUF),
        request.toByteArray(), true);
    assertThat(r.status()).isEqualTo(200);
    assertThat(mira.sink.<ExportLogsServiceRequest>requests(Signal.LOGS)).containsExactly(request);
  }

  @Test
  void gzipBombIsRefusedWith413() throws Exception {
    byte[] bomb = Samples.gzippedZeros(100L << 20);
    assertThat(bomb.length).as("the compressed bomb itself fits the limit").isLessThan(mira.limit);
    HttpExchange r = HttpExchange.post(url("/v1/logs"), PROTOBUF, "gzip", bomb);
    assertThat(r.status()).isEqualTo(413);
    assertThat(status(r).getMessage()).contains("gzip-inflated").contains("ingest.max_request_bytes");
    assertThat(mira.sink.received).isEmpty();
  }

  @Test
  void gzipBodyIsInflatedBeforeTheSinkSeesIt() throws Exception {
    ExportLogsServiceRequest request = Samples.logs(50);
    HttpExchange r = HttpExchange.post(url("/v1/logs"), PROTOBUF, "gzip", Samples.gzip(request.toByteArray()));
    assertThat(r.status()).isEqualTo(200);
    assertThat(mira.sink.<ExportLogsServiceRequest>requests(Signal.LOGS)).containsExactly(request);
  }

  @Test
  void zstdBodyIsAccepted() throws Exception {
    ExportLogsServiceRequest request = Samples.logs(50);
    HttpExchange r = HttpExchange.post(url("/v1/logs"), PROTOBUF, "zstd", Zstd.compress(request.toByteArray()));
    assertThat(r.status()).as(r.text()).isEqualTo(200);
    assertThat(mira.sink.<ExportLogsServiceRequest>requests(Signal.LOGS)).containsExactly(request);
  }

  @Test
  void mediaTypeAndEncodingMatchInAnyCaseWithParameters() throws Exception {
    ExportLogsServiceRequest request = Samples.logs(2);
    HttpExchange r = HttpExchange.post(url("/v1/logs"), "Application/X-Protobuf; charset=utf-8", "GZip",
        Samples.gzip(request.toByteArray()));
    assertThat(r.status()).isEqualTo(200);
    assertThat(mira.sink.<ExportLogsServiceRequest>requests(Signal.LOGS)).containsExactly(request);
  }

  @Test
  void corruptGzipIsRefusedWith400() throws Exception {
    byte[] gz = Samples.gzip(Samples.logs(50).toByteArray());
    Arrays.fill(gz, 12, gz.length - 8, (byte) 0x5a);
    HttpExchange r = HttpExchange.post(url("/v1/logs"), PROTOBUF, "gzip", gz);
    assertThat(r.status()).isEqualTo(400);
    Status s = status(r);
    assertThat(s.getCode()).isEqualTo(Code.INVALID_ARGUMENT.getNumber());
    assertThat(s.getMessage()).startsWith("gzip request body does not inflate: ");
    assertThat(mira.sink.received).isEmpty();
  }

  @Test
  void bodyThatIsNotGzipAtAllIsRefusedWith400() throws Exception {
    HttpExchange r = HttpExchange.post(url("/v1/logs"), PROTOBUF, "gzip", Samples.logs(3).toByteArray());
    assertThat(r.status()).isEqualTo(400);
    assertThat(status(r).getMessage()).contains("gzip request body does not inflate");
  }

  @Test
  void invalidFromTheSinkIs400WithItsMessage() throws Exception {
    mira.sink.answer(new IngestSink.Invalid("resource_logs[0].scope_logs[0].log_records[1].trace_id: 3 bytes, want 16"));
    HttpExchange r = HttpExchange.post(url("/v1/logs"), PROTOBUF, null, Samples.logs(2).toByteArray());
    assertThat(r.status()).isEqualTo(400);
    Status s = status(r);
    assertThat(s.getCode()).isEqualTo(Code.INVALID_ARGUMENT.getNumber());
    assertThat(s.getMessage()).isEqualTo("resource_logs[0].scope_logs[0].log_records[1].trace_id: 3 bytes, want 16");
  }

  @Test
  void retryFromTheSinkIs503WithRetryAfterRoundedUp() throws Exception {
    mira.sink.answer(new IngestSink.Retry("all 4 shard queues full for 5s", Duration.ofMillis(1500)));
    HttpExchange r = HttpExchange.post(url("/v1/logs"), PROTOBUF, null, Samples.logs(2).toByteArray());
    assertThat(r.status()).isEqualTo(503);
    assertThat(r.header("Retry-After")).isEqualTo("2");
    Status s = status(r);
    assertThat(s.getCode()).isEqualTo(Code.UNAVAILABLE.getNumber());
    assertThat(s.getMessage()).isEqualTo("all 4 shard queues full for 5s");
    assertThat(s.getDetails(0).unpack(RetryInfo.class).getRetryDelay().getNanos()).isEqualTo(500_000_000);
  }

  /**
   * Shed before the body is read (the heap budget has no room for it): the body is still consumed,
   * so the same connection carries the next request. Two requests written back to back on one
   * socket are both answered, 503 (without Connection: close) then 200, and the reservation of the
   * second is given back.
   */
  @Test
  void aBodyShedForTheHeapBudgetIsReadAndDroppedAndTheConnectionServesTheNextRequest() throws Exception {
    mira.sink.refuseNextReserve(new IngestSink.Retry("overloaded: ingest holds 60 MiB of its 62 MiB heap budget",
        Duration.ofSeconds(1)));
    byte[] shed = Samples.logs(50).toByteArray();
    byte[] next = Samples.logs(3).toByteArray();
    try (Socket socket = new Socket("127.0.0.1", mira.server.httpPort())) {
      socket.setSoTimeout(10_000);
      java.io.OutputStream out = socket.getOutputStream();
      for (byte[] body : List.of(shed, next)) {
        out.write(("POST /v1/logs HTTP/1.1\r\nHost: mira\r\nContent-Type: application/x-protobuf\r\n"
            + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
      }
      out.flush();
      java.io.InputStream in = socket.getInputStream();
      String first = responseHead(in);
      assertThat(first).startsWith("HTTP/1.1 503 ").containsIgnoringCase("retry-after: 1")
          .doesNotContainIgnoringCase("connection: close");
      in.readNBytes(contentLength(first));
      String second = responseHead(in);
      assertThat(second).startsWith("HTTP/1.1 200 ");
    }
    assertThat(mira.sink.<ExportLogsServiceRequest>requests(Signal.LOGS)).hasSize(1);
    // Released in the handler's finally, which may run just after the answer went out.
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (mira.sink.reserved.get() != 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(mira.sink.reserved).as("every reservation released").hasValue(0);
  }

  /** A response's status line and headers, read up to the blank line that ends them. */
  private static String responseHead(java.io.InputStream in) throws java.io.IOException {
    StringBuilder b = new StringBuilder();
    while (b.length() < 4 || !b.substring(b.length() - 4).equals("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        throw new java.io.EOFException("connection closed after: " + b);
      }
      b.append((char) c);
    }
    return b.toString();
  }

  private static int contentLength(String head) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
    assertThat(m.find()).as(head).isTrue();
    return Integer.parseInt(m.group(1));
  }

  @Test
  void retryAfterIsNeverZero() throws Exception {
    mira.sink.answer(new IngestSink.Retry("busy", Duration.ofMillis(250)));
    HttpExchange r = HttpExchange.post(url("/v1/logs"), PROTOBUF, null, Samples.logs(1).toByteArray());
    assertThat(r.status()).isEqualTo(503);
    assertThat(r.header("Retry-After")).isEqualTo("1");
  }

  @Test
  void permanentFromTheSinkIs500() throws Exception {
    mira.sink.answer(new IngestSink.Permanent("export holds 3 resources with 70000 attributes each; a block cannot hold it"));
    HttpExchange r = HttpExchange.post(url("/v1/logs"), PROTOBUF, null, Samples.logs(1).toByteArray());
    assertThat(r.status()).isEqualTo(500);
    Status s = status(r);
    assertThat(s.getCode()).isEqualTo(Code.INTERNAL.getNumber());
    assertThat(s.getMessage()).contains("a block cannot hold it");
  }

  @Test
  void jsonIsAnsweredInJson() throws Exception {
    HttpExchange r = HttpExchange.post(url("/v1/logs"), "application/json; charset=utf-8", null,
        "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"stringValue\":\"hi\"}}]}]}]}".getBytes());
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.header("Content-Type")).isEqualTo("application/json");
    assertThat(r.text()).isEqualTo("{}");
    List<ExportLogsServiceRequest> got = mira.sink.requests(Signal.LOGS);
    assertThat(got.getLast().getResourceLogs(0).getScopeLogs(0).getLogRecords(0).getBody().getStringValue()).isEqualTo("hi");
  }

  @Test
  void invalidJsonIsA400InJsonNamingTheField() throws Exception {
    HttpExchange r = HttpExchange.post(url("/v1/logs"), "Application/JSON", null,
        "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"traceId\":\"5b8efff798038103d269b633813fc60\"}]}]}]}".getBytes());
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.header("Content-Type")).isEqualTo("application/json");
    assertThat(r.text()).startsWith("{\"code\":3,\"message\":\"invalid OTLP/JSON: resourceLogs[0].scopeLogs[0].logRecords[0].traceId");
  }

  @Test
  void jsonErrorsBeforeDecodingAreJsonToo() throws Exception {
    HttpExchange r = HttpExchange.post(url("/v1/logs"), "application/json", "gzip", "{}".getBytes());
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.header("Content-Type")).isEqualTo("application/json");
    assertThat(r.text()).startsWith("{\"code\":3,\"message\":\"gzip request body does not inflate: ");
  }
}
