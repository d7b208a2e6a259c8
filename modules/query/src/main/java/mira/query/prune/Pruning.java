package mira.query.prune;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import mira.block.catalog.BlockRef;

/**
 * Which listed blocks a query opens. Every block first passes the time range in its name (window
 * and cursor), which costs nothing; a published block then passes each {@link BlockPruner} in
 * order, which may read its sidecar indexes (through a {@link SidecarCache}). Snapshots of open
 * blocks have no sidecars and are never probed.
 *
 * <p>The sidecar steps run cheapest and most selective first: {@code trace.idx} when the query
 * pins a trace id (a random id is in about 1 % of the blocks that do not hold it), then
 * {@code attr.idx} for {@code eq} terms, then {@code text.idx} for {@code text} terms (a needle's
 * trigrams), then {@code zone.idx} for numeric comparisons, which on
 * telemetry without a trend over time prunes least. A step the query gives nothing to test reads
 * no file. Thread-safe.
 */
public final class Pruning {
  private final List<BlockPruner> steps;
  private final SidecarCache cache;

  /** Prunes by name, then by {@code steps} in order; no cache to keep in step with the catalogue. */
  public Pruning(List<BlockPruner> steps) {
    this(steps, null);
  }

  private Pruning(List<BlockPruner> steps, SidecarCache cache) {
    this.steps = List.copyOf(steps);
    this.cache = cache;
  }

  /** By the time range in block names alone: no sidecar is read. */
  public static Pruning byNameOnly() {
    return new Pruning(List.of());
  }

  /**
   * By name, then {@code trace.idx}, {@code attr.idx}, {@code text.idx}, the block's entity keys
   * and {@code zone.idx}, read through {@code cache}.
   */
  public static Pruning withSidecars(SidecarCache cache) {
    return new Pruning(List.of(new TraceStep(cache), new AttrStep(cache), new TextStep(cache), new EntityStep(cache),
        new ZoneStep(cache)),
        cache);
  }

  /**
   * Reconciles the sidecar cache (if any) with the whole catalogue under {@code dataDir}: blocks
   * retention removed leave it even if no query lists their window again.
   */
  public void sweep(java.nio.file.Path dataDir) throws java.io.IOException {
    if (cache != null) {
      cache.sweep(dataDir);
    }
  }

  /**
   * The blocks of a listing to open, in listing order.
   *
   * @param blocks the blocks to open
   * @param pruned blocks left out, by name or by a step
   */
  public record Selection(List<BlockRef> blocks, int pruned) {}

  /**
   * Selects the blocks that may hold a row {@code probe} asks for.
   *
   * @param listed every block of {@code probe}'s signal whose name overlaps {@code [probe.from(),
   *     probe.to()]}, published or open — the complete listing of that window, which also tells the
   *     cache which blocks retention has removed
   * @param isSnapshot which of them are snapshots of open blocks
   */
  public Selection select(List<BlockRef> listed, Predicate<BlockRef> isSnapshot, Probe probe) {
    if (cache != null) {
      cache.retain(probe.signal(), probe.from(), probe.to(), listed);
    }
    BlockPruner.Test[] tests = prepare(probe);
    List<BlockRef> out = new ArrayList<>(listed.size());
    int pruned = 0;
    for (BlockRef b : listed) {
      if (byName(b, probe) && (tests.length == 0 || isSnapshot.test(b) || passes(tests, b))) {
        out.add(b);
      } else {
        pruned++;
      }
    }
    return new Selection(out, pruned);
  }

  private BlockPruner.Test[] prepare(Probe probe) {
    List<BlockPruner.Test> tests = new ArrayList<>(steps.size());
    for (BlockPruner p : steps) {
      BlockPruner.Test t = p.prepare(probe);
      if (t != null) {
        tests.add(t);
      }
    }
    return tests.toArray(new BlockPruner.Test[0]);
  }

  private static boolean passes(BlockPruner.Test[] tests, BlockRef b) {
    for (BlockPruner.Test t : tests) {
      if (!t.mayHold(b)) {
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
