package mira.block;

import java.util.concurrent.ConcurrentLinkedQueue;
import mira.block.logs.LogsDecoder;
import mira.block.metrics.MetricsDecoder;
import mira.block.traces.TracesDecoder;
import mira.block.table.Batch;
import mira.block.table.TooLargeException;
import mira.proto.wire.Signal;
import mira.proto.wire.WireException;

/**
 * Decodes an export request of any signal from its protobuf bytes into a {@link Batch}. Safe to
 * call from any number of threads: decoders (which own their readers) are pooled, since request
 * threads are virtual and short-lived and a thread-local would build one per request.
 */
public final class Decoders {
  private static final ConcurrentLinkedQueue<LogsDecoder> LOGS = new ConcurrentLinkedQueue<>();
  private static final ConcurrentLinkedQueue<TracesDecoder> TRACES = new ConcurrentLinkedQueue<>();
  private static final ConcurrentLinkedQueue<MetricsDecoder> METRICS = new ConcurrentLinkedQueue<>();

  private Decoders() {}

  /**
   * Decodes {@code body[off, off + len)}.
   *
   * @param receivedAt receive time in ns since the epoch, for records that carry no time at all
   * @throws WireException if the bytes are not a valid export of that signal (names the field)
   * @throws TooLargeException if the export cannot fit an empty block
   */
  public static Batch decode(Signal signal, byte[] body, int off, int len, long receivedAt)
      throws WireException, TooLargeException {
    return switch (signal) {
      case LOGS -> {
        LogsDecoder d = LOGS.poll();
        if (d == null) {
          d = new LogsDecoder();
        }
        try {
          yield d.decode(body, off, len, receivedAt);
        } finally {
          LOGS.offer(d);
        }
      }
      case TRACES -> {
        TracesDecoder d = TRACES.poll();
        if (d == null) {
          d = new TracesDecoder();
        }
        try {
          yield d.decode(body, off, len, receivedAt);
        } finally {
          TRACES.offer(d);
        }
      }
      case METRICS -> {
        MetricsDecoder d = METRICS.poll();
        if (d == null) {
          d = new MetricsDecoder();
        }
        try {
          yield d.decode(body, off, len, receivedAt);
        } finally {
          METRICS.offer(d);
        }
      }
    };
  }

  /** An empty batch of the signal: what an open block starts as. */
  public static Batch empty(Signal signal) {
    return switch (signal) {
      case LOGS -> new mira.block.logs.LogsBatch();
      case TRACES -> new mira.block.traces.TracesBatch();
      case METRICS -> new mira.block.metrics.MetricsBatch();
    };
  }
}
