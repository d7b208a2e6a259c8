package mira.query.prune;

import java.util.ArrayList;
import java.util.List;
import mira.block.index.AttrIndex;
import mira.query.doc.Op;
import mira.query.doc.Term;

/**
 * Prunes by {@code attr.idx} for each {@code eq} attribute term: a block whose filter says no
 * value of the key at any level has an equal canonical text cannot hold a row the term selects.
 *
 * <p>Why this agrees with the scan: {@code ValueMatcher} defines {@code eq} as equality of
 * canonical text, except number against number, which is numeric. The filter holds the canonical
 * text of every string, integer, boolean and bytes value at every attribute level, and
 * {@link AttrIndex#mightContain(AttrIndex.Key)} also probes the decimal form of a term that reads
 * as a number and answers "maybe" for any numeric term in a block holding a double. An
 * {@code in} term probes each of its values and skips the block only if none may be there. Only
 * {@code eq} and {@code in} probe: {@code contains} and the orderings have no single text, and {@code exists}
 * asks about a key, which the filter does not hold alone.
 */
final class AttrStep implements BlockPruner {
  private final SidecarCache cache;

  AttrStep(SidecarCache cache) {
    this.cache = cache;
  }

  @Override
  public Test prepare(Probe probe) {
    // One group per term: eq is a group of one, in a group of its values; a block must have
    // some value of every group.
    List<AttrIndex.Key[]> groups = new ArrayList<>();
    for (Term t : probe.where()) {
      if (t instanceof Term.Attr a && a.op() == Op.EQ) {
        groups.add(new AttrIndex.Key[] {AttrIndex.key(a.key(), a.value().text())});
      } else if (t instanceof Term.AttrIn a) {
        AttrIndex.Key[] g = new AttrIndex.Key[a.values().size()];
        for (int i = 0; i < g.length; i++) {
          g[i] = AttrIndex.key(a.key(), a.values().get(i).text());
        }
        groups.add(g);
      }
    }
    if (groups.isEmpty()) {
      return null;
    }
    AttrIndex.Key[][] k = groups.toArray(new AttrIndex.Key[0][]);
    return block -> {
      AttrIndex idx = cache.attr(block);
      if (!idx.known()) {
        return true;
      }
      for (AttrIndex.Key[] group : k) {
        if (!anyMayBe(idx, group)) {
          return false;
        }
      }
      return true;
    };
  }

  private static boolean anyMayBe(AttrIndex idx, AttrIndex.Key[] group) {
    for (AttrIndex.Key key : group) {
      if (idx.mightContain(key)) {
        return true;
      }
    }
    return false;
  }
}
