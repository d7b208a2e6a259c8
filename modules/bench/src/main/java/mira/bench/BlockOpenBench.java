package mira.bench;

import mira.block.layout.TableFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import mira.block.catalog.BlockName;
import mira.block.Decoders;
import mira.block.index.AttrIndex;
import mira.block.index.TextIndex;
import mira.block.index.TraceIndex;
import mira.block.index.ZoneIndex;
import mira.block.publish.Publisher;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.read.TableView;
import mira.block.table.Batch;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.TimeStampNanoVector;
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
 * What opening a published block costs with the mapped reader, page cache warm: the block is one
 * seal's worth (32 MiB of tables) of the benchmark corpus, published once per trial. Also the
 * sidecars: building them at seal and reading them per query (docs/performance.md, "Reading blocks").
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Threads(1)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
public class BlockOpenBench {
  @Param({"LOGS", "TRACES"})
  public Signal signal;

  private Path data;
  private BlockRef ref;
  private Batch batch;
  private String root;
  private BufferAllocator allocator;
  private Arena arena;
  private MemorySegment rootMapping;
  private final java.nio.ByteBuffer readBuffer = java.nio.ByteBuffer.allocateDirect(1 << 20);

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    batch = Decoders.empty(signal);
    for (int i = 0; batch.byteSize() < (32L << 20); i++) {
      byte[] b = (signal == Signal.LOGS ? Corpus.logs(8192, i) : Corpus.spans(8192, i)).toByteArray();
      if (!batch.tryAppend(Decoders.decode(signal, b, 0, b.length, 1L))) {
        break;
      }
    }
    data = Files.createTempDirectory("mira-bench-open");
    allocator = new RootAllocator();
    Path dir = new Publisher(data, signal, "bench", allocator).publish(batch, 0, 0);
    ref = new BlockRef(signal, BlockName.parse(dir.getFileName().toString()).orElseThrow(), dir);
    root = signal == Signal.LOGS ? TableFiles.LOGS : TableFiles.SPANS;
    long total = 0;
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      for (Path p : s) {
        System.out.printf("%n%-24s %,12d bytes", p.getFileName(), Files.size(p));
        total += Files.size(p);
      }
    }
    System.out.printf("%n%-24s %,12d bytes, %,d records%n", "block", total, batch.records());
    arena = Arena.ofShared();
    try (FileChannel ch = FileChannel.open(dir.resolve(root), StandardOpenOption.READ)) {
      rootMapping = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    arena.close();
    allocator.close();
    try (Stream<Path> s = Files.walk(data)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** Open the block, map its files, verify and load the root table, read one value, close. */
  @Benchmark
  public long openRootTable() throws Exception {
    try (BlockReader r = BlockReader.open(ref, allocator)) {
      TableView t = r.table(root).orElseThrow();
      return ((TimeStampNanoVector) t.column(signal == Signal.LOGS ? "time_unix_nano" : "start_time_unix_nano")).get(0);
    }
  }

  /** Open the block and verify and load every table. */
  @Benchmark
  public long openEveryTable() throws Exception {
    long rows = 0;
    try (BlockReader r = BlockReader.open(ref, allocator);
        DirectoryStream<Path> s = Files.newDirectoryStream(ref.dir(), "*.arrow")) {
      for (Path p : s) {
        rows += r.table(p.getFileName().toString()).orElseThrow().rows();
      }
    }
    return rows;
  }

  /** The CRC32C pass alone over the root table file (all but its first 8 bytes), read from a mapping. */
  @Benchmark
  public long crcOfRootTable() {
    CRC32C crc = new CRC32C();
    crc.update(rootMapping.asSlice(8, rootMapping.byteSize() - 8).asByteBuffer());
    return crc.getValue();
  }

  /** Mapping and unmapping the root table's file (open, mmap, close the shared arena). */
  @Benchmark
  public long mapAndUnmap() throws IOException {
    try (Arena a = Arena.ofShared(); FileChannel ch = FileChannel.open(ref.dir().resolve(root), StandardOpenOption.READ)) {
      return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), a).address();
    }
  }

  /**
   * A fresh mapping of the root table, CRC32C over it, unmap: what verification costs when every
   * page has to be mapped in (from the page cache) on first touch.
   */
  @Benchmark
  public long mapCrcUnmap() throws IOException {
    try (Arena a = Arena.ofShared(); FileChannel ch = FileChannel.open(ref.dir().resolve(root), StandardOpenOption.READ)) {
      MemorySegment m = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), a);
      CRC32C crc = new CRC32C();
      crc.update(m.asSlice(8, m.byteSize() - 8).asByteBuffer());
      return crc.getValue();
    }
  }

  /**
   * For comparison, not what the reader does: CRC32C over the root table read with positional reads
   * into a reused 1 MiB direct buffer (a copy out of the page cache, but no page of a mapping faulted).
   */
  @Benchmark
  public long readCrc() throws IOException {
    CRC32C crc = new CRC32C();
    try (FileChannel ch = FileChannel.open(ref.dir().resolve(root), StandardOpenOption.READ)) {
      long pos = 8;
      while (true) {
        readBuffer.clear();
        int n = ch.read(readBuffer, pos);
        if (n <= 0) {
          break;
        }
        readBuffer.flip();
        crc.update(readBuffer);
        pos += n;
      }
    }
    return crc.getValue();
  }

  /** Reading and verifying the three sidecars, as a query does before deciding to open a block. */
  @Benchmark
  public boolean readSidecars() {
    return TraceIndex.read(ref.dir()).known() & AttrIndex.read(ref.dir()).known() & ZoneIndex.read(ref.dir()).known();
  }

  /** Building trace.idx alone. */
  @Benchmark
  public int buildTraceIndex() {
    return TraceIndex.build(batch).toBytes().length;
  }

  /** Building attr.idx alone. */
  @Benchmark
  public int buildAttrIndex() {
    return AttrIndex.build(batch).toBytes().length;
  }

  /** Building zone.idx alone. */
  @Benchmark
  public int buildZoneIndex() {
    return ZoneIndex.build(batch).toBytes().length;
  }

  /** Building text.idx alone (trigrams of bodies, or of span names and status messages). */
  @Benchmark
  public int buildTextIndex() {
    return TextIndex.build(batch).toBytes().length;
  }

  /** Building the four sidecars' bytes from the sealed batch (the seal's extra work). */
  @Benchmark
  public int buildSidecars() {
    return TraceIndex.build(batch).toBytes().length + AttrIndex.build(batch).toBytes().length
        + TextIndex.build(batch).toBytes().length + ZoneIndex.build(batch).toBytes().length;
  }
}
