package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.logs.OtlpGrpcLogRecordExporter;
import io.opentelemetry.exporter.otlp.metrics.OtlpGrpcMetricExporter;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentSelector;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.View;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mira.block.testing.LogsReadBack;
import mira.block.testing.MetricsReadBack;
import mira.block.testing.TracesReadBack;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The OpenTelemetry Java SDK exports spans (with events and links), logs carrying trace context and
 * metrics of every instrument kind to a running node; every export succeeds, and the published
 * blocks, read with Arrow Java's own reader, hold exactly the OTLP requests the SDK sent.
 */
class SdkToBlocksTest {
  enum Transport { GRPC, GRPC_GZIP, HTTP_PROTOBUF_GZIP }

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Resource RESOURCE = Resource.getDefault().merge(Resource.create(Attributes.builder()
      .put("service.name", "checkout")
      .put("service.instance.id", "checkout-7d9f8-x2")
      .put("k8s.pod.name", "checkout-7d9f8-x2")
      .put("host.cores", 8L)
      .build()));

  @TempDir Path data;

  @ParameterizedTest
  @EnumSource(Transport.class)
  void everyExportIsStoredFieldByField(Transport transport) throws Exception {
    try (Node node = new Node(data)) {
      Tee.Spans spans = new Tee.Spans(spanExporter(transport, node));
      Tee.Logs logs = new Tee.Logs(logExporter(transport, node));
      Tee.Metrics metrics = new Tee.Metrics(metricExporter(transport, node));

      SdkTracerProvider tracing = SdkTracerProvider.builder().setResource(RESOURCE)
          .addSpanProcessor(BatchSpanProcessor.builder(spans).build()).build();
      SdkLoggerProvider logging = SdkLoggerProvider.builder().setResource(RESOURCE)
          .addLogRecordProcessor(BatchLogRecordProcessor.builder(logs).build()).build();
      SdkMeterProvider metering = SdkMeterProvider.builder().setResource(RESOURCE)
          .registerMetricReader(PeriodicMetricReader.builder(metrics).setInterval(Duration.ofHours(1)).build())
          .registerView(InstrumentSelector.builder().setName("payment.latency.exp").build(),
              View.builder().setAggregation(Aggregation.base2ExponentialBucketHistogram()).build())
          .build();

      record(tracing.get("io.mira.e2e"), logging.get("io.mira.e2e"), metering.get("io.mira.e2e"));

      assertThat(tracing.forceFlush().join(WAIT.toSeconds(), TimeUnit.SECONDS).isSuccess()).isTrue();
      assertThat(logging.forceFlush().join(WAIT.toSeconds(), TimeUnit.SECONDS).isSuccess()).isTrue();
      assertThat(metering.forceFlush().join(WAIT.toSeconds(), TimeUnit.SECONDS).isSuccess()).isTrue();
      for (List<CompletableResultCode> rs : List.of(spans.results, logs.results, metrics.results)) {
        assertThat(rs).isNotEmpty().allSatisfy(r -> assertThat(r.isSuccess()).isTrue());
      }

      // Acknowledged means published (the write-ahead log is not built yet): read the blocks now.
      List<TracesReadBack.Flat> storedSpans = Stored.spans(node);
      List<TracesReadBack.Flat> sentSpans = new ArrayList<>();
      for (ExportTraceServiceRequest r : spans.acked) {
        sentSpans.addAll(TracesReadBack.flatten(r));
      }
      assertThat(sentSpans).hasSize(3);
      assertThat(sentSpans).anySatisfy(f -> assertThat(f.span().getEventsCount()).isEqualTo(2));
      assertThat(sentSpans).anySatisfy(f -> assertThat(f.span().getLinksCount()).isEqualTo(1));
      assertThat(storedSpans).containsExactlyInAnyOrderElementsOf(sentSpans);

      List<LogsReadBack.Flat> storedLogs = Stored.logs(node);
      List<LogsReadBack.Flat> sentLogs = new ArrayList<>();
      for (ExportLogsServiceRequest r : logs.acked) {
        sentLogs.addAll(Stored.expectedLogs(r));
      }
      assertThat(sentLogs).hasSize(3);
      assertThat(sentLogs).filteredOn(f -> !f.record().getTraceId().isEmpty()).hasSize(2);
      assertThat(storedLogs).containsExactlyInAnyOrderElementsOf(sentLogs);

      List<MetricsReadBack.Flat> storedMetrics = Stored.metrics(node);
      List<MetricsReadBack.Flat> sentMetrics = new ArrayList<>();
      for (ExportMetricsServiceRequest r : metrics.acked) {
        sentMetrics.addAll(MetricsReadBack.flatten(r));
      }
      assertThat(sentMetrics).extracting(f -> f.metric().getDataCase()).contains(
          Metric.DataCase.SUM, Metric.DataCase.GAUGE, Metric.DataCase.HISTOGRAM, Metric.DataCase.EXPONENTIAL_HISTOGRAM);
      assertThat(sentMetrics).extracting(f -> f.metric().getName())
          .contains("orders.placed", "carts.open", "cpu.temperature", "payment.latency", "payment.latency.exp");
      assertThat(storedMetrics).containsExactlyInAnyOrderElementsOf(sentMetrics);

      tracing.shutdown();
      logging.shutdown();
      metering.shutdown();
    }
  }

  private static void record(Tracer tracer, Logger logger, Meter meter) {
    Span other = tracer.spanBuilder("enqueue payment").setSpanKind(SpanKind.PRODUCER).startSpan();
    other.end();
    Span parent = tracer.spanBuilder("POST /checkout").setSpanKind(SpanKind.SERVER)
        .setAttribute("http.request.method", "POST")
        .setAttribute("http.response.status_code", 503L)
        .setAttribute(AttributeKey.stringArrayKey("tags"), List.of("a", "b"))
        .setAttribute("ratio", 0.25)
        .setAttribute("retried", true)
        .startSpan();
    try (Scope s = parent.makeCurrent()) {
      parent.addEvent("cart loaded", Attributes.of(AttributeKey.longKey("items"), 3L));
      parent.recordException(new IllegalStateException("payment declined"));
      parent.setStatus(StatusCode.ERROR, "payment failed");
      Span child = tracer.spanBuilder("charge card").setSpanKind(SpanKind.CLIENT)
          .addLink(other.getSpanContext(), Attributes.of(AttributeKey.stringKey("link.kind"), "follows"))
          .startSpan();
      try (Scope c = child.makeCurrent()) {
        logger.logRecordBuilder().setSeverity(Severity.ERROR).setSeverityText("ERROR")
            .setBody("card declined: insufficient funds")
            .setAttribute(AttributeKey.stringKey("payment.provider"), "acme")
            .setTimestamp(System.currentTimeMillis(), TimeUnit.MILLISECONDS)
            .emit();
      } finally {
        child.end();
      }
      logger.logRecordBuilder().setSeverity(Severity.WARN).setBody("checkout degraded")
          .setAttribute(AttributeKey.longKey("attempt"), 2L).emit();
    } finally {
      parent.end();
    }
    logger.logRecordBuilder().setContext(Context.root()).setSeverity(Severity.INFO)
        .setBody("no trace context here").emit();

    meter.counterBuilder("orders.placed").setUnit("{order}").build().add(5, Attributes.of(AttributeKey.stringKey("region"), "eu"));
    meter.upDownCounterBuilder("carts.open").build().add(-2);
    meter.gaugeBuilder("cpu.temperature").setUnit("Cel").build().set(61.5);
    meter.histogramBuilder("payment.latency").setUnit("ms").build().record(42.0);
    meter.histogramBuilder("payment.latency.exp").setUnit("ms").build().record(17.0);
  }

  private static SpanExporter spanExporter(Transport t, Node n) {
    return switch (t) {
      case GRPC -> OtlpGrpcSpanExporter.builder().setEndpoint(n.grpc()).build();
      case GRPC_GZIP -> OtlpGrpcSpanExporter.builder().setEndpoint(n.grpc()).setCompression("gzip").build();
      case HTTP_PROTOBUF_GZIP -> OtlpHttpSpanExporter.builder().setEndpoint(n.http() + "/v1/traces").setCompression("gzip").build();
    };
  }

  private static LogRecordExporter logExporter(Transport t, Node n) {
    return switch (t) {
      case GRPC -> OtlpGrpcLogRecordExporter.builder().setEndpoint(n.grpc()).build();
      case GRPC_GZIP -> OtlpGrpcLogRecordExporter.builder().setEndpoint(n.grpc()).setCompression("gzip").build();
      case HTTP_PROTOBUF_GZIP -> OtlpHttpLogRecordExporter.builder().setEndpoint(n.http() + "/v1/logs").setCompression("gzip").build();
    };
  }

  private static MetricExporter metricExporter(Transport t, Node n) {
    return switch (t) {
      case GRPC -> OtlpGrpcMetricExporter.builder().setEndpoint(n.grpc()).build();
      case GRPC_GZIP -> OtlpGrpcMetricExporter.builder().setEndpoint(n.grpc()).setCompression("gzip").build();
      case HTTP_PROTOBUF_GZIP -> OtlpHttpMetricExporter.builder().setEndpoint(n.http() + "/v1/metrics").setCompression("gzip").build();
    };
  }
}
