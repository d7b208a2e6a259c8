package mira.query.scan;

import java.nio.file.Path;
import mira.block.read.BlockRef;
import mira.block.read.OpenBlocks;
import mira.proto.wire.Signal;
import mira.query.prune.Pruning;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What every read needs: the data directory, the allocator blocks are read with, the pruning
 * steps and the fan-out budget.
 */
public record Engine(Path dataDir, BufferAllocator allocator, Pruning pruning, FanOut fanOut, OpenBlocks openBlocks) {
  /** The published and open blocks of {@code signal} overlapping {@code [from, to]}, newest first. */
  public Sources sources(Signal signal, long from, long to) throws java.io.IOException {
    return Sources.list(dataDir, openBlocks, signal, from, to);
  }

  /** The block's path under the data directory, as responses name it. */
  public String name(BlockRef block) {
    Path rel = dataDir.relativize(block.dir());
    return rel.toString().replace(java.io.File.separatorChar, '/');
  }
}
