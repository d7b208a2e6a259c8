package mira.query.prune;

import java.util.ArrayList;
import java.util.List;
import mira.block.index.TextIndex;
import mira.query.doc.Term;

/**
 * Prunes by {@code text.idx} for each {@code text} term of three or more bytes: a block whose
 * filter lacks one of the needle's trigrams holds no body, span name or status message containing
 * the needle, so no row the term selects.
 *
 * <p>Why this agrees with the scan: a {@code text} term matches when its UTF-8 bytes occur in a
 * string body, in the serialized bytes of an array or kvlist body (where each nested string lies
 * whole), in a span's name or in its status message; the filter holds every trigram of exactly
 * those bytes. Terms under {@code not} never prune (a block without the needle may hold rows
 * without it).
 */
final class TextStep implements BlockPruner {
  private final SidecarCache cache;

  TextStep(SidecarCache cache) {
    this.cache = cache;
  }

  @Override
  public Test prepare(Probe probe) {
    List<long[]> needles = new ArrayList<>();
    for (Term t : probe.where()) {
      if (t instanceof Term.Text x) {
        long[] p = TextIndex.probe(x.text());
        if (p != null) {
          needles.add(p);
        }
      }
    }
    if (needles.isEmpty()) {
      return null;
    }
    long[][] all = needles.toArray(new long[0][]);
    return block -> {
      TextIndex idx = cache.text(block);
      for (long[] p : all) {
        if (!idx.mightContain(p)) {
          return false;
        }
      }
      return true;
    };
  }
}
