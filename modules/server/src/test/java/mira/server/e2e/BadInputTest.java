package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import com.google.rpc.Code;
import io.grpc.Compressor;
import io.grpc.StatusRuntimeException;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import mira.block.testing.LogsReadBack;
import mira.proto.wire.Signal;
import mira.server.config.Key;
import mira.server.ingest.Stats;
import mira.server.testing.HttpExchange;
import mira.server.testing.RawGrpcClient;
import mira.server.testing.Samples;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Malformed and hostile exports against a running node (real receivers, real pipeline, real
 * files): each gets its documented status and stores nothing, and the next good export on the same
 * transport is stored.
 *
 * <p>Every bad export carries a marker ("bad-N-...") in records that would be storable on their
 * own, next to the part that makes it bad, so a node that stored part of an export, or decoded past
 * a cap, would leave the marker in a block. After each refusal a good export ("good-N-...") follows
 * on the same transport, in the background: each waits up to the 2 s block age for its block, and
 * waiting for each in turn would cost two seconds per refusal. {@link #finish()} then checks that
 * every good export was acknowledged, that the published blocks hold exactly the good exports,
 * record for record and nothing else, that the ingest counters count what the pipeline refused, and
 * that neither Mira nor Helidon logged a stack trace or a SEVERE record while the refusals ran.
 */
class BadInputTest {
  /**
   * Small enough that an oversized export is cheap to build, large enough that the 70,000-key
   * record (about 1.3 MB) and the 100,000-deep JSON body (about 2.8 MB) reach the decoders rather
   * than the size check.
   */
  private static final int LIMIT = 4 << 20;
  private static final int HOSTILE_DEPTH = 100_000;
  private static final int DISTINCT_KEYS = 70_000;
  private static final int GOOD_RECORDS = 20;
  private static final String PROTOBUF = "application/x-protobuf";
  private static final String JSON = "application/json";
  private static final JsonFactory JSON_FACTORY = new JsonFactory();

  enum Transport { HTTP, GRPC }

  /** A refusal as the client saw it: HTTP status (0 for gRPC), google.rpc / gRPC code (-1 if none), message. */
  record Answer(int httpStatus, int code, String message) {}

  @TempDir static Path data;
  private static Node node;
  private static RawGrpcClient grpc;
  /** Sends {@link #bomb} as its "gzip" output, whatever message it is given. */
  private static RawGrpcClient bombingGrpc;
  private static ExecutorService background;
  private static final List<Future<ExportLogsServiceRequest>> goods = new ArrayList<>();
  private static int pipelineRefusals;
  private static int sequence;
  /** Records from mira.* and io.helidon.* with a throwable or at SEVERE. */
  private static final List<java.util.logging.LogRecord> alarming = new CopyOnWriteArrayList<>();
  private static final Handler watchLog = new Handler() {
    @Override
    public void publish(java.util.logging.LogRecord r) {
      String name = r.getLoggerName() == null ? "" : r.getLoggerName();
      if ((name.startsWith("mira.") || name.startsWith("io.helidon."))
          && (r.getThrown() != null || r.getLevel().intValue() >= Level.SEVERE.intValue())) {
        alarming.add(r);
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };
  /**
   * About 1 MB of gzip that inflates to a marked logs export followed by the header of a 1 GiB
   * unknown field and 1 GiB of zeros: a valid export if inflated whole. Deflate cannot compress
   * better than about 1000 to 1, so "a few kilobytes" to a gigabyte takes a megabyte; the members
   * are concatenated (which gzip allows) so that building it costs one 1 MiB compression.
   */
  private static byte[] bomb;
  private static String bombMarker;

  private String testName;
  private String marker;
  private Transport followWith;
  private boolean reachedThePipeline;
  private long invalidBefore;

  @BeforeAll
  static void start() throws Exception {
    Logger.getLogger("").addHandler(watchLog);
    node = new Node(data, Map.of(Key.INGEST_MAX_REQUEST_BYTES, "4MiB"));
    grpc = new RawGrpcClient(node.grpcTarget());
    bombMarker = "bad-0-gzip-bomb";
    bomb = gzipBomb(bombMarker, 1024);
    bombingGrpc = new RawGrpcClient(node.grpcTarget(), sendingInstead(bomb));
    background = Executors.newVirtualThreadPerTaskExecutor();
  }

  @BeforeEach
  void mark(TestInfo test) {
    testName = test.getTestMethod().orElseThrow().getName() + " " + test.getDisplayName();
    marker = "bad-" + ++sequence + "-" + test.getTestMethod().orElseThrow().getName();
    followWith = null;
    reachedThePipeline = false;
    invalidBefore = logs().exportsInvalid.sum();
  }

  /** Counts what the pipeline refused, then sends the next good export on the transport just refused. */
  @AfterEach
  void followWithAGoodExport() {
    assertThat(logs().exportsInvalid.sum() - invalidBefore).as("exports the pipeline counted invalid")
        .isEqualTo(reachedThePipeline ? 1 : 0);
    if (reachedThePipeline) {
      pipelineRefusals++;
    }
    assertThat(followWith).as("the test said which transport it refused on").isNotNull();
    Transport t = followWith;
    ExportLogsServiceRequest good = logs("good-" + sequence, GOOD_RECORDS);
    String after = testName;
    goods.add(background.submit(() -> {
      Answer a = t == Transport.HTTP ? post(PROTOBUF, null, good.toByteArray()) : call(grpc, good.toByteArray(), null);
      assertThat(a).as("the good export after %s", after).isEqualTo(new Answer(t == Transport.HTTP ? 200 : 0, 0, ""));
      return good;
    }));
  }

  @AfterAll
  static void finish() throws Exception {
    try {
      List<LogsReadBack.Flat> sent = new ArrayList<>();
      for (Future<ExportLogsServiceRequest> f : goods) {
        sent.addAll(LogsReadBack.flatten(f.get(30, TimeUnit.SECONDS)));
      }
      List<LogsReadBack.Flat> stored = Stored.logs(node);
      assertThat(stored).as("stored records carrying a refused export's marker")
          .filteredOn(f -> f.toString().contains("bad-")).isEmpty();
      assertThat(sent).hasSize(goods.size() * GOOD_RECORDS);
      assertThat(stored).containsExactlyInAnyOrderElementsOf(sent);

      Stats.Counters c = logs();
      assertThat(pipelineRefusals).isPositive();
      assertThat(c.exportsInvalid.sum()).as("exports invalid").isEqualTo(pipelineRefusals);
      assertThat(c.exportsAccepted.sum()).as("exports accepted").isEqualTo(goods.size());
      assertThat(c.recordsAccepted.sum()).as("records accepted").isEqualTo(sent.size());
      assertThat(c.exportsShed.sum() + c.recordsFailed.sum() + c.publishFailures.sum()).isZero();
      for (Signal s : List.of(Signal.TRACES, Signal.METRICS)) {
        assertThat(node.ingest.stats().of(s).exportsAccepted.sum() + node.ingest.stats().of(s).exportsInvalid.sum())
            .as(s + " exports").isZero();
      }
      assertThat(alarming).extracting(r -> r.getLevel() + " " + r.getLoggerName() + ": " + r.getMessage()
          + (r.getThrown() == null ? "" : " " + r.getThrown())).isEmpty();
    } finally {
      background.shutdownNow();
      grpc.close();
      bombingGrpc.close();
      node.close();
      Logger.getLogger("").removeHandler(watchLog);
    }
  }

  // ---- protobuf over both transports ----

  @ParameterizedTest
  @EnumSource(Transport.class)
  void truncatedProtobufIsInvalid(Transport t) {
    byte[] whole = logs(marker, 200).toByteArray();
    Answer a = send(t, Arrays.copyOf(whole, whole.length / 2));
    assertRefused(t, a, 400, Code.INVALID_ARGUMENT, "invalid ExportLogsServiceRequest: ");
    assertThat(a.message()).contains("remain");
    reachedThePipeline = true;
  }

  @ParameterizedTest
  @CsvSource({"HTTP, 6", "HTTP, 7", "GRPC, 6", "GRPC, 7"})
  void aFieldWithAnUndefinedWireTypeIsInvalid(Transport t, int wireType) {
    byte[] bad = concat(record(marker, 1).toByteArray(), varint(20 << 3 | wireType));
    Answer a = send(t, request(record(marker, 0).toByteArray(), bad));
    assertRefused(t, a, 400, Code.INVALID_ARGUMENT, "invalid wire type " + wireType);
    assertThat(a.message()).contains("log_records[1]");
    reachedThePipeline = true;
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void anyValueNestedAHundredThousandDeepIsInvalid(Transport t) {
    byte[] deep = concat(record(marker, 1).toByteArray(),
        lengthDelimited(5, nestedArrays(HOSTILE_DEPTH, marker))); // LogRecord.body
    Answer a = send(t, request(record(marker, 0).toByteArray(), deep));
    assertRefused(t, a, 400, Code.INVALID_ARGUMENT, "nested deeper than 64 levels");
    assertThat(a.message()).contains("log_records[1].body");
    reachedThePipeline = true;
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void seventyThousandAttributeKeysInOneRecordCanNeverBeStored(Transport t) {
    LogRecord.Builder wide = record(marker, 1).toBuilder();
    for (int i = 0; i < DISTINCT_KEYS; i++) {
      wide.addAttributes(KeyValue.newBuilder().setKey("k" + i).setValue(AnyValue.newBuilder().setIntValue(i)));
    }
    byte[] request = request(record(marker, 0).toByteArray(), wide.build().toByteArray());
    assertThat(request.length).isLessThan(LIMIT);
    Answer a = send(t, request);
    assertRefused(t, a, 500, Code.INTERNAL, "distinct attribute keys");
    reachedThePipeline = true;
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void exportOverTheSizeLimitIsTooLarge(Transport t) {
    LogRecord huge = record(marker, 1).toBuilder()
        .setBody(AnyValue.newBuilder().setStringValue(marker + " " + "x".repeat(LIMIT))).build();
    Answer a = send(t, request(record(marker, 0).toByteArray(), huge.toByteArray()));
    assertRefused(t, a, 413, Code.RESOURCE_EXHAUSTED, "exceeds ingest.max_request_bytes (" + LIMIT + " bytes)");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void gzipBombIsRefusedAtTheLimit(Transport t) {
    marker = bombMarker;
    Answer a = switch (t) {
      case HTTP -> http(PROTOBUF, "gzip", bomb);
      case GRPC -> grpc(bombingGrpc, new byte[] {1}, "gzip");
    };
    assertRefused(t, a, 413, Code.RESOURCE_EXHAUSTED, "inflated request");
    assertThat(a.message()).contains("exceeds ingest.max_request_bytes (" + LIMIT + " bytes)");
  }

  // ---- HTTP only ----

  @Test
  void unknownContentEncodingIsUnsupported() {
    Answer a = http(PROTOBUF, "br", logs(marker, 10).toByteArray());
    assertRefused(Transport.HTTP, a, 415, Code.UNIMPLEMENTED, "Content-Encoding \"br\" is not supported");
  }

  @Test
  void textPlainIsUnsupported() {
    Answer a = http("text/plain", null, logs(marker, 10).toByteArray());
    assertThat(a.httpStatus()).isEqualTo(415);
    assertThat(a.message()).contains("Content-Type \"text/plain\" is not supported")
        .contains(PROTOBUF).contains(JSON);
  }

  @Test
  void getIsNotAllowed() throws Exception {
    HttpExchange x = HttpExchange.send("GET", node.http() + "/v1/logs", Map.of("Content-Type", PROTOBUF), null, false);
    followWith = Transport.HTTP;
    assertThat(x.status()).isEqualTo(405);
    assertThat(x.header("Allow")).isEqualTo("POST");
    assertThat(com.google.rpc.Status.parseFrom(x.body()).getCode()).isEqualTo(Code.UNIMPLEMENTED_VALUE);
  }

  @Test
  void jsonTraceIdOf31HexDigitsIsInvalidNamingTheField() throws Exception {
    String traceId = "5b8efff798038103d269b633813fc60";
    assertThat(traceId).hasSize(31);
    Answer a = http(JSON, null, jsonLogs(marker, "\"traceId\":\"" + traceId + "\""));
    assertRefused(Transport.HTTP, a, 400, Code.INVALID_ARGUMENT, "resourceLogs[0].scopeLogs[0].logRecords[1].traceId");
  }

  @Test
  void jsonInt64ThatIsNotANumberIsInvalidNamingTheField() throws Exception {
    Answer a = http(JSON, null, jsonLogs(marker, "\"timeUnixNano\":\"12x\""));
    assertRefused(Transport.HTTP, a, 400, Code.INVALID_ARGUMENT, "resourceLogs[0].scopeLogs[0].logRecords[1].timeUnixNano");
  }

  @Test
  void jsonAnyValueNestedAHundredThousandDeepIsInvalid() throws Exception {
    StringBuilder deep = new StringBuilder(HOSTILE_DEPTH * 28 + 64).append("\"body\":");
    for (int i = 0; i < HOSTILE_DEPTH; i++) {
      deep.append("{\"arrayValue\":{\"values\":[");
    }
    deep.append("{\"stringValue\":\"").append(marker).append("\"}");
    for (int i = 0; i < HOSTILE_DEPTH; i++) {
      deep.append("]}}");
    }
    byte[] body = jsonLogs(marker, deep.toString());
    assertThat(body.length).isLessThan(LIMIT);
    Answer a = http(JSON, null, body);
    assertRefused(Transport.HTTP, a, 400, Code.INVALID_ARGUMENT, "nesting deeper than 64 levels of AnyValue");
    assertThat(a.message()).contains("logRecords[1].body");
  }

  // ---- sending ----

  private static Stats.Counters logs() {
    return node.ingest.stats().of(Signal.LOGS);
  }

  /** A protobuf export, uncompressed, over {@code t}; the good export after it goes the same way. */
  private Answer send(Transport t, byte[] protobuf) {
    followWith = t;
    return t == Transport.HTTP ? post(PROTOBUF, null, protobuf) : call(grpc, protobuf, null);
  }

  private Answer http(String contentType, String contentEncoding, byte[] body) {
    followWith = Transport.HTTP;
    return post(contentType, contentEncoding, body);
  }

  private Answer grpc(RawGrpcClient client, byte[] request, String compression) {
    followWith = Transport.GRPC;
    return call(client, request, compression);
  }

  private static Answer post(String contentType, String contentEncoding, byte[] body) {
    Map<String, String> headers = new HashMap<>();
    headers.put("Content-Type", contentType);
    if (contentEncoding != null) {
      headers.put("Content-Encoding", contentEncoding);
    }
    try {
      return answer(HttpExchange.send("POST", node.http() + "/v1/logs", headers, body, false));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Answer answer(HttpExchange x) throws IOException {
    String type = x.header("Content-Type");
    if (x.status() == 200) {
      return new Answer(200, 0, "");
    } else if (type != null && type.startsWith(PROTOBUF)) {
      com.google.rpc.Status s = com.google.rpc.Status.parseFrom(x.body());
      return new Answer(x.status(), s.getCode(), s.getMessage());
    } else if (type != null && type.startsWith(JSON)) {
      return jsonStatus(x.status(), x.body());
    }
    return new Answer(x.status(), -1, x.text());
  }

  /** Reads {@code {"code": N, "message": "..."}}. */
  private static Answer jsonStatus(int httpStatus, byte[] body) throws IOException {
    int code = -1;
    String message = null;
    try (JsonParser p = JSON_FACTORY.createParser(body)) {
      assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        p.nextToken();
        switch (name) {
          case "code" -> code = p.getIntValue();
          case "message" -> message = p.getText();
          default -> throw new AssertionError("unexpected field " + name + " in " + new String(body, StandardCharsets.UTF_8));
        }
      }
    }
    return new Answer(httpStatus, code, message);
  }

  private static Answer call(RawGrpcClient client, byte[] request, String compression) {
    try {
      client.export(Signal.LOGS, request, compression);
      return new Answer(0, 0, "");
    } catch (StatusRuntimeException e) {
      return new Answer(0, e.getStatus().getCode().value(), e.getStatus().getDescription());
    }
  }

  /** google.rpc.Code and grpc-java's Status.Code share their numbers; HTTP answers carry both. */
  private static void assertRefused(Transport t, Answer a, int httpStatus, Code code, String messagePart) {
    if (t == Transport.HTTP) {
      assertThat(a.httpStatus()).as("HTTP status of " + a).isEqualTo(httpStatus);
    }
    assertThat(a.code()).as("code of " + a).isEqualTo(code.getNumber());
    assertThat(a.message()).contains(messagePart);
  }

  // ---- building bad exports ----

  private static LogRecord record(String marker, int i) {
    return LogRecord.newBuilder()
        .setTimeUnixNano(1_700_000_000_000_000_000L + i)
        .setSeverityNumberValue(9)
        .setBody(AnyValue.newBuilder().setStringValue(marker + " #" + i))
        .build();
  }

  private static Resource resource() {
    return Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
        .setValue(AnyValue.newBuilder().setStringValue("e2e"))).build();
  }

  private static ExportLogsServiceRequest logs(String marker, int records) {
    ScopeLogs.Builder scope = ScopeLogs.newBuilder();
    for (int i = 0; i < records; i++) {
      scope.addLogRecords(record(marker, i));
    }
    return ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(ResourceLogs.newBuilder().setResource(resource()).addScopeLogs(scope)).build();
  }

  /** An ExportLogsServiceRequest, one resource and scope, around log records given as bytes. */
  private static byte[] request(byte[]... records) {
    List<byte[]> scope = new ArrayList<>();
    for (byte[] r : records) {
      scope.add(lengthDelimited(2, r)); // ScopeLogs.log_records
    }
    byte[] resourceLogs = concat(lengthDelimited(1, resource().toByteArray()), // ResourceLogs.resource
        lengthDelimited(2, concat(scope.toArray(byte[][]::new)))); // ResourceLogs.scope_logs
    return lengthDelimited(1, resourceLogs); // ExportLogsServiceRequest.resource_logs
  }

  /**
   * An AnyValue holding an ArrayValue holding an AnyValue, {@code depth} times, around a string.
   * protobuf-java refuses to build or parse past 100 levels, so the bytes are written by hand: sizes
   * computed from the inside out, then everything written from the outside in, in one array.
   */
  static byte[] nestedArrays(int depth, String innermost) {
    byte[] leaf = AnyValue.newBuilder().setStringValue(innermost).build().toByteArray();
    int[] anyValue = new int[depth + 1];
    int[] arrayValue = new int[depth + 1];
    anyValue[0] = leaf.length;
    for (int i = 1; i <= depth; i++) {
      arrayValue[i] = 1 + CodedOutputStream.computeUInt32SizeNoTag(anyValue[i - 1]) + anyValue[i - 1];
      anyValue[i] = 1 + CodedOutputStream.computeUInt32SizeNoTag(arrayValue[i]) + arrayValue[i];
    }
    byte[] out = new byte[anyValue[depth]];
    CodedOutputStream o = CodedOutputStream.newInstance(out);
    try {
      for (int i = depth; i >= 1; i--) {
        o.writeTag(5, WireFormat.WIRETYPE_LENGTH_DELIMITED); // AnyValue.array_value
        o.writeUInt32NoTag(arrayValue[i]);
        o.writeTag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED); // ArrayValue.values
        o.writeUInt32NoTag(anyValue[i - 1]);
      }
      o.writeRawBytes(leaf);
      o.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /**
   * A JSON logs export of two records: the first fine, the second carrying the marker and
   * {@code badFields} (and no time, so that a bad time is its only one).
   */
  private static byte[] jsonLogs(String marker, String badFields) {
    return ("{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"e2e\"}}]},"
        + "\"scopeLogs\":[{\"logRecords\":["
        + "{\"timeUnixNano\":\"1700000000000000000\",\"body\":{\"stringValue\":\"" + marker + " #0\"}},"
        + "{\"attributes\":[{\"key\":\"marker\",\"value\":{\"stringValue\":\"" + marker + " #1\"}}]," + badFields + "}"
        + "]}]}]}").getBytes(StandardCharsets.UTF_8);
  }

  /** See {@link #bomb}. */
  private static byte[] gzipBomb(String marker, int mebibytes) throws IOException {
    long zeros = (long) mebibytes << 20;
    byte[] head = concat(logs(marker, 10).toByteArray(),
        varint(1000 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED), varint(zeros)); // an unknown field
    byte[] member = Samples.gzip(new byte[1 << 20]);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(Samples.gzip(head));
    for (int i = 0; i < mebibytes; i++) {
      out.write(member);
    }
    return out.toByteArray();
  }

  /** A "gzip" compressor that sends {@code bytes} whatever message it is given. */
  private static Compressor sendingInstead(byte[] bytes) {
    return new Compressor() {
      @Override
      public String getMessageEncoding() {
        return "gzip";
      }

      @Override
      public OutputStream compress(OutputStream os) {
        return new OutputStream() {
          @Override
          public void write(int b) {}

          @Override
          public void close() throws IOException {
            os.write(bytes);
            os.close();
          }
        };
      }
    };
  }

  private static byte[] lengthDelimited(int field, byte[] payload) {
    return concat(varint((long) field << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED), varint(payload.length), payload);
  }

  private static byte[] varint(long v) {
    byte[] out = new byte[CodedOutputStream.computeUInt64SizeNoTag(v)];
    try {
      CodedOutputStream o = CodedOutputStream.newInstance(out);
      o.writeUInt64NoTag(v);
      o.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
