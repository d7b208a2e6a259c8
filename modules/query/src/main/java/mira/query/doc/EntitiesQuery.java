package mira.query.doc;

import java.util.List;

/**
 * A parsed entities document ({@code POST /api/v1/entities}).
 *
 * @param where attr and entity terms (and not over them), matched against each resource's own
 *     attributes and key
 * @param limit the most entities listed
 */
public record EntitiesQuery(long from, long to, List<Term> where, int limit) {
  public EntitiesQuery {
    where = List.copyOf(where);
  }
}
