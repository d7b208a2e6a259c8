package mira.query.result;

import java.util.List;

/**
 * The answer of {@code POST /api/v1/correlate}, before rendering.
 *
 * @param frame the frame after every expander
 * @param tracesTruncated whether trace ids past {@code max_traces} were left out
 * @param entitiesTruncated whether entities past {@code max_entities} were left out
 * @param anchorRows the rows the anchor query matched (0 when continuing from a frame)
 * @param stats the sum of what every read cost
 */
public record CorrelateResult(Frame frame, boolean tracesTruncated, boolean entitiesTruncated, int anchorRows,
    Stats stats, List<Refused> refused) {
  public CorrelateResult {
    refused = List.copyOf(refused);
  }
}
