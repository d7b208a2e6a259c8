package mira.query.scan;

import java.nio.file.Path;
import mira.block.read.BlockRef;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What every read needs: the data directory, the allocator blocks are read with, the pruning
 * steps and the fan-out budget.
 */
public record Engine(Path dataDir, BufferAllocator allocator, Pruning pruning, FanOut fanOut) {
  /** The block's path under the data directory, as responses name it. */
  public String name(BlockRef block) {
    Path rel = dataDir.relativize(block.dir());
    return rel.toString().replace(java.io.File.separatorChar, '/');
  }
}
