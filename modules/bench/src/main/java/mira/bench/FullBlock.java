package mira.bench;

import com.google.protobuf.Message;
import java.util.function.Consumer;
import mira.bench.telemetry.Fleet;
import mira.bench.telemetry.TelemetryStream;
import mira.block.Decoders;
import mira.block.table.Batch;
import mira.proto.wire.Signal;

/**
 * Open blocks filled the way ingest fills them, from the load generator's telemetry
 * ({@link TelemetryStream}): exports of {@link #EXPORT} records decoded and appended until the
 * block reaches the seal size a flusher uses, {@link #SEAL_BYTES}. Deterministic for a seed and a
 * start time; the clock advances one second per export.
 */
public final class FullBlock {
  /** The flusher's seal size (mira.server.ingest.Ingest.TARGET_BLOCK_BYTES). */
  public static final long SEAL_BYTES = 32L << 20;
  /** Records per export: log records, spans or data points. */
  public static final int EXPORT = 8192;
  /** 2026-01-01T00:00:00Z, in ns: a fixed past instant, so "to": "now" always covers the data. */
  public static final long EPOCH_2026 = 1_767_225_600_000_000_000L;

  private FullBlock() {}

  /**
   * A block of {@code signal} grown from the exports of stream {@code stream} of the fleet for
   * {@code seed}, the first export sent at {@code startNanos}, until it holds at least
   * {@code bytes} (the seal size) or a dictionary would overflow.
   */
  public static Batch build(Signal signal, long seed, int stream, long startNanos, long bytes) {
    return build(signal, seed, stream, startNanos, bytes, m -> { });
  }

  /** As {@link #build(Signal, long, int, long, long)}, handing each export appended to {@code sent}. */
  public static Batch build(Signal signal, long seed, int stream, long startNanos, long bytes, Consumer<Message> sent) {
    TelemetryStream ts = new TelemetryStream(new Fleet(seed), seed, stream);
    Batch open = Decoders.empty(signal);
    long now = startNanos;
    while (open.byteSize() < bytes) {
      Message m = switch (signal) {
        case LOGS -> ts.logs(EXPORT, now, false);
        case TRACES -> ts.traces(EXPORT, now, false);
        case METRICS -> ts.metrics(EXPORT, now, false);
      };
      byte[] b = m.toByteArray();
      Batch decoded;
      try {
        decoded = Decoders.decode(signal, b, 0, b.length, now);
      } catch (Exception e) {
        throw new IllegalStateException("the generator's own export did not decode", e);
      }
      boolean fitted = open.tryAppend(decoded);
      Decoders.recycle(decoded);
      if (!fitted) {
        break;
      }
      sent.accept(m);
      now += 1_000_000_000L;
    }
    return open;
  }

  /** {@link #build} to the seal size. */
  public static Batch build(Signal signal, long seed, int stream, long startNanos) {
    return build(signal, seed, stream, startNanos, SEAL_BYTES);
  }
}
