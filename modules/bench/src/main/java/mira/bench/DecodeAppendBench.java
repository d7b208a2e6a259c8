package mira.bench;

import java.util.concurrent.TimeUnit;
import mira.block.Decoders;
import mira.block.table.Batch;
import mira.proto.wire.Signal;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decode + append on one thread, per signal: an export of 8192 records (log records, spans or data
 * points) decoded from its protobuf bytes into a batch and appended to an open block, which is
 * dropped (not published) at the 32 MiB seal size. The score is records per second on one core
 * (docs/performance.md, "ingest per core").
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Threads(1)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
public class DecodeAppendBench {
  static final int RECORDS = 8192;

  private final byte[][][] exports = new byte[3][8][];
  private int next;
  private final Batch[] open = new Batch[3];

  @Setup(Level.Trial)
  public void setUp() {
    for (int i = 0; i < 8; i++) {
      exports[0][i] = Corpus.logs(RECORDS, i).toByteArray();
      exports[1][i] = Corpus.spans(RECORDS, i).toByteArray();
      exports[2][i] = Corpus.metrics(RECORDS, i).toByteArray();
    }
    for (Signal s : Signal.values()) {
      open[s.ordinal()] = Decoders.empty(s);
    }
  }

  private Batch decodeAppend(Signal s) throws Exception {
    byte[] b = exports[s.ordinal()][next++ & 7];
    Batch batch = Decoders.decode(s, b, 0, b.length, 1L);
    Batch o = open[s.ordinal()];
    if (o.byteSize() >= (32L << 20) || !o.tryAppend(batch)) {
      // What a flusher does at the seal size, minus the publish: reuse the block's arrays.
      o.clear();
      o.tryAppend(batch);
    }
    Decoders.recycle(batch);
    return o;
  }

  /** Log records per second: decode an 8192-record export and append it to the open block. */
  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Batch logs() throws Exception {
    return decodeAppend(Signal.LOGS);
  }

  /** Spans per second, as for logs. */
  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Batch spans() throws Exception {
    return decodeAppend(Signal.TRACES);
  }

  /** Data points per second, as for logs. */
  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Batch metrics() throws Exception {
    return decodeAppend(Signal.METRICS);
  }

  /** Log records per second decoded into a batch, without the append (where the time goes). */
  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Batch logsDecodeOnly() throws Exception {
    byte[] b = exports[0][next++ & 7];
    return Decoders.decode(Signal.LOGS, b, 0, b.length, 1L);
  }
}
