package mira.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import mira.block.publish.Publisher;
import mira.block.table.Batch;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The seal: publishing one full open block (32 MiB of the load generator's telemetry) through
 * {@link Publisher#publish}, exactly as a flusher does — every table written as Arrow IPC with its
 * CRC footer, the three sidecars built and written, each file and both directories fsynced, the
 * staging directory renamed into its partition. fsync is part of the figure, on whatever disk the
 * temporary directory is on (docs/performance.md, "Benchmarks: seal, scan, cold tier").
 *
 * <p>The published directory is removed after each invocation, outside the measurement.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Threads(1)
@Warmup(iterations = 3, time = 4)
@Measurement(iterations = 5, time = 4)
public class SealBench {
  @Param({"LOGS", "TRACES", "METRICS"})
  public Signal signal;

  private Path data;
  private Batch block;
  private BufferAllocator allocator;
  private Publisher publisher;
  private long seq;
  private Path last;

  /**
   * Records sealed, reported by JMH per record (time / records) beside the per-block score. A
   * secondary result: the same run divided by the block's record count.
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Records {
    public long records;

    @Setup(Level.Iteration)
    public void clear() {
      records = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    block = FullBlock.build(signal, 1, 0, FullBlock.EPOCH_2026);
    data = Files.createTempDirectory("mira-bench-seal");
    allocator = new RootAllocator();
    publisher = new Publisher(data, signal, "bench", allocator);
    Path dir = publisher.publish(block, seq++, 0);
    long total = 0;
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      for (Path p : s) {
        total += Files.size(p);
      }
    }
    System.out.printf("%n%s block: %,d records, %,d bytes in memory, %,d bytes published (tables + sidecars)%n",
        signal, block.records(), block.byteSize(), total);
    delete(dir);
  }

  @TearDown(Level.Invocation)
  public void removePublished() throws IOException {
    if (last != null) {
      delete(last);
      last = null;
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    allocator.close();
    delete(data);
  }

  /** Publish the open block: tables, sidecars, fsyncs, rename. */
  @Benchmark
  public Path publish(Records r) throws IOException {
    last = publisher.publish(block, seq++, 0);
    r.records += block.records();
    return last;
  }

  static void delete(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
