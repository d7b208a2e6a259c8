package mira.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mira.block.catalog.BlockName;
import mira.block.Decoders;
import mira.block.column.Column;
import mira.block.cold.Compactor;
import mira.block.publish.Publisher;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.read.TableView;
import mira.block.table.Batch;
import mira.block.table.Table;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
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
 * The cold tier: {@link Compactor#compact} of a full hot block (32 MiB of the load generator's
 * telemetry; every table read, rewritten with ZSTD bodies, fsynced and renamed over the original,
 * then the marker), and what reading the block back costs hot and cold: opening it and loading
 * every table (map, CRC check, and for cold tables the inflate), and the same plus reading every
 * byte of every column (dictionaries included) through {@code ArrowBuf.getLong}. Page cache warm
 * on both sides; fsync is inside {@code compact}.
 *
 * <p>The setup prints the hot and cold bytes per table and the ratio; the compaction's MB/s is the
 * hot bytes divided by {@code compact}'s time.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Threads(1)
@Warmup(iterations = 3, time = 4)
@Measurement(iterations = 5, time = 4)
public class ColdBench {
  @Param({"LOGS", "TRACES"})
  public Signal signal;

  private Path data;
  private BufferAllocator allocator;
  private BlockRef hot;
  private BlockRef cold;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Batch block = FullBlock.build(signal, 1, 0, FullBlock.EPOCH_2026);
    data = Files.createTempDirectory("mira-bench-cold");
    allocator = new RootAllocator();
    Path hotDir = new Publisher(data, signal, "bench", allocator).publish(block, 0, 0);
    hot = ref(hotDir);
    Path coldDir = copy(hotDir, data.resolve("cold").resolve(hotDir.getFileName()));
    Compactor.compact(coldDir, "bench", allocator);
    cold = ref(coldDir);
    long hotBytes = 0;
    long coldBytes = 0;
    System.out.printf("%n%s block, %,d records%n%-26s %14s %14s %8s%n", signal, block.records(), "table", "hot bytes",
        "cold bytes", "ratio");
    for (Path t : tables(hotDir)) {
      long h = Files.size(t);
      long c = Files.size(coldDir.resolve(t.getFileName()));
      hotBytes += h;
      coldBytes += c;
      System.out.printf("%-26s %,14d %,14d %7.2fx%n", t.getFileName(), h, c, (double) h / c);
    }
    System.out.printf("%-26s %,14d %,14d %7.2fx%n", "all tables", hotBytes, coldBytes, (double) hotBytes / coldBytes);
  }

  private BlockRef ref(Path dir) {
    return new BlockRef(signal, BlockName.parse(dir.getFileName().toString()).orElseThrow(), dir);
  }

  static List<Path> tables(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*.arrow")) {
      for (Path p : s) {
        out.add(p);
      }
    }
    out.sort(null);
    return out;
  }

  /** Copies a block directory (every file) to {@code to} (created, parents too). */
  static Path copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (DirectoryStream<Path> s = Files.newDirectoryStream(from)) {
      for (Path p : s) {
        Files.copy(p, to.resolve(p.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
    return to;
  }

  /**
   * A fresh copy of the hot block for each {@code compact} invocation, made before it and outside
   * the measurement. Its own state, so the read benchmarks get no copying between their calls.
   */
  @State(Scope.Thread)
  public static class Scratch {
    Path dir;
    private int copies;

    @Setup(Level.Invocation)
    public void freshCopy(ColdBench b) throws IOException {
      if (dir != null) {
        SealBench.delete(dir.getParent());
      }
      dir = copy(b.hot.dir(), b.data.resolve("scratch-" + copies++).resolve(b.hot.dir().getFileName()));
    }

    @TearDown(Level.Trial)
    public void remove() throws IOException {
      if (dir != null) {
        SealBench.delete(dir.getParent());
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    allocator.close();
    SealBench.delete(data);
  }

  /** Compact a copy of the hot block (made before the invocation, outside the measurement). */
  @Benchmark
  public Path compact(Scratch s) throws IOException {
    Compactor.compact(s.dir, "bench", allocator);
    return s.dir;
  }

  /** Open the hot block and load (map, CRC-check) every table, touching no value. */
  @Benchmark
  public long openHot() throws Exception {
    return openAll(hot, allocator);
  }

  /** The same over the compacted copy: CRC check and ZSTD inflate of every table, no value touched. */
  @Benchmark
  public long openCold() throws Exception {
    return openAll(cold, allocator);
  }

  /** Open the hot block and read every byte of every column of every table. */
  @Benchmark
  public long readHot() throws Exception {
    return readAll(hot, allocator);
  }

  /** The same over the compacted copy: the reader inflates each ZSTD body first. */
  @Benchmark
  public long readCold() throws Exception {
    return readAll(cold, allocator);
  }

  /** Opens the block and loads every table; returns the rows. */
  static long openAll(BlockRef ref, BufferAllocator allocator) throws Exception {
    long rows = 0;
    try (BlockReader r = BlockReader.open(ref, allocator)) {
      for (Table table : Decoders.empty(ref.signal()).tables()) {
        TableView t = r.table(table.file()).orElse(null);
        rows += t == null ? 0 : t.rows();
      }
    }
    return rows;
  }

  /**
   * Opens the block, loads every table and folds every byte of every buffer of every column (and
   * of each dictionary) into a checksum. Column names come from the signal's table layout.
   */
  static long readAll(BlockRef ref, BufferAllocator allocator) throws Exception {
    Batch layout = Decoders.empty(ref.signal());
    long sum = 0;
    try (BlockReader r = BlockReader.open(ref, allocator)) {
      for (Table table : layout.tables()) {
        TableView t = r.table(table.file()).orElse(null);
        if (t == null) {
          continue;
        }
        for (Column c : table.columns()) {
          FieldVector v = t.column(c.name());
          if (v == null) {
            continue;
          }
          sum += fold(v);
          ValueVector d = t.dictionary(c.name());
          if (d != null) {
            sum += fold(d);
          }
        }
      }
    }
    return sum;
  }

  private static long fold(ValueVector v) {
    long sum = 0;
    for (ArrowBuf b : v.getBuffers(false)) {
      long n = b.capacity();
      long i = 0;
      for (; i + 8 <= n; i += 8) {
        sum += b.getLong(i);
      }
      for (; i < n; i++) {
        sum += b.getByte(i);
      }
    }
    return sum;
  }
}
