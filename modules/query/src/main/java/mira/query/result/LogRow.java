package mira.query.result;

import java.util.List;

/**
 * A log record as stored (docs/api.md, "Log rows"). Unset fields hold their OTLP default: 0 for
 * numbers, "" for strings and ids (ids are lowercase hex).
 *
 * @param body the body, or null when the record had none
 */
public record LogRow(long time, int node, long seq, int row,
    long observedTimeUnixNano, int severityNumber, String severityText, String eventName, Value body,
    String traceId, String spanId, long flags, List<Attribute> attributes, long droppedAttributesCount,
    Resource resource, Scope scope) implements Row {
  public LogRow {
    attributes = List.copyOf(attributes);
  }

  /** The record's time_unix_nano (the same as {@link #time()}). */
  public long timeUnixNano() {
    return time;
  }
}
