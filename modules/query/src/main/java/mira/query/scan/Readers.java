package mira.query.scan;

import mira.block.read.BlockReader;
import mira.block.read.BlockRef;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The one place the query layer opens a block. Today that is {@link HeapBlockReader}; the mapped
 * zero-copy reader implements the same {@link BlockReader} interface and replaces it here.
 */
public final class Readers {
  private Readers() {}

  /** Opens {@code block}; the caller closes the reader. Tables are verified as they are loaded. */
  public static BlockReader open(BlockRef block, BufferAllocator allocator) {
    return BlockReader.open(block, allocator);
  }
}
