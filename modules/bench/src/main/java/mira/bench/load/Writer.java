package mira.bench.load;

import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import mira.bench.telemetry.Fleet;
import mira.bench.telemetry.TelemetryStream;
import mira.proto.json.OtlpJson;

/**
 * One exporter's loop: claim an export, generate it (clock read here, incident by the run's
 * progress), encode it for the protocol, send it and retry it while the server says UNAVAILABLE,
 * and count the outcome. Records taken from accepted exports feed the readers' {@link Known}.
 */
final class Writer implements Runnable {
  /** Attempts per export, the first included, before a retried export counts as failed. */
  static final int MAX_ATTEMPTS = 6;
  /** The longest retry delay honoured, whatever the server asks (keeps runs bounded). */
  static final long MAX_RETRY_MILLIS = 5_000;

  private Run run;
  private final Exporter exporter;
  private final TelemetryStream stream;
  private final SplittableRandom rnd;
  private final Known known;
  Tally tally = new Tally();

  /** Writer number {@code index} of a run with options {@code o}; {@link #reset} gives it its run. */
  Writer(Options o, Exporter exporter, Fleet fleet, int index, Known known) {
    this.exporter = exporter;
    this.stream = new TelemetryStream(fleet, o.seed, index);
    this.rnd = new SplittableRandom(o.seed ^ (0xC0FFEEL * (index + 1)));
    this.known = known;
  }

  /** Starts counting afresh for {@code next} (after a warm-up); the stream carries on. */
  void reset(Run next) {
    run = next;
    tally = new Tally();
  }

  @Override
  public void run() {
    Options o = run.options;
    while (run.claim()) {
      boolean incident = !run.warmup && o.incidentAt(run.progress());
      Signal signal = o.mix.pick(rnd);
      Instant now = Instant.now();
      long nowNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
      Message m = switch (signal) {
        case LOGS -> stream.logs(o.batch, nowNanos, incident);
        case TRACES -> stream.traces(o.batch, nowNanos, incident);
        case METRICS -> stream.metrics(o.batch, nowNanos, incident);
      };
      int wire = m.getSerializedSize();
      byte[] body = o.protocol == Options.Protocol.HTTP_JSON ? OtlpJson.encode(m) : m.toByteArray();
      if (o.gzip && o.protocol != Options.Protocol.GRPC) body = gzip(body);
      send(signal, m, wire, body);
    }
  }

  private void send(Signal signal, Message m, int wire, byte[] body) {
    for (int attempt = 1; ; attempt++) {
      long t0 = System.nanoTime();
      Outcome out;
      try {
        out = exporter.send(signal, body);
      } catch (RuntimeException e) {
        // A transport that throws (a closed channel, a client bug) must not end the loop unseen.
        out = Outcome.failed(e.toString());
      }
      long took = System.nanoTime() - t0;
      switch (out.kind()) {
        case ACCEPTED -> {
          tally.accepted(signal, run.options.batch, wire, body.length, took);
          remember(m);
          return;
        }
        case FAILED -> {
          tally.failed(out.detail());
          return;
        }
        case RETRY -> {
          tally.retried(out.detail());
          long wait = Math.min(MAX_RETRY_MILLIS, Math.max(100, out.retryAfterMillis()));
          if (attempt == MAX_ATTEMPTS || !run.mayRetryAfter(wait)) {
            tally.failed("gave up after " + attempt + " attempts: " + out.detail());
            return;
          }
          try {
            Thread.sleep(wait);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            tally.failed("interrupted");
            return;
          }
        }
      }
    }
  }

  private void remember(Message m) {
    if (m instanceof ExportTraceServiceRequest t && t.getResourceSpansCount() > 0) {
      Span s = t.getResourceSpans(0).getScopeSpans(0).getSpans(0);
      known.traceId(HexFormat.of().formatHex(s.getTraceId().toByteArray()));
    } else if (m instanceof ExportLogsServiceRequest l && l.getResourceLogsCount() > 0) {
      LogRecord r = l.getResourceLogs(0).getScopeLogs(0).getLogRecords(0);
      for (KeyValue kv : r.getAttributesList()) {
        if (kv.getKey().equals("request.id")) known.requestId(kv.getValue().getStringValue());
      }
    }
  }

  static byte[] gzip(byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 4 + 64);
    try (GZIPOutputStream z = new GZIPOutputStream(out, 64 * 1024)) {
      z.write(body);
    } catch (IOException e) {
      throw new UncheckedIOException("gzip into memory failed", e);
    }
    return out.toByteArray();
  }
}
