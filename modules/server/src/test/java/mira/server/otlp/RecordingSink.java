package mira.server.otlp;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import mira.proto.wire.Signal;
import mira.server.ingest.IngestSink;

/**
 * A sink that parses every export with protobuf-java (proving the receivers handed over a complete
 * Export*ServiceRequest), keeps it, and answers with a settable outcome. A body that does not parse
 * is answered Invalid and recorded as a failure.
 */
final class RecordingSink implements IngestSink {
  record Received(Signal signal, Message request, int length) {}

  final List<Received> received = new CopyOnWriteArrayList<>();
  final List<String> unparsable = new CopyOnWriteArrayList<>();
  /** Receiver-level refusals reported, as "signal status". */
  final List<String> refused = new CopyOnWriteArrayList<>();
  private final AtomicReference<Outcome> next = new AtomicReference<>(new Accepted(0));
  private final AtomicReference<Retry> nextReserve = new AtomicReference<>();
  /** Bytes reserved and not yet released. */
  final java.util.concurrent.atomic.AtomicLong reserved = new java.util.concurrent.atomic.AtomicLong();

  /** The next {@link #reserve} is refused with {@code retry} (once). */
  void refuseNextReserve(Retry retry) {
    nextReserve.set(retry);
  }

  /** What every following export is told (the request is still parsed and recorded). */
  void answer(Outcome outcome) {
    next.set(outcome);
  }

  void reset() {
    received.clear();
    unparsable.clear();
    refused.clear();
    next.set(new Accepted(0));
    nextReserve.set(null);
  }

  @Override
  public Retry reserve(Signal signal, long bytes) {
    Retry r = nextReserve.getAndSet(null);
    if (r == null) {
      reserved.addAndGet(bytes);
    }
    return r;
  }

  @Override
  public void release(long bytes) {
    reserved.addAndGet(-bytes);
  }

  @Override
  public Outcome submit(Signal signal, byte[] body, int length) {
    Message parsed;
    try {
      CodedInputStream in = CodedInputStream.newInstance(body, 0, length);
      parsed = switch (signal) {
        case LOGS -> ExportLogsServiceRequest.parseFrom(in);
        case TRACES -> ExportTraceServiceRequest.parseFrom(in);
        case METRICS -> ExportMetricsServiceRequest.parseFrom(in);
      };
    } catch (IOException e) {
      unparsable.add(signal + ": " + e.getMessage());
      return new Invalid("test sink: not an Export" + signal + " request: " + e.getMessage());
    }
    received.add(new Received(signal, parsed, length));
    return next.get();
  }

  @Override
  public void refusedAtReceiver(Signal signal, int httpStatus) {
    refused.add(signal + " " + httpStatus);
  }

  @SuppressWarnings("unchecked")
  <T extends Message> List<T> requests(Signal signal) {
    return received.stream().filter(r -> r.signal() == signal).map(r -> (T) r.request()).toList();
  }
}
