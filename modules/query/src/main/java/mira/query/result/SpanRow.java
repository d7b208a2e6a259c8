package mira.query.result;

import java.util.List;

/**
 * A span as stored, with its events and links (docs/api.md, "Span rows"). Unset fields hold their
 * OTLP default: 0 for numbers, "" for strings and ids (ids are lowercase hex). {@link #time()} is
 * the time the span is ordered by: its start time, or its end time when the start is unset, or
 * its block's newest time when both are.
 */
public record SpanRow(long time, int node, long seq, int row,
    String traceId, String spanId, String parentSpanId, String traceState, long flags, String name, int kind,
    long startTimeUnixNano, long endTimeUnixNano, long durationNano, int statusCode, String statusMessage,
    List<Attribute> attributes, long droppedAttributesCount, List<Event> events, long droppedEventsCount,
    List<Link> links, long droppedLinksCount, Resource resource, Scope scope) implements Row {
  public SpanRow {
    attributes = List.copyOf(attributes);
    events = List.copyOf(events);
    links = List.copyOf(links);
  }

  /** A span event. */
  public record Event(long timeUnixNano, String name, List<Attribute> attributes, long droppedAttributesCount) {
    public Event {
      attributes = List.copyOf(attributes);
    }
  }

  /** A link to another span. */
  public record Link(String traceId, String spanId, String traceState, long flags, List<Attribute> attributes,
      long droppedAttributesCount) {
    public Link {
      attributes = List.copyOf(attributes);
    }
  }
}
