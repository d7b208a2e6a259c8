package mira.query.prune;

import mira.block.index.TraceIndex;
import mira.block.catalog.BlockRef;

/**
 * Prunes by {@code trace.idx} when the query pins one trace id (a trace lookup, or an {@code eq}
 * term on {@code trace_id}): a block whose filter says the id is absent holds no row of it.
 */
final class TraceStep implements BlockPruner {
  private final SidecarCache cache;

  TraceStep(SidecarCache cache) {
    this.cache = cache;
  }

  @Override
  public Test prepare(Probe probe) {
    byte[] id = probe.traceId();
    if (id == null || id.length != 16) {
      return null;
    }
    return block -> mayHold(block, id);
  }

  private boolean mayHold(BlockRef block, byte[] id) {
    TraceIndex t = cache.trace(block);
    return t.mightContain(id, 0);
  }
}
