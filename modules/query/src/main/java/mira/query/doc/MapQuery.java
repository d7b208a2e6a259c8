package mira.query.doc;

import java.util.List;
import mira.query.result.Frame;

/**
 * A parsed map document ({@code POST /api/v1/map}).
 *
 * @param where span terms the counted spans satisfy
 * @param frame a frame whose membership the spans must satisfy too, or null
 */
public record MapQuery(long from, long to, List<Term> where, Frame frame) {
  public MapQuery {
    where = List.copyOf(where);
  }
}
