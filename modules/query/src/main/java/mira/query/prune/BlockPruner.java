package mira.query.prune;

import mira.block.catalog.BlockRef;

/**
 * One step of block pruning by a published block's files (its sidecar indexes): may this block
 * hold a row the query asks for? A step may only err towards "yes": answering "no" for a block that
 * holds a matching row loses data silently, so anything it cannot decide (a missing or damaged
 * sidecar, an I/O error) must answer true.
 *
 * <p>A step is prepared once per query, so whatever it derives from the query (hashes of the
 * terms, bounds) is computed once and not once per block. Implementations and their tests must be
 * thread-safe.
 */
public interface BlockPruner {
  /**
   * This step's test for one query, or null if the query gives it nothing to test (then no file is
   * read for it).
   */
  Test prepare(Probe probe);

  /** A prepared step. */
  @FunctionalInterface
  interface Test {
    /** False only if {@code block} (published, not an open-block snapshot) cannot hold a row. */
    boolean mayHold(BlockRef block);
  }
}
