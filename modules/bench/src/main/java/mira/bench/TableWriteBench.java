package mira.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import mira.block.index.Sidecars;
import mira.block.publish.TableWriter;
import mira.block.table.Batch;
import mira.block.table.Table;
import mira.fs.Fs;
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
 * The CPU parts of a seal apart, on one full block (as {@link SealBench} builds it): {@code heap}
 * writes every table with {@link TableWriter#write} (Arrow IPC straight from the heap columns),
 * {@code vectors} the way tables were written before (columns copied into Arrow vectors, then Arrow
 * Java's file writer: {@link TableWriter#load} and {@link TableWriter#writeRoot}), and
 * {@code sidecars} builds and writes the sidecar indexes. Both writers fsync every file, so put the
 * directory on a memory filesystem ({@code -Dmira.bench.dir=/dev/shm}) to leave the disk out and
 * compare CPU; on a disk the fsyncs dominate (docs/performance.md, "Where a record's CPU goes").
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Threads(1)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class TableWriteBench {
  @Param({"LOGS", "TRACES"})
  public Signal signal;

  @Param({"heap", "vectors", "sidecars"})
  public String part;

  private Batch block;
  private BufferAllocator allocator;
  private Path dir;
  private int n;

  /** Records of the block, per invocation: the secondary result is time per record. */
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
    allocator = new RootAllocator();
    Path parent = Path.of(System.getProperty("mira.bench.dir", System.getProperty("java.io.tmpdir")));
    dir = Files.createTempDirectory(parent, "mira-bench-tables");
  }

  @TearDown(Level.Invocation)
  public void removeWritten() throws IOException {
    SealBench.delete(dir);
    Files.createDirectory(dir);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    allocator.close();
    SealBench.delete(dir);
  }

  @Benchmark
  public long write(Records r) throws IOException {
    long bytes = 0;
    Path into = dir.resolve(Integer.toString(n++));
    Files.createDirectory(into);
    if (part.equals("sidecars")) {
      bytes = Sidecars.write(block, into, Fs.REAL).size();
    } else {
      for (Table t : block.tables()) {
        if (t.rows() == 0) {
          continue;
        }
        Path file = into.resolve(t.file());
        if (part.equals("heap")) {
          bytes += TableWriter.write(t, t.rows(), file, Fs.REAL);
        } else {
          try (TableWriter.Loaded l = TableWriter.load(t, t.rows(), allocator)) {
            bytes += TableWriter.writeRoot(l.root(), l.dictionaries(), file, null, Fs.REAL);
          }
        }
      }
    }
    r.records += block.records();
    return bytes;
  }
}
