package mira.query.result;

import java.util.List;

/**
 * One page of a search.
 *
 * @param rows newest first, at most the document's limit
 * @param next the cursor of the last row when the page filled the limit (pass it back as
 *     {@code after}), else null
 * @param stats what the page cost
 * @param refused damaged blocks that were skipped (empty when none)
 */
public record SearchResult(List<Row> rows, String next, Stats stats, List<Refused> refused) {
  public SearchResult {
    rows = List.copyOf(rows);
    refused = List.copyOf(refused);
  }
}
