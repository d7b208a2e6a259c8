package mira.block.read;

import mira.block.catalog.BlockRef;
import java.util.Optional;
import mira.block.index.AttrIndex;
import mira.block.index.TraceIndex;
import mira.block.index.ZoneIndex;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A published block opened for reading. Tables are loaded on first use and verified (Arrow magic,
 * the CRC32C in the footer) before any value is returned. Not thread-safe; close it when done.
 */
public interface BlockReader extends AutoCloseable {
  /**
   * Opens {@code ref} with the zero-copy mapped reader ({@link MappedBlockReader}). Touches no file
   * until a table or an index is asked for.
   *
   * @param allocator parent of the block's own child allocator; must outlive the block
   */
  static BlockReader open(BlockRef ref, BufferAllocator allocator) {
    return MappedBlockReader.open(ref, allocator);
  }

  BlockRef ref();

  /**
   * The table stored as {@code file} (e.g. {@code logs.arrow}), or empty if the block has no such
   * file (empty tables are not written).
   *
   * @throws CorruptBlockException if the file is damaged; nothing from it is returned
   */
  Optional<TableView> table(String file) throws CorruptBlockException;

  /**
   * The block's trace-id filter ({@code trace.idx}), read on first call. Never null: a block
   * without a usable one answers "maybe" to every id ({@link TraceIndex#known()} is false).
   */
  default TraceIndex traceIndex() {
    return TraceIndex.read(ref().dir());
  }

  /** The block's attribute filter ({@code attr.idx}); never null, "maybe" to everything if unusable. */
  default AttrIndex attrIndex() {
    return AttrIndex.read(ref().dir());
  }

  /** The block's min/max map ({@code zone.idx}); never null, "maybe" to everything if unusable. */
  default ZoneIndex zoneIndex() {
    return ZoneIndex.read(ref().dir());
  }

  @Override
  void close();
}
