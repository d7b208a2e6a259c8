package mira.proto.json;

import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;

/**
 * The traces signal below the request: resource, scope, span, event, link and status. Conventions
 * as {@link CommonDecoder}.
 */
final class TraceDecoder {
  private TraceDecoder() {}

  static ResourceSpans resourceSpans(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    ResourceSpans.Builder b = ResourceSpans.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "resource" -> b.setResource(CommonDecoder.resource(in));
        case "scopeSpans", "scope_spans" -> {
          in.enterArray();
          while (in.nextElement()) b.addScopeSpans(scopeSpans(in));
        }
        case "schemaUrl", "schema_url" -> b.setSchemaUrl(in.string());
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static ScopeSpans scopeSpans(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    ScopeSpans.Builder b = ScopeSpans.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "scope" -> b.setScope(CommonDecoder.scope(in));
        case "spans" -> {
          in.enterArray();
          while (in.nextElement()) b.addSpans(span(in));
        }
        case "schemaUrl", "schema_url" -> b.setSchemaUrl(in.string());
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static Span span(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    Span.Builder b = Span.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "traceId", "trace_id" -> b.setTraceId(in.hexId(16));
        case "spanId", "span_id" -> b.setSpanId(in.hexId(8));
        case "traceState", "trace_state" -> b.setTraceState(in.string());
        case "parentSpanId", "parent_span_id" -> b.setParentSpanId(in.hexId(8));
        case "flags" -> b.setFlags(in.uint32());
        case "name" -> b.setName(in.string());
        case "kind" -> b.setKindValue(in.enumNumber(Span.SpanKind.getDescriptor()));
        case "startTimeUnixNano", "start_time_unix_nano" -> b.setStartTimeUnixNano(in.uint64());
        case "endTimeUnixNano", "end_time_unix_nano" -> b.setEndTimeUnixNano(in.uint64());
        case "attributes" -> {
          in.enterArray();
          while (in.nextElement()) b.addAttributes(CommonDecoder.keyValue(in));
        }
        case "droppedAttributesCount", "dropped_attributes_count" ->
            b.setDroppedAttributesCount(in.uint32());
        case "events" -> {
          in.enterArray();
          while (in.nextElement()) b.addEvents(event(in));
        }
        case "droppedEventsCount", "dropped_events_count" -> b.setDroppedEventsCount(in.uint32());
        case "links" -> {
          in.enterArray();
          while (in.nextElement()) b.addLinks(link(in));
        }
        case "droppedLinksCount", "dropped_links_count" -> b.setDroppedLinksCount(in.uint32());
        case "status" -> b.setStatus(status(in));
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static Span.Event event(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    Span.Event.Builder b = Span.Event.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "timeUnixNano", "time_unix_nano" -> b.setTimeUnixNano(in.uint64());
        case "name" -> b.setName(in.string());
        case "attributes" -> {
          in.enterArray();
          while (in.nextElement()) b.addAttributes(CommonDecoder.keyValue(in));
        }
        case "droppedAttributesCount", "dropped_attributes_count" ->
            b.setDroppedAttributesCount(in.uint32());
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static Span.Link link(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    Span.Link.Builder b = Span.Link.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "traceId", "trace_id" -> b.setTraceId(in.hexId(16));
        case "spanId", "span_id" -> b.setSpanId(in.hexId(8));
        case "traceState", "trace_state" -> b.setTraceState(in.string());
        case "attributes" -> {
          in.enterArray();
          while (in.nextElement()) b.addAttributes(CommonDecoder.keyValue(in));
        }
        case "droppedAttributesCount", "dropped_attributes_count" ->
            b.setDroppedAttributesCount(in.uint32());
        case "flags" -> b.setFlags(in.uint32());
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static Status status(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    Status.Builder b = Status.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "message" -> b.setMessage(in.string());
        case "code" -> b.setCodeValue(in.enumNumber(Status.StatusCode.getDescriptor()));
        default -> in.skip();
      }
    }
    return b.build();
  }
}
