package mira.server.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.internal.FailedExportException;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.logs.OtlpGrpcLogRecordExporter;
import io.opentelemetry.exporter.otlp.metrics.OtlpGrpcMetricExporter;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.GrpcStatusCode;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.logs.export.SimpleLogRecordProcessor;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import mira.proto.wire.Signal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The OpenTelemetry Java SDK's own OTLP exporters (OkHttp sender, the SDK default) as clients:
 * telemetry recorded through the SDK is exported over gRPC and HTTP, the export reports success, and
 * the sink received those records.
 */
class OtelSdkExportTest {
  private static final Resource RESOURCE = Resource.getDefault().merge(Resource.create(
      Attributes.of(AttributeKey.stringKey("service.name"), "checkout")));
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  enum Transport { GRPC, GRPC_GZIP, HTTP_GZIP, HTTP }

  @TempDir static Path data;
  private static RunningServer mira;
  private static final List<SpanData> spans = new CopyOnWriteArrayList<>();
  private static final List<LogRecordData> logs = new CopyOnWriteArrayList<>();
  private static final List<MetricData> metrics = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void startAndRecordTelemetry() throws Exception {
    mira = new RunningServer(data, "4MiB");
    recordSpans();
    recordLogs();
    recordMetrics();
  }

  @AfterAll
  static void stop() {
    mira.close();
  }

  @BeforeEach
  void reset() {
    mira.sink.reset();
  }

  private String endpoint(Transport t, String path) {
    return switch (t) {
      case GRPC, GRPC_GZIP -> "http://" + mira.grpcTarget();
      case HTTP, HTTP_GZIP -> mira.httpBase() + path;
    };
  }

  private static String compression(Transport t) {
    return t == Transport.GRPC_GZIP || t == Transport.HTTP_GZIP ? "gzip" : "none";
  }

  private static void assertSucceeds(CompletableResultCode result) {
    result.join(TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
    assertThat(result.isDone()).as("export finished").isTrue();
    assertThat(result.isSuccess()).as("export succeeded: %s", result.getFailureThrowable()).isTrue();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void spansArrive(Transport t) {
    SpanExporter exporter = switch (t) {
      case GRPC, GRPC_GZIP -> OtlpGrpcSpanExporter.builder().setEndpoint(endpoint(t, null))
          .setCompression(compression(t)).setTimeout(TIMEOUT).build();
      case HTTP, HTTP_GZIP -> OtlpHttpSpanExporter.builder().setEndpoint(endpoint(t, "/v1/traces"))
          .setCompression(compression(t)).setTimeout(TIMEOUT).build();
    };
    try {
      assertSucceeds(exporter.export(spans));
    } finally {
      exporter.shutdown().join(5, TimeUnit.SECONDS);
    }
    List<ExportTraceServiceRequest> got = mira.sink.requests(Signal.TRACES);
    assertThat(got).hasSize(1);
    List<io.opentelemetry.proto.trace.v1.Span> received = got.getFirst().getResourceSpansList().stream()
        .flatMap(r -> r.getScopeSpansList().stream()).flatMap(s -> s.getSpansList().stream()).toList();
    assertThat(received).extracting(io.opentelemetry.proto.trace.v1.Span::getName)
        .containsExactlyInAnyOrder("GET /cart", "SELECT cart", "render");
    io.opentelemetry.proto.trace.v1.Span select = received.stream()
        .filter(s -> s.getName().equals("SELECT cart")).findFirst().orElseThrow();
    SpanData sent = spans.stream().filter(s -> s.getName().equals("SELECT cart")).findFirst().orElseThrow();
    assertThat(select.getSpanId().toByteArray()).isEqualTo(sent.getSpanContext().getSpanIdBytes());
    assertThat(select.getParentSpanId().toByteArray()).isEqualTo(sent.getParentSpanContext().getSpanIdBytes());
    assertThat(select.getAttributesList()).anySatisfy(kv -> {
      assertThat(kv.getKey()).isEqualTo("db.system.name");
      assertThat(kv.getValue().getStringValue()).isEqualTo("postgresql");
    });
    assertThat(got.getFirst().getResourceSpans(0).getResource().getAttributesList())
        .anySatisfy(kv -> assertThat(kv.getValue().getStringValue()).isEqualTo("checkout"));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void logsArrive(Transport t) {
    LogRecordExporter exporter = logExporter(t);
    try {
      assertSucceeds(exporter.export(logs));
    } finally {
      exporter.shutdown().join(5, TimeUnit.SECONDS);
    }
    List<ExportLogsServiceRequest> got = mira.sink.requests(Signal.LOGS);
    assertThat(got).hasSize(1);
    List<LogRecord> received = got.getFirst().getResourceLogsList().stream()
        .flatMap(r -> r.getScopeLogsList().stream()).flatMap(s -> s.getLogRecordsList().stream()).toList();
    assertThat(received).hasSize(logs.size());
    assertThat(received).extracting(r -> r.getBody().getStringValue())
        .containsExactlyInAnyOrder("order 1 placed", "order 2 placed", "order 3 placed", "payment declined");
    assertThat(received).filteredOn(r -> r.getBody().getStringValue().equals("payment declined"))
        .singleElement().satisfies(r -> {
          assertThat(r.getSeverityNumberValue()).isEqualTo(Severity.ERROR.getSeverityNumber());
          assertThat(r.getAttributesList()).anySatisfy(kv -> assertThat(kv.getValue().getIntValue()).isEqualTo(402));
        });
  }

  /** Big enough that the gzip message spans many HTTP/2 frames (see GrpcExport on Helidon's handling). */
  @ParameterizedTest
  @EnumSource(value = Transport.class, names = {"GRPC_GZIP", "HTTP_GZIP"})
  void aLargeCompressedBatchArrivesWhole(Transport t) {
    List<LogRecordData> batch = new CopyOnWriteArrayList<>();
    try (SdkLoggerProvider provider = SdkLoggerProvider.builder().setResource(RESOURCE)
        .addLogRecordProcessor(SimpleLogRecordProcessor.create(new Capture<LogRecordData>(batch).logExporter()))
        .build()) {
      io.opentelemetry.api.logs.Logger logger = provider.get("receiver-test");
      java.util.Random random = new java.util.Random(11);
      for (int i = 0; i < 5000; i++) {
        logger.logRecordBuilder().setBody("request " + i + " took " + random.nextInt(100_000) + "us trace "
            + Long.toHexString(random.nextLong())).emit();
      }
    }
    LogRecordExporter exporter = logExporter(t);
    try {
      assertSucceeds(exporter.export(batch));
    } finally {
      exporter.shutdown().join(5, TimeUnit.SECONDS);
    }
    List<ExportLogsServiceRequest> got = mira.sink.requests(Signal.LOGS);
    assertThat(got).hasSize(1);
    assertThat(got.getFirst().getResourceLogs(0).getScopeLogs(0).getLogRecordsList()).hasSize(5000)
        .last().satisfies(r -> assertThat(r.getBody().getStringValue()).startsWith("request 4999 took "));
    assertThat(mira.sink.received.getFirst().length()).as("inflated size").isGreaterThan(256 * 1024);
  }

  @ParameterizedTest
  @EnumSource(value = Transport.class, names = {"GRPC_GZIP", "HTTP_GZIP"})
  void aRefusedExportIsAFailureForTheSdk(Transport t) throws Exception {
    mira.sink.answer(new mira.server.ingest.IngestSink.Invalid("log_records[0].trace_id: 3 bytes, want 16"));
    LogRecordExporter exporter = logExporter(t);
    try {
      CompletableResultCode result = exporter.export(logs);
      result.join(TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
      assertThat(result.isDone()).isTrue();
      assertThat(result.isSuccess()).isFalse();
      // The SDK's failure carries the server's answer (an internal SDK type, fine for a test).
      switch (result.getFailureThrowable()) {
        case FailedExportException.GrpcExportException g -> {
          assertThat(g.getResponse().getStatusCode()).isEqualTo(GrpcStatusCode.INVALID_ARGUMENT);
          assertThat(g.getResponse().getStatusDescription()).isEqualTo("log_records[0].trace_id: 3 bytes, want 16");
        }
        case FailedExportException.HttpExportException h -> {
          assertThat(h.getResponse().getStatusCode()).isEqualTo(400);
          assertThat(com.google.rpc.Status.parseFrom(h.getResponse().getResponseBody()).getMessage())
              .isEqualTo("log_records[0].trace_id: 3 bytes, want 16");
        }
        default -> throw new AssertionError("unexpected failure", result.getFailureThrowable());
      }
    } finally {
      exporter.shutdown().join(5, TimeUnit.SECONDS);
    }
  }

  private LogRecordExporter logExporter(Transport t) {
    return switch (t) {
      case GRPC, GRPC_GZIP -> OtlpGrpcLogRecordExporter.builder().setEndpoint(endpoint(t, null))
          .setCompression(compression(t)).setTimeout(TIMEOUT).build();
      case HTTP, HTTP_GZIP -> OtlpHttpLogRecordExporter.builder().setEndpoint(endpoint(t, "/v1/logs"))
          .setCompression(compression(t)).setTimeout(TIMEOUT).build();
    };
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void metricsArrive(Transport t) {
    MetricExporter exporter = switch (t) {
      case GRPC, GRPC_GZIP -> OtlpGrpcMetricExporter.builder().setEndpoint(endpoint(t, null))
          .setCompression(compression(t)).setTimeout(TIMEOUT).build();
      case HTTP, HTTP_GZIP -> OtlpHttpMetricExporter.builder().setEndpoint(endpoint(t, "/v1/metrics"))
          .setCompression(compression(t)).setTimeout(TIMEOUT).build();
    };
    try {
      assertSucceeds(exporter.export(metrics));
    } finally {
      exporter.shutdown().join(5, TimeUnit.SECONDS);
    }
    List<ExportMetricsServiceRequest> got = mira.sink.requests(Signal.METRICS);
    assertThat(got).hasSize(1);
    List<Metric> received = got.getFirst().getResourceMetricsList().stream()
        .flatMap(r -> r.getScopeMetricsList().stream()).flatMap(s -> s.getMetricsList().stream()).toList();
    assertThat(received).extracting(Metric::getName).containsExactlyInAnyOrder("orders.placed", "order.value");
    Metric counter = received.stream().filter(m -> m.getName().equals("orders.placed")).findFirst().orElseThrow();
    assertThat(counter.getSum().getDataPoints(0).getAsInt()).isEqualTo(3);
    Metric histogram = received.stream().filter(m -> m.getName().equals("order.value")).findFirst().orElseThrow();
    assertThat(histogram.getHistogram().getDataPoints(0).getCount()).isEqualTo(2);
    assertThat(histogram.getHistogram().getDataPoints(0).getSum()).isEqualTo(59.5);
  }

  private static void recordSpans() {
    try (SdkTracerProvider provider = SdkTracerProvider.builder().setResource(RESOURCE)
        .addSpanProcessor(SimpleSpanProcessor.create(new Capture<SpanData>(spans).spanExporter())).build()) {
      Tracer tracer = provider.get("receiver-test");
      Span root = tracer.spanBuilder("GET /cart").startSpan();
      try (Scope ignored = root.makeCurrent()) {
        tracer.spanBuilder("SELECT cart").setAttribute("db.system.name", "postgresql").startSpan().end();
        tracer.spanBuilder("render").startSpan().end();
      } finally {
        root.end();
      }
    }
    assertThat(spans).hasSize(3);
  }

  private static void recordLogs() {
    try (SdkLoggerProvider provider = SdkLoggerProvider.builder().setResource(RESOURCE)
        .addLogRecordProcessor(SimpleLogRecordProcessor.create(new Capture<LogRecordData>(logs).logExporter()))
        .build()) {
      io.opentelemetry.api.logs.Logger logger = provider.get("receiver-test");
      for (int i = 1; i <= 3; i++) {
        logger.logRecordBuilder().setSeverity(Severity.INFO).setBody("order " + i + " placed").emit();
      }
      logger.logRecordBuilder().setSeverity(Severity.ERROR).setBody("payment declined")
          .setAttribute(AttributeKey.longKey("http.response.status_code"), 402L).emit();
    }
    assertThat(logs).hasSize(4);
  }

  private static void recordMetrics() {
    Capture<MetricData> capture = new Capture<>(metrics);
    try (SdkMeterProvider provider = SdkMeterProvider.builder().setResource(RESOURCE)
        .registerMetricReader(PeriodicMetricReader.builder(capture.metricExporter()).setInterval(Duration.ofHours(1)).build())
        .build()) {
      var meter = provider.get("receiver-test");
      meter.counterBuilder("orders.placed").build().add(3);
      var histogram = meter.histogramBuilder("order.value").setUnit("EUR").build();
      histogram.record(19.5);
      histogram.record(40.0);
    } // closing the provider collects once and hands the result to the capture

    assertThat(metrics).extracting(MetricData::getName).contains("orders.placed", "order.value");
    metrics.removeIf(m -> !m.getName().equals("orders.placed") && !m.getName().equals("order.value"));
  }

  /** An in-memory exporter: the SDK's processors hand it finished telemetry, which the tests then export. */
  private record Capture<T>(List<T> into) {
    @SuppressWarnings("unchecked")
    SpanExporter spanExporter() {
      return new SpanExporter() {
        @Override
        public CompletableResultCode export(Collection<SpanData> batch) {
          into.addAll((Collection<T>) batch);
          return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
          return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
          return CompletableResultCode.ofSuccess();
        }
      };
    }

    @SuppressWarnings("unchecked")
    LogRecordExporter logExporter() {
      return new LogRecordExporter() {
        @Override
        public CompletableResultCode export(Collection<LogRecordData> batch) {
          into.addAll((Collection<T>) batch);
          return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
          return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
          return CompletableResultCode.ofSuccess();
        }
      };
    }

    @SuppressWarnings("unchecked")
    MetricExporter metricExporter() {
      return new MetricExporter() {
        @Override
        public CompletableResultCode export(Collection<MetricData> batch) {
          into.addAll((Collection<T>) batch);
          return CompletableResultCode.ofSuccess();
        }

        @Override
        public AggregationTemporality getAggregationTemporality(InstrumentType type) {
          return AggregationTemporality.CUMULATIVE;
        }

        @Override
        public CompletableResultCode flush() {
          return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
          return CompletableResultCode.ofSuccess();
        }
      };
    }
  }
}
