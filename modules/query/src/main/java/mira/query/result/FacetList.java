package mira.query.result;

import java.util.List;

/**
 * The answer of {@code POST /api/v1/facets}, before rendering: for each asked key, the most
 * frequent values among the matching records, with exact counts.
 *
 * <p>Counts, never shares, so answers of several nodes merge exactly: a facet's {@code count},
 * {@code other} and each value's count add up. A node's list is complete when {@code distinct}
 * equals the number of values listed (then {@code other} is 0); a merged top list is exact when
 * every node's list was complete or the merged ranks are clear of every node's {@code other}.
 *
 * @param signal logs or traces
 * @param records records matching the document in the window
 * @param facets one per (key, level) seen, keys in the order asked, levels in {@link AttributeList#LEVELS} order
 * @param missing asked keys that no matching record carries at any level
 */
public record FacetList(String signal, long records, List<Facet> facets, List<String> missing, Stats stats,
    List<Refused> refused) {
  public FacetList {
    facets = List.copyOf(facets);
    missing = List.copyOf(missing);
    refused = List.copyOf(refused);
  }

  /**
   * One key at one level.
   *
   * @param count records carrying the key at this level
   * @param distinct distinct values among them
   * @param values the most frequent, highest count first (ties by value), at most the document's limit
   * @param other records whose value is not listed: {@code count} minus the listed counts
   */
  public record Facet(String key, String level, long count, long distinct, List<ValueCount> values, long other) {
    public Facet {
      values = List.copyOf(values);
    }
  }

  /** A value and the records that carry it. */
  public record ValueCount(Value value, long count) {}
}
