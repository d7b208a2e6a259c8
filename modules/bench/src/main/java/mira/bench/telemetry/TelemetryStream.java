package mira.bench.telemetry;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.util.SplittableRandom;

/**
 * One exporter's telemetry: a sequence of OTLP exports of any signal, as a collector in front of
 * the {@link Fleet} would send them.
 *
 * <p>Logs point into the traces of the same stream: {@link #LOG_TRACED_FRACTION} of log records
 * carry the trace and span id of a span this stream generated (or, before it generated any, of a
 * trace it will generate next), the rest carry none. {@link #GENAI_TRACE_FRACTION} of traces take
 * the assistant path, whose model call carries {@code gen_ai.prompt} and {@code gen_ai.completion}
 * of {@link #GENAI_MIN_BYTES} to {@link #GENAI_MAX_BYTES} each. While {@code incident} is passed
 * true, the {@link Incident}'s services fail more and answer more slowly in every signal.
 *
 * <p>Deterministic: the exports are a function of the fleet, the seed, the stream number and the
 * sequence of calls with their arguments (the clock is an argument, never read here). Not
 * thread-safe; one per exporter thread.
 */
public final class TelemetryStream {
  /** Share of log records that carry trace context. */
  public static final double LOG_TRACED_FRACTION = 0.4;
  /** Share of traces that take the assistant path and so hold a span with GenAI attributes. */
  public static final double GENAI_TRACE_FRACTION = 0.04;
  /** Bounds of the length of {@code gen_ai.prompt} and {@code gen_ai.completion}, in bytes. */
  public static final int GENAI_MIN_BYTES = 2048;
  public static final int GENAI_MAX_BYTES = 8192;
  static final String SCHEMA_URL = "https://opentelemetry.io/schemas/1.30.0";

  private final TraceBuilder traces;
  private final LogBuilder logs;
  private final PointBuilder points;

  /**
   * A stream over {@code fleet} (which may be shared between streams). Streams with different
   * {@code stream} numbers and the same seed produce different ids and values.
   */
  public TelemetryStream(Fleet fleet, long seed, int stream) {
    SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + stream);
    SpanRing ring = new SpanRing();
    KvCache kv = new KvCache();
    traces = new TraceBuilder(fleet, ring, rnd, kv);
    logs = new LogBuilder(fleet, ring, rnd, kv);
    points = new PointBuilder(fleet, ring, rnd, kv);
  }

  /**
   * An export of exactly {@code records} log records written in the second before {@code nowNanos}
   * (traced ones at a time inside their span).
   */
  public ExportLogsServiceRequest logs(int records, long nowNanos, boolean incident) {
    return logs.build(records, nowNanos, incident);
  }

  /**
   * An export of exactly {@code spans} spans: whole traces that ended in the second before
   * {@code nowNanos}, the last one cut short (a cut trace still has every parent it refers to).
   */
  public ExportTraceServiceRequest traces(int spans, long nowNanos, boolean incident) {
    return traces.build(spans, nowNanos, incident);
  }

  /**
   * An export of exactly {@code points} data points, taken at {@code nowNanos} and, when one round
   * over the fleet is not enough, at the 10-second intervals before it.
   */
  /** Data points in one round over the fleet, every pod's metrics once (what one scrape interval holds). */
  public int pointsPerRound() {
    return points.perRound();
  }

  public ExportMetricsServiceRequest metrics(int points, long nowNanos, boolean incident) {
    return this.points.build(points, nowNanos, incident);
  }
}
