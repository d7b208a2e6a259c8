package mira.query.result;

import java.util.List;

/**
 * Every stored span of one trace.
 *
 * @param traceId the id asked for, lowercase hex
 * @param spans span rows sorted by start time, then span id
 * @param stats what the lookup cost
 * @param refused damaged blocks that were skipped
 */
public record TraceResult(String traceId, List<SpanRow> spans, Stats stats, List<Refused> refused) {
  public TraceResult {
    spans = List.copyOf(spans);
    refused = List.copyOf(refused);
  }
}
