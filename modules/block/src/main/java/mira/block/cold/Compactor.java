package mira.block.cold;

import mira.block.codec.ColdLayout;
import mira.block.codec.ZstdCodec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import mira.fs.Fs;
import mira.block.read.CorruptBlockException;
import mira.block.read.MappedBlockReader;
import mira.block.publish.TableWriter;
import mira.block.catalog.BlockRef;
import mira.block.catalog.Catalog;
import mira.block.catalog.ColdFormat;
import mira.block.catalog.ColdMarker;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowFileReader;

/**
 * Rewrites blocks into the cold tier: every table file of a block is read, written again with ZSTD
 * bodies beside itself under a name carrying the node id (two nodes sharing a directory may both
 * see a block go cold), fsynced, and renamed over the original. The {@link ColdMarker} file is written
 * last; a block without it is (re)compacted by the next sweep, table by table, which is idempotent.
 */
public final class Compactor {
  /** A block goes cold this long after its newest record: the partition width. */
  public static final long COLD_AFTER_NS = 3_600_000_000_000L;
  /** Blocks rewritten per sweep at most (the first sweep over an old volume is spread out). */
  public static final int MAX_PER_SWEEP = 8;

  private static final System.Logger LOG = System.getLogger(Compactor.class.getName());

  private Compactor() {}

  /**
   * Compacts up to {@link #MAX_PER_SWEEP} hot blocks, oldest first, whose newest record is older
   * than {@code nowNanos - COLD_AFTER_NS}.
   *
   * @return the blocks compacted
   */
  public static List<Path> sweep(Path dataDir, String nodeHex, long nowNanos, ColdFormat format, BufferAllocator allocator)
      throws IOException {
    return sweep(dataDir, nodeHex, nowNanos, format, allocator, Fs.REAL);
  }

  /** As {@link #sweep(Path, String, long, ColdFormat, BufferAllocator)}, writing through {@code files}. */
  public static List<Path> sweep(Path dataDir, String nodeHex, long nowNanos, ColdFormat format, BufferAllocator allocator,
      Fs files) throws IOException {
    return sweep(dataDir, nodeHex, nowNanos, format, allocator, files, () -> false);
  }

  /**
   * As above, asking {@code stop} before each block: once it says true the sweep ends after the
   * block under way, so a node shutting down never has a compaction cut in the middle of a write.
   */
  public static List<Path> sweep(Path dataDir, String nodeHex, long nowNanos, ColdFormat format, BufferAllocator allocator,
      Fs files, java.util.function.BooleanSupplier stop) throws IOException {
    // Hot blocks first, oldest first; then cold blocks written in another format than the one
    // asked for (the setting changed, or they predate formats), so a change of retention.cold_format
    // reaches every block in time.
    List<BlockRef> candidates = new ArrayList<>();
    List<BlockRef> reformat = new ArrayList<>();
    for (Signal s : Signal.values()) {
      for (BlockRef r : Catalog.list(dataDir, s, Long.MIN_VALUE, nowNanos - COLD_AFTER_NS - 1)) {
        if (r.name().maxTime() >= nowNanos - COLD_AFTER_NS) {
          continue;
        }
        // One read of the marker: none (or one this version cannot read) means hot.
        ColdFormat written = ColdMarker.format(r.dir());
        if (written == null) {
          candidates.add(r);
        } else if (written != format) {
          reformat.add(r);
        }
      }
    }
    candidates.sort(Catalog.NEWEST_FIRST.reversed());
    reformat.sort(Catalog.NEWEST_FIRST.reversed());
    candidates.addAll(reformat);
    List<Path> done = new ArrayList<>();
    for (BlockRef r : candidates) {
      if (done.size() >= MAX_PER_SWEEP || stop.getAsBoolean()) {
        break;
      }
      try {
        String damage = damage(r, allocator);
        if (damage != null) {
          // Rewriting would stamp a fresh CRC over damaged bytes: the block stays hot, where every read refuses it.
          LOG.log(System.Logger.Level.WARNING, "not compacting damaged block " + r.dir() + ": " + damage);
          continue;
        }
        compact(r.dir(), nodeHex, format, allocator, files);
        done.add(r.dir());
      } catch (NoSuchFileException e) {
        // Retention removed it meanwhile.
      }
    }
    return done;
  }

  /**
   * Why the block's tables cannot be trusted (a table's CRC, footer or layout version fails the
   * mapped reader's check), or null if every table verifies.
   */
  static String damage(BlockRef r, BufferAllocator allocator) throws IOException {
    List<String> files = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(r.dir(), "*.arrow")) {
      for (Path p : s) {
        files.add(p.getFileName().toString());
      }
    }
    try (MappedBlockReader reader = MappedBlockReader.open(r, allocator)) {
      for (String f : files) {
        reader.table(f);
      }
    } catch (CorruptBlockException e) {
      return e.getMessage();
    }
    return null;
  }

  /** Rewrites every table of the block in the {@link ColdFormat#MIRA} format, then writes the marker. */
  public static void compact(Path blockDir, String nodeHex, BufferAllocator parent) throws IOException {
    compact(blockDir, nodeHex, ColdFormat.MIRA, parent);
  }

  /**
   * Rewrites every table of the block compressed in {@code format}, then writes the marker. A table
   * already rewritten (in either format, by an interrupted compaction) is read back to its plain
   * form first, so the block ends in one format.
   */
  public static void compact(Path blockDir, String nodeHex, ColdFormat format, BufferAllocator parent) throws IOException {
    compact(blockDir, nodeHex, format, parent, Fs.REAL);
  }

  /** As {@link #compact(Path, String, ColdFormat, BufferAllocator)}, writing through {@code files}. */
  public static void compact(Path blockDir, String nodeHex, ColdFormat format, BufferAllocator parent, Fs files)
      throws IOException {
    List<Path> tables = new ArrayList<>(files.list(blockDir, "*.arrow"));
    tables.sort(null);
    // A cold block being rewritten in another format stops being cold first: a crash part-way then
    // leaves a block the next sweep compacts again, never one whose marker names the wrong format.
    Path marker = blockDir.resolve(ColdMarker.FILE);
    if (files.delete(marker)) {
      files.fsyncDir(blockDir);
    }
    try (BufferAllocator allocator = parent.newChildAllocator("compact " + blockDir.getFileName(), 0, Long.MAX_VALUE)) {
      for (Path table : tables) {
        Path staged = table.resolveSibling(table.getFileName() + "." + nodeHex + ".cold");
        files.delete(staged);
        try (FileChannel ch = FileChannel.open(table, StandardOpenOption.READ);
            ArrowFileReader r = new ArrowFileReader(ch, allocator, ZstdCodec.FACTORY)) {
          VectorSchemaRoot root = r.getVectorSchemaRoot();
          if (!r.loadNextBatch()) {
            throw new IOException(table + " holds no record batch");
          }
          DictionaryProvider.MapDictionaryProvider dicts = new DictionaryProvider.MapDictionaryProvider();
          for (Dictionary d : r.getDictionaryVectors().values()) {
            dicts.put(d);
          }
          // A table an interrupted compaction already rewrote is read back to its plain form first.
          // Closing a root closes its vectors; the roots below share some with the reader's, and
          // closing a vector twice is harmless.
          try (VectorSchemaRoot plain = ColdLayout.undo(root.getSchema(), root, allocator)) {
            if (format == ColdFormat.MIRA) {
              try (VectorSchemaRoot cold = ColdLayout.apply(plain, allocator)) {
                TableWriter.writeRoot(cold, dicts, staged, ZstdCodec.FACTORY, files);
              }
            } else {
              TableWriter.writeRoot(plain, dicts, staged, ZstdCodec.STANDARD, files);
            }
          }
        } catch (IOException | RuntimeException e) {
          try {
            files.delete(staged);
          } catch (IOException cleanup) {
            e.addSuppressed(cleanup);
          }
          throw e;
        }
        // Replace by rename: a reader with the old file mapped keeps reading the old inode.
        files.replace(staged, table);
      }
      // The renames must be durable before the marker can say the block is cold.
      files.fsyncDir(blockDir);
      try (FileChannel m = files.openWrite(marker)) {
        m.write(ByteBuffer.wrap(format.name().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII)));
        m.force(true);
      }
      files.fsyncDir(blockDir);
    }
  }
}
