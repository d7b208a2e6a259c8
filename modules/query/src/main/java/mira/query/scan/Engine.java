package mira.query.scan;

import java.nio.file.Path;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.read.OpenBlocks;
import mira.proto.wire.Signal;
import mira.query.prune.Pruning;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What every read needs: the data directory, the allocator blocks are read with, the pruning
 * steps, the fan-out budget, the blocks still being filled, and the published blocks held open.
 */
public record Engine(Path dataDir, BufferAllocator allocator, Pruning pruning, ScanThreads fanOut, OpenBlocks openBlocks,
    OpenBlockCache readers) {
  /** The published and open blocks of {@code signal} overlapping {@code [from, to]}, newest first. */
  public Sources sources(Signal signal, long from, long to) throws java.io.IOException {
    return Sources.list(dataDir, openBlocks, signal, from, to);
  }

  /** Opens {@code block} of {@code sources}: a snapshot of an open block, or a published one. Close it when done. */
  public BlockReader open(Sources sources, BlockRef block) {
    return sources.open(block, allocator, readers);
  }

  /** The block's path under the data directory, as responses name it. */
  public String name(BlockRef block) {
    Path rel = dataDir.relativize(block.dir());
    return rel.toString().replace(java.io.File.separatorChar, '/');
  }
}
