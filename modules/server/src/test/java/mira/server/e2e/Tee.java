package mira.server.e2e;

import io.opentelemetry.exporter.internal.otlp.logs.LogsRequestMarshaler;
import io.opentelemetry.exporter.internal.otlp.metrics.MetricsRequestMarshaler;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Exporters that hand each batch to the real OTLP exporter and, when it reports success, keep the
 * OTLP request the SDK put on the wire for that batch (serialized by the SDK's own marshaler and
 * parsed back with protobuf-java): what Mira acknowledged, to compare with what it stored.
 */
final class Tee {
  private Tee() {}

  static byte[] bytes(io.opentelemetry.exporter.internal.marshal.Marshaler m) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      m.writeBinaryTo(out);
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Exports through {@code export}; when it succeeds, keeps the request the SDK sent for it. */
  static <R> CompletableResultCode tee(byte[] wire, com.google.protobuf.Parser<R> parser,
      java.util.function.Supplier<CompletableResultCode> export, List<R> acked, List<CompletableResultCode> results) {
    CompletableResultCode r = export.get();
    results.add(r);
    r.whenComplete(() -> {
      if (r.isSuccess()) {
        try {
          acked.add(parser.parseFrom(wire));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    });
    return r;
  }

  static final class Logs implements LogRecordExporter {
    final LogRecordExporter delegate;
    final List<ExportLogsServiceRequest> acked = new CopyOnWriteArrayList<>();
    final List<CompletableResultCode> results = new CopyOnWriteArrayList<>();

    Logs(LogRecordExporter delegate) {
      this.delegate = delegate;
    }

    @Override
    public CompletableResultCode export(Collection<LogRecordData> logs) {
      return tee(bytes(LogsRequestMarshaler.create(logs)), ExportLogsServiceRequest.parser(), () -> delegate.export(logs), acked, results);
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

  static final class Spans implements SpanExporter {
    final SpanExporter delegate;
    final List<ExportTraceServiceRequest> acked = new CopyOnWriteArrayList<>();
    final List<CompletableResultCode> results = new CopyOnWriteArrayList<>();

    Spans(SpanExporter delegate) {
      this.delegate = delegate;
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
      return tee(bytes(TraceRequestMarshaler.create(spans)), ExportTraceServiceRequest.parser(), () -> delegate.export(spans), acked, results);
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

  static final class Metrics implements MetricExporter {
    final MetricExporter delegate;
    final List<ExportMetricsServiceRequest> acked = new CopyOnWriteArrayList<>();
    final List<CompletableResultCode> results = new CopyOnWriteArrayList<>();

    Metrics(MetricExporter delegate) {
      this.delegate = delegate;
    }

    @Override
    public CompletableResultCode export(Collection<MetricData> metrics) {
      return tee(bytes(MetricsRequestMarshaler.create(metrics)), ExportMetricsServiceRequest.parser(), () -> delegate.export(metrics), acked, results);
    }

    @Override
    public AggregationTemporality getAggregationTemporality(InstrumentType type) {
      return delegate.getAggregationTemporality(type);
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
}
