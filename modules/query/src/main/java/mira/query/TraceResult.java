package mira.query;

import java.util.List;
import mira.query.render.Envelope;

/**
 * Every stored span of one trace.
 *
 * @param traceId the id asked for, lowercase hex
 * @param spans span rows (UTF-8 JSON objects) sorted by start time, then span id
 * @param stats what the lookup cost
 * @param refused damaged blocks that were skipped
 */
public record TraceResult(String traceId, List<byte[]> spans, Stats stats, List<Refused> refused) {
  public TraceResult {
    spans = List.copyOf(spans);
    refused = List.copyOf(refused);
  }

  /** The response document of {@code GET /api/v1/traces/{trace_id}}. */
  public byte[] toJson() {
    return Envelope.trace(this);
  }
}
