package mira.query.prune;

import java.util.List;
import mira.proto.wire.Signal;
import mira.query.doc.Cursor;
import mira.query.doc.Term;

/**
 * What a query needs from a block, as the pruning step sees it before opening anything.
 *
 * @param signal the signal searched
 * @param from window start (ns, inclusive)
 * @param to window end (ns, inclusive)
 * @param after the paging cursor, or null
 * @param traceId a trace id every returned row must carry (16 bytes), or null
 * @param where the document's terms (a pruner may use eq terms for value probes, ordered terms
 *     on numbers for zone probes)
 */
public record Probe(Signal signal, long from, long to, Cursor after, byte[] traceId, List<Term> where) {
  public Probe {
    where = List.copyOf(where);
  }
}
