package mira.query.doc;

import java.util.List;
import mira.proto.wire.Signal;

/**
 * A parsed {@code POST /api/v1/query} document.
 *
 * @param signal logs or traces
 * @param from window start, ns, inclusive
 * @param to window end, ns, inclusive
 * @param where terms, all of which a row must satisfy (empty: every row)
 * @param limit rows per page, 1..{@value Documents#MAX_LIMIT}
 * @param after the cursor to continue from, or null for the first page
 */
public record SearchQuery(Signal signal, long from, long to, List<Term> where, int limit, Cursor after) {
  public SearchQuery {
    where = List.copyOf(where);
  }
}
