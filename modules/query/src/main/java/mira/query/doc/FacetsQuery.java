package mira.query.doc;

import java.util.List;
import mira.proto.wire.Signal;

/**
 * A parsed facets document ({@code POST /api/v1/facets}): the records of a search, and the
 * attribute keys whose values are counted over them.
 *
 * @param keys the attribute keys to count, in the order asked, without repeats
 * @param limit the most values listed per key (the rest are counted, not listed)
 */
public record FacetsQuery(Signal signal, long from, long to, List<Term> where, List<String> keys, int limit) {
  public FacetsQuery {
    where = List.copyOf(where);
    keys = List.copyOf(keys);
  }
}
