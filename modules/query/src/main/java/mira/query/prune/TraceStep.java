package mira.query.prune;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import mira.block.catalog.BlockRef;
import mira.block.index.TraceIndex;
import mira.query.doc.RootField;
import mira.query.doc.Term;

/**
 * Prunes by {@code trace.idx} when the query pins one trace id (a trace lookup, or an {@code eq}
 * term on {@code trace_id}): a block whose filter says the id is absent holds no row of it. An
 * {@code in} term on {@code trace_id} skips a block only if the filter rules out every id.
 */
final class TraceStep implements BlockPruner {
  private final SidecarCache cache;

  TraceStep(SidecarCache cache) {
    this.cache = cache;
  }

  @Override
  public Test prepare(Probe probe) {
    List<byte[][]> groups = new ArrayList<>();
    byte[] id = probe.traceId();
    if (id != null && id.length == 16) {
      groups.add(new byte[][] {id});
    }
    for (Term t : probe.where()) {
      if (t instanceof Term.FieldIn f && f.field() == RootField.TRACE_ID) {
        byte[][] g = new byte[f.values().size()][];
        for (int i = 0; i < g.length; i++) {
          g[i] = HexFormat.of().parseHex(f.values().get(i).text().toLowerCase(Locale.ROOT));
        }
        groups.add(g);
      }
    }
    if (groups.isEmpty()) {
      return null;
    }
    return block -> {
      TraceIndex t = cache.trace(block);
      for (byte[][] g : groups) {
        if (!anyMayBe(t, g)) {
          return false;
        }
      }
      return true;
    };
  }

  private static boolean anyMayBe(TraceIndex t, byte[][] ids) {
    for (byte[] id : ids) {
      if (t.mightContain(id, 0)) {
        return true;
      }
    }
    return false;
  }

  private boolean mayHold(BlockRef block, byte[] id) {
    TraceIndex t = cache.trace(block);
    return t.mightContain(id, 0);
  }
}
