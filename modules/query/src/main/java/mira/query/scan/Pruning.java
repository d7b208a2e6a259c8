package mira.query.scan;

import java.util.List;
import mira.block.read.BlockRef;

/**
 * The pruning steps a block passes before it is opened, in order. Today there is one, the time
 * range in the block's name (window and cursor); the sidecar probes (trace.idx, attr.idx,
 * zone.idx) are further {@link BlockPruner}s appended to {@link #defaults()}.
 */
public final class Pruning {
  private final List<BlockPruner> steps;

  public Pruning(List<BlockPruner> steps) {
    this.steps = List.copyOf(steps);
  }

  /** The steps every query uses. */
  public static Pruning defaults() {
    return new Pruning(List.of(Pruning::byName));
  }

  /** True if every step says the block may hold a row. */
  public boolean mayHold(BlockRef block, Probe probe) {
    for (BlockPruner p : steps) {
      if (!p.mayHold(block, probe)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The block name's time range against the window, and against the cursor: a block whose oldest
   * row is newer than the cursor's time holds only rows at or above the cursor.
   */
  static boolean byName(BlockRef block, Probe probe) {
    long min = block.name().minTime();
    long max = block.name().maxTime();
    if (max < probe.from() || min > probe.to()) {
      return false;
    }
    return probe.after() == null || min <= probe.after().time();
  }
}
