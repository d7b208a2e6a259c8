package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the browser tests look at, sent by the OpenTelemetry SDK over OTLP/HTTP: a frontend calling
 * checkout, which queries PostgreSQL (a service that sends no spans, so a virtual node on the map),
 * with logs inside the spans, one failing trace with an exception, span links between traces,
 * request metrics with exemplars; a 2,000-span trace; and 10,000 untraced log lines.
 */
final class UiSeed {
  static final int CART_TRACES = 5;
  static final int BIG_TRACE_SPANS = 2000;
  static final int BULK_LOGS = 10_000;

  /** Trace ids: every cart trace oldest first (the last one failed) and the big one. */
  record Facts(List<String> cartTraces, String errorTrace, String bigTrace) {
    String json() {
      return "{\"cartTraces\": [\"" + String.join("\", \"", cartTraces) + "\"], \"errorTrace\": \"" + errorTrace
          + "\", \"bigTrace\": \"" + bigTrace + "\", \"bigTraceSpans\": " + BIG_TRACE_SPANS
          + ", \"bulkLogs\": " + BULK_LOGS + "}";
    }
  }

  /** One service's providers, batching as a production SDK does, with room for the whole seed. */
  record Service(SdkTracerProvider tracing, SdkLoggerProvider logging, SdkMeterProvider metering, Tracer tracer,
      Logger logger) implements AutoCloseable {
    static Service of(Node node, String name, String instance) {
      Resource res = Resource.create(Attributes.builder().put("service.name", name)
          .put("service.instance.id", instance).put("deployment.environment.name", "test").build());
      SdkTracerProvider t = SdkTracerProvider.builder().setResource(res).addSpanProcessor(BatchSpanProcessor.builder(
          OtlpHttpSpanExporter.builder().setEndpoint(node.http() + "/v1/traces").build())
          .setMaxQueueSize(8192).setMaxExportBatchSize(1024).build()).build();
      SdkLoggerProvider l = SdkLoggerProvider.builder().setResource(res).addLogRecordProcessor(
          BatchLogRecordProcessor.builder(OtlpHttpLogRecordExporter.builder().setEndpoint(node.http() + "/v1/logs").build())
              .setMaxQueueSize(16384).setMaxExportBatchSize(2048).build()).build();
      SdkMeterProvider m = SdkMeterProvider.builder().setResource(res).registerMetricReader(PeriodicMetricReader.builder(
          OtlpHttpMetricExporter.builder().setEndpoint(node.http() + "/v1/metrics").build())
          .setInterval(Duration.ofHours(1)).build()).build();
      return new Service(t, l, m, t.get("mira-ui-test"), l.get("mira-ui-test"));
    }

    @Override
    public void close() {
      assertThat(tracing.forceFlush().join(60, TimeUnit.SECONDS).isSuccess()).as("spans flushed").isTrue();
      assertThat(logging.forceFlush().join(60, TimeUnit.SECONDS).isSuccess()).as("logs flushed").isTrue();
      assertThat(metering.forceFlush().join(60, TimeUnit.SECONDS).isSuccess()).as("metrics flushed").isTrue();
      tracing.shutdown().join(10, TimeUnit.SECONDS);
      logging.shutdown().join(10, TimeUnit.SECONDS);
      metering.shutdown().join(10, TimeUnit.SECONDS);
    }
  }

  private UiSeed() {}

  static Facts send(Node node) throws InterruptedException {
    List<String> carts = new ArrayList<>();
    String big;
    try (Service frontend = Service.of(node, "frontend", "fe-1"); Service checkout = Service.of(node, "checkout", "co-1");
        Service bulk = Service.of(node, "bulk", "bulk-1")) {
      LongCounter requests = checkout.metering().get("mira-ui-test").counterBuilder("http.server.requests")
          .setUnit("{request}").setDescription("requests served").build();
      DoubleHistogram latency = checkout.metering().get("mira-ui-test").histogramBuilder("http.server.request.duration")
          .setUnit("ms").build();
      SpanContext previous = null;
      for (int i = 0; i < CART_TRACES; i++) {
        boolean fail = i == CART_TRACES - 1;
        var rootBuilder = frontend.tracer().spanBuilder("GET /cart").setSpanKind(SpanKind.SERVER)
            .setAttribute("http.route", "/cart").setAttribute("http.request.method", "GET");
        if (previous != null) {
          rootBuilder.addLink(previous, Attributes.of(AttributeKey.stringKey("link.reason"), "retry of the last cart"));
        }
        Span root = rootBuilder.startSpan();
        carts.add(root.getSpanContext().getTraceId());
        previous = root.getSpanContext();
        try (Scope r = root.makeCurrent()) {
          frontend.logger().logRecordBuilder().setSeverity(Severity.INFO).setBody("cart requested")
              .setAttribute(AttributeKey.longKey("cart.items"), 3L + i).emit();
          Span call = frontend.tracer().spanBuilder("POST checkout").setSpanKind(SpanKind.CLIENT)
              .setAttribute("server.address", "checkout").startSpan();
          try (Scope c = call.makeCurrent()) {
            Span server = checkout.tracer().spanBuilder("POST /checkout").setSpanKind(SpanKind.SERVER)
                .setParent(Context.current().with(call)).setAttribute("http.route", "/checkout").startSpan();
            try (Scope s = server.makeCurrent()) {
              checkout.logger().logRecordBuilder().setSeverity(Severity.INFO).setBody("loading cart " + i).emit();
              Span db = checkout.tracer().spanBuilder("SELECT cart").setSpanKind(SpanKind.CLIENT)
                  .setAttribute("db.system", "postgresql").setAttribute("db.namespace", "shop").startSpan();
              Thread.sleep(2);
              if (fail) {
                db.recordException(new IllegalStateException("cart table is locked"));
                db.setStatus(StatusCode.ERROR, "lock timeout");
                checkout.logger().logRecordBuilder().setSeverity(Severity.ERROR).setBody("cart query failed: lock timeout")
                    .setAttribute(AttributeKey.stringKey("db.namespace"), "shop").emit();
                server.setStatus(StatusCode.ERROR, "cart unavailable");
              }
              db.end();
              requests.add(1, Attributes.of(AttributeKey.stringKey("http.route"), "/checkout"));
              latency.record(fail ? 250.0 : 3.0 + i, Attributes.of(AttributeKey.stringKey("http.route"), "/checkout"));
            } finally {
              server.end();
            }
          } finally {
            call.end();
          }
        } finally {
          root.end();
        }
        // One metrics export per request, a little apart, so the charts have a line to draw.
        assertThat(checkout.metering().forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).as("metrics flushed").isTrue();
        Thread.sleep(300);
      }

      // One wide and deep trace: span i is a child of span (i - 1) / 3.
      List<Span> spans = new ArrayList<>();
      Span top = bulk.tracer().spanBuilder("bulk import").setSpanKind(SpanKind.SERVER).startSpan();
      spans.add(top);
      big = top.getSpanContext().getTraceId();
      for (int i = 1; i < BIG_TRACE_SPANS; i++) {
        Span parent = spans.get((i - 1) / 3);
        spans.add(bulk.tracer().spanBuilder("step " + i).setParent(Context.root().with(parent)).startSpan());
      }
      for (int i = spans.size() - 1; i >= 0; i--) {
        spans.get(i).end();
      }

      for (int i = 0; i < BULK_LOGS; i++) {
        Severity sev = i % 97 == 0 ? Severity.ERROR : i % 13 == 0 ? Severity.WARN : i % 3 == 0 ? Severity.DEBUG : Severity.INFO;
        bulk.logger().logRecordBuilder().setContext(Context.root()).setSeverity(sev).setSeverityText(sev.name())
            .setBody("bulk line " + i).setAttribute(AttributeKey.longKey("line"), (long) i).emit();
      }
    }
    return new Facts(carts, carts.getLast(), big);
  }
}
