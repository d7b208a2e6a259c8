package mira.server.e2e;

import static mira.server.e2e.QueryApiTest.map;
import static mira.server.e2e.QueryApiTest.obj;
import static mira.server.e2e.QueryApiTest.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporterBuilder;
import io.opentelemetry.exporter.otlp.logs.OtlpGrpcLogRecordExporter;
import io.opentelemetry.exporter.otlp.logs.OtlpGrpcLogRecordExporterBuilder;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.resources.Resource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import mira.server.config.Key;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * auth.ingest_tokens and auth.read_tokens on a real node: the OpenTelemetry SDK exports over gRPC
 * and HTTP with and without the header, refused exports leave nothing behind (no rows, no
 * accepted counts), reads need a read token, and the two kinds of token do not stand in for each
 * other.
 */
class TokenAuthTest {
  static final String INGEST = "ingest-token-0123456789abcdef";
  static final String READ = "read-token-0123456789abcdef";

  enum Transport { GRPC, HTTP }

  @TempDir static Path dir;
  private static Node node;
  private static Path ingestFile;
  private static Path readFile;

  @BeforeAll
  static void start() throws Exception {
    ingestFile = Files.writeString(dir.resolve("ingest.tokens"), "# exporters\n" + INGEST + "\n\n");
    readFile = Files.writeString(dir.resolve("read.tokens"), READ + "\n");
    node = new Node(dir.resolve("data"), Map.of(Key.AUTH_INGEST_TOKENS, ingestFile.toString(),
        Key.AUTH_READ_TOKENS, readFile.toString()));
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  /** Exports one log record through a Batch processor and reports whether the SDK saw success. */
  static boolean export(Transport t, String endpointGrpc, String endpointHttp, String token, String body) {
    LogRecordExporter otlp = switch (t) {
      case GRPC -> {
        OtlpGrpcLogRecordExporterBuilder b = OtlpGrpcLogRecordExporter.builder().setEndpoint(endpointGrpc)
            .setTimeout(Duration.ofSeconds(10));
        if (token != null) {
          b.addHeader("Authorization", "Bearer " + token);
        }
        yield b.build();
      }
      case HTTP -> {
        OtlpHttpLogRecordExporterBuilder b = OtlpHttpLogRecordExporter.builder().setEndpoint(endpointHttp + "/v1/logs")
            .setTimeout(Duration.ofSeconds(10));
        if (token != null) {
          b.addHeader("Authorization", "Bearer " + token);
        }
        yield b.build();
      }
    };
    Results results = new Results(otlp);
    try (SdkLoggerProvider provider = SdkLoggerProvider.builder()
        .setResource(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "auth-test")))
        .addLogRecordProcessor(BatchLogRecordProcessor.builder(results).setScheduleDelay(Duration.ofMillis(50)).build())
        .build()) {
      provider.get("auth").logRecordBuilder().setBody(body).setTimestamp(System.currentTimeMillis(), TimeUnit.MILLISECONDS).emit();
      provider.forceFlush().join(20, TimeUnit.SECONDS);
    }
    assertThat(results.codes).as("one export was made").hasSize(1);
    CompletableResultCode r = results.codes.getFirst();
    r.join(20, TimeUnit.SECONDS);
    return r.isSuccess();
  }

  /** A delegating exporter that keeps each export's result. */
  static final class Results implements LogRecordExporter {
    final LogRecordExporter delegate;
    final List<CompletableResultCode> codes = new CopyOnWriteArrayList<>();

    Results(LogRecordExporter delegate) {
      this.delegate = delegate;
    }

    @Override
    public CompletableResultCode export(Collection<LogRecordData> logs) {
      CompletableResultCode r = delegate.export(logs);
      codes.add(r);
      return r;
    }

    @Override
    public CompletableResultCode flush() {
      return delegate.flush();
    }

    @Override
    public CompletableResultCode shutdown() {
      return delegate.shutdown();
    }
  }

  private static boolean export(Transport t, String token, String body) {
    return export(t, node.grpc(), node.http(), token, body);
  }

  static HttpExchange read(String base, String method, String path, String token, String body) throws Exception {
    Map<String, String> h = new HashMap<>();
    if (token != null) {
      h.put("Authorization", "Bearer " + token);
    }
    if (body != null) {
      h.put("Content-Type", "application/json");
    }
    return HttpExchange.send(method, base + path, h, body == null ? null : body.getBytes(StandardCharsets.UTF_8), false);
  }

  private static List<Object> bodies(String text) throws Exception {
    HttpExchange x = read(node.http(), "POST", "/api/v1/query", READ,
        "{\"signal\": \"logs\", \"from\": \"-1h\", \"where\": [{\"text\": \"" + text + "\"}]}");
    assertThat(x.status()).as(x.text()).isEqualTo(200);
    return rows(obj(x)).stream().map(r -> r.get("body")).toList();
  }

  private static long recordsAccepted() throws Exception {
    HttpExchange x = read(node.http(), "GET", "/api/v1/stats", READ, null);
    assertThat(x.status()).isEqualTo(200);
    return Long.parseLong((String) map(map(obj(x).get("signals")).get("logs")).get("records_accepted"));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void anExportWithTheIngestTokenIsStored(Transport t) throws Exception {
    assertThat(export(t, INGEST, "admitted-" + t)).isTrue();
    assertThat(bodies("admitted-" + t)).containsExactly("admitted-" + t);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void refusedExportsLeaveNothingBehind(Transport t) throws Exception {
    long before = recordsAccepted();
    assertThat(export(t, null, "no-token-" + t)).as("no header").isFalse();
    assertThat(export(t, "not-a-known-token-at-all", "wrong-token-" + t)).as("unknown token").isFalse();
    assertThat(export(t, READ, "read-token-" + t)).as("a read token does not ingest").isFalse();
    // A good export after the refusals: once it is visible, anything refused before would be too.
    assertThat(export(t, INGEST, "after-refusals-" + t)).isTrue();
    assertThat(bodies("after-refusals-" + t)).hasSize(1);
    assertThat(bodies("no-token-" + t)).isEmpty();
    assertThat(bodies("wrong-token-" + t)).isEmpty();
    assertThat(bodies("read-token-" + t)).isEmpty();
    assertThat(recordsAccepted() - before).as("only the good export is counted").isEqualTo(1);
  }

  @Test
  void anHttpRefusalIs401WithABearerChallenge() throws Exception {
    HttpExchange none = HttpExchange.post(node.http() + "/v1/logs", "application/json", null, "{}".getBytes());
    assertThat(none.status()).isEqualTo(401);
    assertThat(none.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"mira\"");
    HttpExchange wrong = HttpExchange.send("POST", node.http() + "/v1/logs",
        Map.of("Content-Type", "application/json", "Authorization", "Bearer " + READ), "{}".getBytes(), false);
    assertThat(wrong.status()).isEqualTo(401);
    assertThat(wrong.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"mira\", error=\"invalid_token\"");
    assertThat(wrong.text()).doesNotContain(READ);
  }

  @Test
  void readsNeedAReadToken() throws Exception {
    String doc = "{\"signal\": \"logs\", \"from\": \"-1h\"}";
    for (String path : List.of("/api/v1/query", "/api/v1/series", "/mcp")) {
      HttpExchange x = read(node.http(), "POST", path, null, doc);
      assertThat(x.status()).as(path).isEqualTo(401);
      assertThat(x.header("WWW-Authenticate")).as(path).startsWith("Bearer");
      assertThat(read(node.http(), "POST", path, INGEST, doc).status()).as("an ingest token does not read " + path)
          .isEqualTo(401);
    }
    for (String path : List.of("/api/v1/stats", "/api/v1/metrics", "/api/v1/alerts", "/api/v1/services",
        "/api/v1/traces/0102030405060708090a0b0c0d0e0f10", "//api/v1/stats", "/api/v1/../v1/stats", "/nothing-here")) {
      assertThat(read(node.http(), "GET", path, null, null).status()).as(path).isEqualTo(401);
      assertThat(read(node.http(), "GET", path, INGEST, null).status()).as(path).isEqualTo(401);
    }
    assertThat(read(node.http(), "GET", "/api/v1/stats", READ, null).status()).isEqualTo(200);
    assertThat(read(node.http(), "POST", "/api/v1/query", READ, doc).status()).isEqualTo(200);
    assertThat(read(node.http(), "GET", "/api/v1/stats", READ.toUpperCase(), null).status()).isEqualTo(401);
  }

  @Test
  void probesAndTheUiFilesNeedNoToken() throws Exception {
    assertThat(read(node.http(), "GET", "/readyz", null, null).status()).isEqualTo(200);
    assertThat(read(node.http(), "GET", "/health", null, null).status()).isEqualTo(200);
    assertThat(read(node.http(), "GET", "/", null, null).status()).isIn(200, 404);
    assertThat(read(node.http(), "GET", "/", null, null).status()).isNotEqualTo(401);
  }

  @Test
  void aReloadSwapsTheTokensAndABadFileKeepsThem() throws Exception {
    String next = "rotated-ingest-token-fedcba9876543210";
    try {
      Files.writeString(ingestFile, next + "\n");
      node.server.reload();
      assertThat(export(Transport.GRPC, next, "rotated")).isTrue();
      assertThat(export(Transport.GRPC, INGEST, "retired")).as("the old token is gone").isFalse();
      Files.writeString(ingestFile, "short\n");
      node.server.reload();
      assertThat(export(Transport.HTTP, next, "kept")).as("a bad file keeps the tokens in force").isTrue();
    } finally {
      Files.writeString(ingestFile, INGEST + "\n");
      node.server.reload();
    }
    assertThat(export(Transport.HTTP, INGEST, "restored")).isTrue();
  }
}
