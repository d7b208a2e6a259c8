package mira.query.prune;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import mira.query.doc.Term;
import mira.query.entity.ResourceKeys;

/**
 * Prunes by the entity keys of a block's resources table for each {@code entity} term: a block
 * none of whose resources is one of the term's entities holds no row the term selects. The key
 * set is exact (not a filter), read once per block and kept in the {@link SidecarCache} beside
 * its indexes, so it leaves with them; a block whose table cannot be read is opened.
 */
final class EntityStep implements BlockPruner {
  private final SidecarCache cache;

  EntityStep(SidecarCache cache) {
    this.cache = cache;
  }

  @Override
  public Test prepare(Probe probe) {
    List<Set<Long>> terms = new ArrayList<>();
    for (Term t : probe.where()) {
      if (t instanceof Term.Entity e) {
        terms.add(e.keys());
      }
    }
    if (terms.isEmpty()) {
      return null;
    }
    return block -> {
      long[] present = cache.entities(block);
      if (present == null) {
        return true;
      }
      for (Set<Long> wanted : terms) {
        if (!ResourceKeys.anyOf(present, wanted)) {
          return false;
        }
      }
      return true;
    };
  }
}
