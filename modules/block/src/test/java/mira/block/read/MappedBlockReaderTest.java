package mira.block.read;

import mira.block.catalog.BlockRef;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import mira.block.testing.ArrowTables;
import mira.block.testing.ReaderTables;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The zero-copy mapped reader (architecture: Reading blocks). */
class MappedBlockReaderTest {
  @TempDir Path data;
  private BufferAllocator root;

  @BeforeEach
  void allocator() {
    root = new RootAllocator();
  }

  @AfterEach
  void noLeak() {
    assertThat(root.getAllocatedMemory()).as("every buffer and mapping released").isZero();
    root.close();
  }

  /** One Arrow buffer of a loaded table: which vector and buffer, where it is, how long. */
  record Buf(String where, long address, long size) {}

  /** Every buffer of {@code v} and of its children, depth first. */
  static void buffers(String path, FieldVector v, List<Buf> out) {
    List<ArrowBuf> own = v.getFieldBuffers();
    for (int i = 0; i < own.size(); i++) {
      out.add(new Buf(path + "[" + i + "]", own.get(i).memoryAddress(), own.get(i).capacity()));
    }
    for (FieldVector child : v.getChildrenFromFields()) {
      buffers(path + "." + child.getName(), child, out);
    }
  }

  /** The buffers of {@code bufs} that hold bytes and do not lie inside {@code m}. */
  static List<Buf> outside(List<Buf> bufs, MappedBlockReader.Mapping m) {
    List<Buf> out = new ArrayList<>();
    for (Buf b : bufs) {
      if (b.size() > 0 && !m.contains(b.address(), b.size())) {
        out.add(b);
      }
    }
    return out;
  }

  /** What kinds of column a table exercised, so the walk below provably covers them all. */
  static void kinds(FieldVector v, ValueVector dict, Set<String> kinds) {
    if (dict != null) {
      kinds.add("dictionary");
    }
    if (v.getNullCount() > 0 && v.getNullCount() < v.getValueCount()) {
      kinds.add("nullable with nulls");
    }
    switch (v) {
      case FixedSizeBinaryVector x -> kinds.add("fixed-size binary");
      case VarCharVector x -> kinds.add("utf8");
      case VarBinaryVector x -> kinds.add("binary");
      case ListVector x -> kinds.add("list");
      case BitVector x -> kinds.add("bool");
      default -> { }
    }
  }

  @Test
  void everyBufferOfAHotBlockLiesInsideItsMapping() throws Exception {
    Set<String> kinds = new TreeSet<>();
    int checked = 0;
    for (Signal signal : Signal.values()) {
      BlockRef ref = TestBlocks.sample(data, signal, 64, 1);
      Set<String> signalKinds = new TreeSet<>();
      long fileBytes = 0;
      try (MappedBlockReader r = MappedBlockReader.open(ref, root)) {
        for (String file : ReaderTables.files(ref.dir())) {
          fileBytes += Files.size(ref.dir().resolve(file));
          TableView t = r.table(file).orElseThrow();
          MappedBlockReader.Mapping m = r.mapping(file).orElseThrow();
          List<Buf> bufs = new ArrayList<>();
          for (String column : ArrowTables.read(ref.dir(), file).columns()) {
            FieldVector v = t.column(column);
            buffers(file + ":" + column, v, bufs);
            ValueVector dict = t.dictionary(column);
            if (dict != null) {
              buffers(file + ":" + column + "(dictionary)", (FieldVector) dict, bufs);
            }
            kinds(v, dict, signalKinds);
          }
          long nonEmpty = bufs.stream().filter(b -> b.size() > 0).count();
          assertThat(nonEmpty).as(file + " has buffers to check").isPositive();
          assertThat(outside(bufs, m)).as(signal + " " + file + ": buffers outside the mapping " + m).isEmpty();
          checked += (int) nonEmpty;
        }
        // Nothing but the mappings is charged to the block: loading allocated no buffer of its own
        // (Arrow would, for instance, for a validity bitmap the file left empty).
        assertThat(root.getAllocatedMemory()).as(signal + ": bytes charged = bytes mapped").isEqualTo(fileBytes);
      }
      assertThat(signalKinds).as(signal + " exercises")
          .contains("dictionary", "fixed-size binary", "utf8", "binary", "bool", "nullable with nulls");
      kinds.addAll(signalKinds);
    }
    assertThat(kinds).contains("list");
    System.out.println("everyBufferOfAHotBlockLiesInsideItsMapping: " + checked + "/" + checked
        + " non-empty buffers inside their file's mapping; kinds " + kinds);
  }

  @Test
  void theBufferCheckFlagsVectorsThatAreNotInTheMapping() throws Exception {
    BlockRef ref = TestBlocks.sample(data, Signal.LOGS, 64, 1);
    try (MappedBlockReader r = MappedBlockReader.open(ref, root);
        BufferAllocator heap = new RootAllocator()) {
      TableView t = r.table("logs.arrow").orElseThrow();
      MappedBlockReader.Mapping m = r.mapping("logs.arrow").orElseThrow();
      VarCharVector body = (VarCharVector) t.column("body");
      List<Buf> mapped = new ArrayList<>();
      buffers("body", body, mapped);
      assertThat(outside(mapped, m)).isEmpty();

      // The same column copied value by value into memory of another allocator.
      try (VarCharVector copy = new VarCharVector("copy", heap)) {
        copy.allocateNew();
        for (int i = 0; i < body.getValueCount(); i++) {
          copy.copyFromSafe(i, i, body);
        }
        copy.setValueCount(body.getValueCount());
        List<Buf> copied = new ArrayList<>();
        buffers("copy", copy, copied);
        assertThat(outside(copied, m)).as("a heap copy is caught").hasSameSizeAs(copied);
      }
      // And the same table as Arrow Java's own reader loads it (a copy out of the file).
      try (FileChannel ch = FileChannel.open(ref.dir().resolve("logs.arrow"), StandardOpenOption.READ);
          ArrowFileReader arrow = new ArrowFileReader(ch, heap)) {
        arrow.loadNextBatch();
        List<Buf> loaded = new ArrayList<>();
        for (FieldVector v : arrow.getVectorSchemaRoot().getFieldVectors()) {
          buffers(v.getName(), v, loaded);
        }
        assertThat(outside(loaded, m)).as("buffers ArrowFileReader read into memory").isNotEmpty()
            .hasSize((int) loaded.stream().filter(b -> b.size() > 0).count());
      }
      // A mapping of the wrong file does not contain this file's buffers either.
      MappedBlockReader.Mapping other = r.mapping("log_attrs.arrow").orElseThrow();
      assertThat(outside(mapped, other)).isNotEmpty();
    }
  }

  @Test
  void readsExactlyWhatArrowJavasReaderReads() throws Exception {
    for (Signal signal : Signal.values()) {
      BlockRef ref = TestBlocks.sample(data, signal, 200, 2);
      try (BlockReader r = BlockReader.open(ref, root)) {
        var mapped = ReaderTables.all(r, ref.dir());
        var arrow = ReaderTables.allWithArrow(ref.dir());
        assertThat(mapped.keySet()).isEqualTo(arrow.keySet());
        assertThat(mapped).as(signal.toString()).isEqualTo(arrow);
      }
    }
  }

  @Test
  void aBlockWithoutTheTableReadsItAsAbsent() throws Exception {
    BlockRef ref = TestBlocks.sample(data, Signal.TRACES, 8, 1);
    try (BlockReader r = BlockReader.open(ref, root)) {
      assertThat(r.table("logs.arrow")).isEmpty();
      assertThat(r.table("spans.arrow")).isPresent();
    }
  }

  @Test
  void aFlippedBitInATableBodyIsRefusedNamingTheBlockAndTheFile() throws Exception {
    BlockRef ref = TestBlocks.sample(data, Signal.LOGS, 64, 1);
    Path file = ref.dir().resolve("logs.arrow");
    byte[] b = Files.readAllBytes(file);
    b[b.length / 2] ^= 0x10;
    Files.write(file, b);
    try (BlockReader r = BlockReader.open(ref, root)) {
      assertThatThrownBy(() -> r.table("logs.arrow"))
          .isInstanceOfSatisfying(CorruptBlockException.class, e -> {
            assertThat(e.block()).isEqualTo(ref.dir());
            assertThat(e.file()).isEqualTo("logs.arrow");
          })
          .hasMessageContaining(ref.dir().toString()).hasMessageContaining("logs.arrow")
          .hasMessageContaining("CRC32C mismatch");
      // The refusal is remembered, and the block's other tables are unaffected.
      assertThatThrownBy(() -> r.table("logs.arrow")).isInstanceOf(CorruptBlockException.class);
      assertThat(r.table("log_attrs.arrow").orElseThrow().rows()).isPositive();
    }
  }

  /**
   * A bit flip in any byte of a table file is either refused or changes nothing read: the bytes
   * outside the checksummed region (padding, end marker, the footer's schema and block list) are
   * bytes the reader never uses. One flip per byte, the bit varying with the offset.
   */
  @Test
  void aBitFlipInAnyByteIsRefusedOrChangesNothing() throws Exception {
    BlockRef ref = TestBlocks.sample(data, Signal.LOGS, 4, 1);
    Path file = ref.dir().resolve("scopes.arrow");
    byte[] original = Files.readAllBytes(file);
    Object expected = ReaderTables.comparable(ArrowTables.read(ref.dir(), "scopes.arrow").rows());
    List<String> columns = ArrowTables.read(ref.dir(), "scopes.arrow").columns();
    int refused = 0;
    int harmless = 0;
    for (int at = 0; at < original.length; at++) {
      byte[] b = original.clone();
      b[at] ^= (byte) (1 << (at % 8));
      Files.write(file, b);
      try (BlockReader r = BlockReader.open(ref, root)) {
        Object rows;
        try {
          rows = ReaderTables.comparable(ReaderTables.rows(r.table("scopes.arrow").orElseThrow(), columns));
        } catch (CorruptBlockException e) {
          refused++;
          continue;
        }
        assertThat(rows).as("byte " + at + " of " + original.length + " flipped, not refused").isEqualTo(expected);
        harmless++;
      }
    }
    System.out.println("aBitFlipInAnyByteIsRefusedOrChangesNothing: " + original.length + " flips, "
        + refused + " refused, " + harmless + " in bytes the reader does not use");
    assertThat(refused).isGreaterThan(harmless);
  }

  @Test
  void aTruncatedFileIsRefused() throws Exception {
    BlockRef ref = TestBlocks.sample(data, Signal.LOGS, 64, 1);
    Path file = ref.dir().resolve("log_attrs.arrow");
    byte[] b = Files.readAllBytes(file);
    for (int len : new int[] {0, 5, 10, 30, b.length / 2, b.length - 11, b.length - 1}) {
      Files.write(file, java.util.Arrays.copyOf(b, len));
      try (BlockReader r = BlockReader.open(ref, root)) {
        assertThatThrownBy(() -> r.table("log_attrs.arrow")).as("truncated to " + len)
            .isInstanceOf(CorruptBlockException.class).hasMessageContaining("log_attrs.arrow");
      }
    }
  }

  @Test
  void aWrongLeadingMagicIsRefused() throws Exception {
    BlockRef ref = TestBlocks.sample(data, Signal.LOGS, 8, 1);
    Path file = ref.dir().resolve("logs.arrow");
    byte[] b = Files.readAllBytes(file);
    b[0] = 'X';
    Files.write(file, b);
    try (BlockReader r = BlockReader.open(ref, root)) {
      assertThatThrownBy(() -> r.table("logs.arrow")).isInstanceOf(CorruptBlockException.class)
          .hasMessageContaining("no ARROW1 magic at offset 0");
    }
  }

  @Test
  void aTableWithoutTheChecksumMetadataIsRefused() throws Exception {
    BlockRef ref = TestBlocks.sample(data, Signal.LOGS, 8, 1);
    Path file = ref.dir().resolve("logs.arrow");
    // The same table rewritten by Arrow Java's own writer: a valid Arrow file with no mira.* keys.
    Path plain = data.resolve("plain.arrow");
    try (BufferAllocator a = new RootAllocator();
        FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
        ArrowFileReader reader = new ArrowFileReader(in, a);
        FileChannel out = FileChannel.open(plain, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      VectorSchemaRoot vsr = reader.getVectorSchemaRoot();
      try (ArrowFileWriter w = new ArrowFileWriter(vsr, reader, out)) {
        w.start();
        while (reader.loadNextBatch()) {
          w.writeBatch();
        }
        w.end();
      }
    }
    Files.move(plain, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    try (BlockReader r = BlockReader.open(ref, root)) {
      assertThatThrownBy(() -> r.table("logs.arrow")).isInstanceOf(CorruptBlockException.class)
          .hasMessageContaining("lacks mira.crc32c");
    }
  }

  /** A table names its layout version in its footer; one this code does not know is refused. */
  @Test
  void aTableOfAnUnknownLayoutVersionIsRefusedNamingTheVersion() throws Exception {
    BlockRef ref = TestBlocks.sample(data, Signal.LOGS, 8, 1);
    Path file = ref.dir().resolve("logs.arrow");
    byte[] bytes = Files.readAllBytes(file);
    String text = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
    int key = text.lastIndexOf(mira.block.layout.LayoutVersion.KEY);
    assertThat(key).as("the footer names the layout version").isPositive();
    try (BlockReader r = BlockReader.open(ref, root)) {
      assertThat(r.table("logs.arrow")).isPresent();
    }
    // The value (one digit) is a flatbuffer string of length 1: its length, the digit, a NUL.
    int value = text.lastIndexOf("\u0001\u0000\u0000\u0000" + mira.block.layout.LayoutVersion.CURRENT + "\u0000");
    assertThat(value).as("the version's value in the footer").isGreaterThan(text.lastIndexOf("ARROW1", bytes.length - 7) - 4096);
    bytes[value + 4] = '9';
    Files.write(file, bytes);
    try (BlockReader r = BlockReader.open(ref, root)) {
      assertThatThrownBy(() -> r.table("logs.arrow")).isInstanceOfSatisfying(UnsupportedFormatException.class, e -> {
        assertThat(e.version()).isEqualTo("9");
        assertThat(e.file()).isEqualTo("logs.arrow");
        assertThat(e.getMessage()).contains("layout version \"9\"");
      });
    }
  }

  /**
   * A table that says it is layout version 1 (what Mira wrote before attribute text could be a
   * dictionary) still reads: the version check accepts it, and its plain columns read as they are.
   */
  @Test
  void aTableOfLayoutVersionOneStillReads() throws Exception {
    BlockRef ref = TestBlocks.sample(data, Signal.LOGS, 8, 1);
    Path file = ref.dir().resolve("logs.arrow");
    byte[] bytes = Files.readAllBytes(file);
    String text = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
    int value = text.lastIndexOf("\u0001\u0000\u0000\u0000" + mira.block.layout.LayoutVersion.CURRENT + "\u0000");
    assertThat(value).as("the version's value in the footer").isPositive();
    bytes[value + 4] = '1';
    Files.write(file, bytes);
    try (BlockReader r = BlockReader.open(ref, root)) {
      assertThat(r.table("logs.arrow")).isPresent();
      assertThat(r.table("logs.arrow").get().rows()).isEqualTo(8);
    }
  }

  /**
   * Retention unlinks a block while a query reads it: the mappings keep the files alive, so every
   * row still reads correctly, including tables first asked for after the unlink.
   */
  @Test
  void keepsReadingEveryRowAfterTheBlockDirectoryIsDeleted() throws Exception {
    BlockRef ref = TestBlocks.sample(data, Signal.TRACES, 2000, 3);
    var expected = ReaderTables.allWithArrow(ref.dir());
    Map<String, List<String>> columns = new HashMap<>();
    for (String f : expected.keySet()) {
      columns.put(f, ArrowTables.read(ref.dir(), f).columns());
    }
    try (BlockReader r = BlockReader.open(ref, root)) {
      TableView spans = r.table("spans.arrow").orElseThrow();
      assertThat(ReaderTables.comparable(ReaderTables.rows(spans, columns.get("spans.arrow")).subList(0, 10)))
          .isEqualTo(expected.get("spans.arrow").subList(0, 10));

      try (Stream<Path> s = Files.walk(ref.dir())) {
        for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
      assertThat(ref.dir()).doesNotExist();

      for (String f : expected.keySet()) {
        assertThat(ReaderTables.comparable(ReaderTables.rows(r.table(f).orElseThrow(), columns.get(f)))).as(f)
            .isEqualTo(expected.get(f));
      }
    }
  }

  /**
   * A table is verified by reading its file through the page cache, but the vectors read the
   * mapping: when the compactor has renamed another file over the name since the block was mapped,
   * the table still verifies and reads the mapped file's rows.
   */
  @Test
  void aTableFileReplacedAfterTheMappingReadsTheMappedRows() throws Exception {
    BlockRef ref = TestBlocks.sample(data, Signal.LOGS, 500, 4);
    BlockRef other = TestBlocks.sample(data, Signal.LOGS, 40, 5);
    var expected = ReaderTables.allWithArrow(ref.dir());
    List<String> columns = ArrowTables.read(ref.dir(), "logs.arrow").columns();
    try (BlockReader r = BlockReader.open(ref, root)) {
      r.table("resources.arrow").orElseThrow();   // maps every file of the block
      Path replacement = ref.dir().resolve("logs.arrow.cold");
      Files.copy(other.dir().resolve("logs.arrow"), replacement);
      Files.move(replacement, ref.dir().resolve("logs.arrow"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      TableView logs = r.table("logs.arrow").orElseThrow();
      assertThat(logs.rows()).isEqualTo(500);
      assertThat(ReaderTables.comparable(ReaderTables.rows(logs, columns))).isEqualTo(expected.get("logs.arrow"));
    }
  }

  /** The CRC32C by positional reads equals the one over the mapping, and says -1 for what it cannot read. */
  @Test
  void theCrcByReadingEqualsTheCrcOverTheMapping() throws Exception {
    BlockRef ref = TestBlocks.sample(data, Signal.TRACES, 3000, 6);
    Path file = ref.dir().resolve("span_attrs.arrow");
    long size = Files.size(file);
    assertThat(size).as("more than one read chunk").isGreaterThan(256 << 10);
    try (var arena = java.lang.foreign.Arena.ofConfined(); FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
      for (long[] range : new long[][] {{8, size - 8}, {0, size}, {1, 1}, {100, (256 << 10) + 3}}) {
        assertThat(MappedTable.crc32cByReading(file, range[0], range[1])).as("range %d+%d", range[0], range[1])
            .isEqualTo(Integer.toUnsignedLong(MappedTable.crc32c(seg, range[0], range[1])));
      }
    }
    assertThat(MappedTable.crc32cByReading(file, 8, size)).as("past the end").isEqualTo(-1);
    assertThat(MappedTable.crc32cByReading(ref.dir().resolve("gone.arrow"), 8, 10)).isEqualTo(-1);
  }

  @Test
  void aBlockDeletedBeforeItIsReadHasNoTables() throws Exception {
    BlockRef ref = TestBlocks.sample(data, Signal.LOGS, 8, 1);
    try (Stream<Path> s = Files.walk(ref.dir())) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
    try (BlockReader r = BlockReader.open(ref, root)) {
      assertThat(r.table("logs.arrow")).isEmpty();
    }
  }

  @Test
  void closeReleasesEveryBufferAndUnmapsEveryFile() throws Exception {
    BlockRef ref = TestBlocks.sample(data, Signal.METRICS, 32, 1);
    List<MemorySegment> segments = new ArrayList<>();
    MappedBlockReader r = MappedBlockReader.open(ref, root);
    r.table("number_dp.arrow").orElseThrow();
    for (String f : ReaderTables.files(ref.dir())) {
      segments.add(r.segment(f));
    }
    assertThat(root.getAllocatedMemory()).as("mapped bytes are charged to the block").isPositive();
    assertThat(segments).allMatch(s -> s.scope().isAlive());
    r.close();
    assertThat(segments).as("unmapped, loaded or not").noneMatch(s -> s.scope().isAlive());
    assertThat(root.getAllocatedMemory()).isZero();
    assertThat(root.getChildAllocators()).isEmpty();
    assertThatThrownBy(() -> r.table("number_dp.arrow")).isInstanceOf(IllegalStateException.class);
    r.close();
  }

  @Test
  void aVectorKeptAfterCloseIsEmptyNotDangling() throws Exception {
    BlockRef ref = TestBlocks.sample(data, Signal.LOGS, 8, 1);
    FieldVector time;
    try (BlockReader r = BlockReader.open(ref, root)) {
      time = r.table("logs.arrow").orElseThrow().column("time_unix_nano");
      assertThat(time.getValueCount()).isEqualTo(8);
    }
    assertThat(time.getValueCount()).isZero();
  }
}
