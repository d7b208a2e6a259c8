package mira.block;

import java.util.concurrent.ConcurrentLinkedQueue;
import mira.block.logs.LogsBatch;
import mira.block.logs.LogsDecoder;
import mira.block.metrics.MetricsBatch;
import mira.block.metrics.MetricsDecoder;
import mira.block.traces.TracesBatch;
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
  /** Decoded batches handed back by flushers, per signal, to decode the next export into. */
  private static final BatchPool[] POOLS = {
    new BatchPool(Signal.LOGS), new BatchPool(Signal.TRACES), new BatchPool(Signal.METRICS)
  };
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
          LogsBatch into = (LogsBatch) POOLS[0].take(len);
          yield d.decode(body, off, len, receivedAt, into);
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
          TracesBatch into = (TracesBatch) POOLS[1].take(len);
          yield d.decode(body, off, len, receivedAt, into);
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
          MetricsBatch into = (MetricsBatch) POOLS[2].take(len);
          yield d.decode(body, off, len, receivedAt, into);
        } finally {
          METRICS.offer(d);
        }
      }
    };
  }

  /**
   * Hands a decoded batch back once its rows have been appended to a block, so the next export of
   * its signal is decoded into its arrays. The caller must not use it afterwards.
   */
  public static void recycle(Batch batch) {
    POOLS[batch.signal().ordinal()].offer(batch);
  }

  /** An empty batch of the signal: what an open block starts as. */
  public static Batch empty(Signal signal) {
    return switch (signal) {
      case LOGS -> new LogsBatch();
      case TRACES -> new TracesBatch();
      case METRICS -> new MetricsBatch();
    };
  }
}
