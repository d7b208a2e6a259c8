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
 * Decode + append on one thread: an 8192-record export's protobuf bytes decoded into a batch and
 * appended to an open block, which is dropped (not published) at the 32 MiB seal size. The score
 * is records per second on one core (docs/performance.md, "ingest per core").
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

  private byte[][] logs;
  private int next;
  private Batch open;

  @Setup(Level.Trial)
  public void setUp() {
    logs = new byte[8][];
    for (int i = 0; i < logs.length; i++) {
      logs[i] = Corpus.logs(RECORDS, i).toByteArray();
    }
    open = Decoders.empty(Signal.LOGS);
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Batch logs() throws Exception {
    byte[] b = logs[next++ & 7];
    Batch batch = Decoders.decode(Signal.LOGS, b, 0, b.length, 1L);
    if (!open.tryAppend(batch) || open.byteSize() >= (32L << 20)) {
      open = Decoders.empty(Signal.LOGS);
      open.tryAppend(batch);
    }
    return open;
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Batch logsDecodeOnly() throws Exception {
    byte[] b = logs[next++ & 7];
    return Decoders.decode(Signal.LOGS, b, 0, b.length, 1L);
  }
}
