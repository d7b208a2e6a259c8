package mira.query.scan;

import mira.block.read.BlockRef;

/**
 * One step of block pruning: may this block hold a row the probe asks for? A pruner may only err
 * towards "yes": answering "no" for a block that holds a matching row loses data silently, so
 * anything it cannot decide (a missing or damaged sidecar, an I/O error) must answer true.
 * Implementations must be thread-safe; they are called from scanning threads.
 */
@FunctionalInterface
public interface BlockPruner {
  boolean mayHold(BlockRef block, Probe probe);
}
