package mira.query.render;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mira.query.doc.Cursor;
import mira.query.result.Attribute;
import mira.query.result.LogRow;
import mira.query.result.Refused;
import mira.query.result.Resource;
import mira.query.result.Row;
import mira.query.result.Scope;
import mira.query.result.SearchResult;
import mira.query.result.SpanRow;
import mira.query.result.Stats;
import mira.query.result.TraceResult;
import mira.query.result.Value;

/**
 * The one JSON renderer of the read results (docs/api.md): search pages, traces, rows, values,
 * stats and refused blocks. Every surface that answers in JSON writes through here, and
 * {@code mira.client} reads exactly this shape back.
 *
 * <p>Values are written in their OTLP type: a string as a string, a boolean as a boolean, a double
 * as a number ({@code "NaN"} and the infinities as strings), an int64 as a decimal string (a JSON
 * number is a double to most readers), bytes as standard padded base64, an array as a JSON array,
 * a kvlist as a JSON object (repeated keys are written as they were stored), an empty value as
 * null. Every row has the same keys: unset fields are written with their OTLP default.
 *
 * <p>Rows read from one block share their {@link Resource} and {@link Scope} records (one per id),
 * and a resource is most of a log row's attributes (about 18 of 21 on the load generator's
 * telemetry). A page writes each shared record's JSON once and copies those bytes into every later
 * row that holds the same record ({@link Shared}); the document is byte for byte what writing
 * every row in full gives.
 */
public final class ResponseJson {
  private ResponseJson() {}

  /** The response document of {@code POST /api/v1/query}. */
  public static byte[] search(SearchResult r) {
    return search(r, false);
  }

  /**
   * The response document of {@code POST /api/v1/query}; with {@code positions}, also every row's
   * place in the total order, as cursors in row order ({@code "positions"}), which is what a replica
   * merging the pages of several nodes needs.
   */
  public static byte[] search(SearchResult r, boolean positions) {
    return Json.render((JsonGenerator g) -> {
      g.writeStartObject();
      g.writeArrayFieldStart("rows");
      Shared shared = new Shared();
      for (Row row : r.rows()) {
        row(g, row, shared);
      }
      g.writeEndArray();
      if (positions) {
        g.writeArrayFieldStart("positions");
        for (Row row : r.rows()) {
          g.writeString(new Cursor(row.time(), row.node(), row.seq(), row.row()).encode());
        }
        g.writeEndArray();
      }
      if (r.next() != null) {
        g.writeStringField("next", r.next());
      }
      stats(g, r.stats());
      refused(g, r.refused());
      g.writeEndObject();
    });
  }

  /** The response document of {@code GET /api/v1/traces/{trace_id}}. */
  public static byte[] trace(TraceResult r) {
    return Json.render((JsonGenerator g) -> {
      g.writeStartObject();
      g.writeStringField("trace_id", r.traceId());
      g.writeArrayFieldStart("rows");
      Shared shared = new Shared();
      for (SpanRow s : r.spans()) {
        span(g, s, shared);
      }
      g.writeEndArray();
      stats(g, r.stats());
      refused(g, r.refused());
      g.writeEndObject();
    });
  }

  /**
   * The compact document of {@code GET /api/v1/traces/{trace_id}?shape=compact} (docs/api.md,
   * "The compact shape"): the same spans, each distinct resource and scope written once in
   * {@code "resources"} and {@code "scopes"} and named from a span by its index there, the trace id
   * written once, and a span's keys left out where they hold their OTLP default. The browser UI
   * asks for it: the 2,000-span trace is 1.4 MB in the full shape and the browser's time to take a
   * body into the page grows with its size (docs/performance.md, "Browser UI").
   */
  public static byte[] traceCompact(TraceResult r) {
    return Json.render((JsonGenerator g) -> {
      // By value, not identity: a merged cluster answer holds one record per row for the same resource.
      Map<Resource, Integer> resources = new LinkedHashMap<>();
      Map<Scope, Integer> scopes = new LinkedHashMap<>();
      for (SpanRow s : r.spans()) {
        resources.putIfAbsent(s.resource(), resources.size());
        scopes.putIfAbsent(s.scope(), scopes.size());
      }
      g.writeStartObject();
      g.writeStringField("trace_id", r.traceId());
      g.writeStringField("shape", "compact");
      g.writeArrayFieldStart("resources");
      for (Resource x : resources.keySet()) {
        resource(g, x);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("scopes");
      for (Scope x : scopes.keySet()) {
        scope(g, x);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("rows");
      for (SpanRow s : r.spans()) {
        compactSpan(g, s, r.traceId(), resources.get(s.resource()), scopes.get(s.scope()));
      }
      g.writeEndArray();
      stats(g, r.stats());
      refused(g, r.refused());
      g.writeEndObject();
    });
  }

  /** A span of the compact shape: the keys of a span row less those at their default. */
  private static void compactSpan(JsonGenerator g, SpanRow s, String traceId, int resource, int scope) throws IOException {
    g.writeStartObject();
    if (!s.traceId().equals(traceId)) {
      g.writeStringField("trace_id", s.traceId());
    }
    g.writeStringField("span_id", s.spanId());
    if (!s.parentSpanId().isEmpty()) {
      g.writeStringField("parent_span_id", s.parentSpanId());
    }
    if (!s.traceState().isEmpty()) {
      g.writeStringField("trace_state", s.traceState());
    }
    if (s.flags() != 0) {
      g.writeNumberField("flags", s.flags());
    }
    g.writeStringField("name", s.name());
    if (s.kind() != 0) {
      g.writeNumberField("kind", s.kind());
    }
    g.writeStringField("start_time_unix_nano", Long.toString(s.startTimeUnixNano()));
    g.writeStringField("end_time_unix_nano", Long.toString(s.endTimeUnixNano()));
    // Not derived from the two times: a row keeps what the store computed (0 for a span without an end).
    g.writeStringField("duration_nano", Long.toString(s.durationNano()));
    if (s.statusCode() != 0 || !s.statusMessage().isEmpty()) {
      g.writeObjectFieldStart("status");
      g.writeNumberField("code", s.statusCode());
      g.writeStringField("message", s.statusMessage());
      g.writeEndObject();
    }
    if (!s.attributes().isEmpty()) {
      attributes(g, s.attributes());
    }
    if (s.droppedAttributesCount() != 0) {
      g.writeNumberField("dropped_attributes_count", s.droppedAttributesCount());
    }
    if (!s.events().isEmpty()) {
      g.writeArrayFieldStart("events");
      for (SpanRow.Event e : s.events()) {
        g.writeStartObject();
        g.writeStringField("time_unix_nano", Long.toString(e.timeUnixNano()));
        g.writeStringField("name", e.name());
        attributes(g, e.attributes());
        g.writeNumberField("dropped_attributes_count", e.droppedAttributesCount());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    if (s.droppedEventsCount() != 0) {
      g.writeNumberField("dropped_events_count", s.droppedEventsCount());
    }
    if (!s.links().isEmpty()) {
      g.writeArrayFieldStart("links");
      for (SpanRow.Link k : s.links()) {
        g.writeStartObject();
        g.writeStringField("trace_id", k.traceId());
        g.writeStringField("span_id", k.spanId());
        g.writeStringField("trace_state", k.traceState());
        g.writeNumberField("flags", k.flags());
        attributes(g, k.attributes());
        g.writeNumberField("dropped_attributes_count", k.droppedAttributesCount());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    if (s.droppedLinksCount() != 0) {
      g.writeNumberField("dropped_links_count", s.droppedLinksCount());
    }
    g.writeNumberField("resource", resource);
    g.writeNumberField("scope", scope);
    g.writeEndObject();
  }

  /** One row as a JSON object (docs/api.md, "Log rows", "Span rows"). */
  public static byte[] row(Row row) {
    return Json.render((JsonGenerator g) -> row(g, row));
  }

  /** Writes one row (docs/api.md, "Log rows", "Span rows"). */
  public static void row(JsonGenerator g, Row row) throws IOException {
    row(g, row, null);
  }

  private static void row(JsonGenerator g, Row row, Shared shared) throws IOException {
    switch (row) {
      case LogRow l -> log(g, l, shared);
      case SpanRow s -> span(g, s, shared);
    }
  }

  public static void log(JsonGenerator g, LogRow l) throws IOException {
    log(g, l, null);
  }

  public static void span(JsonGenerator g, SpanRow s) throws IOException {
    span(g, s, null);
  }

  /**
   * The resources and scopes of one document, by identity: the second time a record is met its
   * JSON is kept, and from then on copied instead of written again. The first time it is written
   * as usual, so a record met once costs nothing extra. Not thread-safe: one per document.
   */
  private static final class Shared {
    /** A record seen once maps to null; from the second time, to its JSON. */
    private final IdentityHashMap<Object, SerializedString> seen = new IdentityHashMap<>();

    /**
     * Writes {@code "name": {...}} for {@code record}, through {@code writer} or from the
     * kept bytes.
     */
    <T> void write(JsonGenerator g, String name, T record, Part<T> writer) throws IOException {
      g.writeFieldName(name);
      if (!seen.containsKey(record)) {
        seen.put(record, null);
        writer.write(g, record);
        return;
      }
      SerializedString json = seen.get(record);
      if (json == null) {
        json = new SerializedString(new String(Json.render((JsonGenerator k) -> writer.write(k, record)),
            StandardCharsets.UTF_8));
        seen.put(record, json);
      }
      g.writeRawValue(json);
    }
  }

  /** Writes one shared record's object (its value, without the field name). */
  @FunctionalInterface
  private interface Part<T> {
    void write(JsonGenerator g, T record) throws IOException;
  }

  private static void log(JsonGenerator g, LogRow l, Shared shared) throws IOException {
    g.writeStartObject();
    g.writeStringField("time_unix_nano", Long.toString(l.timeUnixNano()));
    g.writeStringField("observed_time_unix_nano", Long.toString(l.observedTimeUnixNano()));
    g.writeNumberField("severity_number", l.severityNumber());
    g.writeStringField("severity_text", l.severityText());
    g.writeStringField("event_name", l.eventName());
    g.writeFieldName("body");
    if (l.body() == null) {
      g.writeNull();
    } else {
      value(g, l.body());
    }
    g.writeStringField("trace_id", l.traceId());
    g.writeStringField("span_id", l.spanId());
    g.writeNumberField("flags", l.flags());
    attributes(g, l.attributes());
    g.writeNumberField("dropped_attributes_count", l.droppedAttributesCount());
    resourceAndScope(g, l.resource(), l.scope(), shared);
    g.writeEndObject();
  }

  private static void span(JsonGenerator g, SpanRow s, Shared shared) throws IOException {
    g.writeStartObject();
    g.writeStringField("trace_id", s.traceId());
    g.writeStringField("span_id", s.spanId());
    g.writeStringField("parent_span_id", s.parentSpanId());
    g.writeStringField("trace_state", s.traceState());
    g.writeNumberField("flags", s.flags());
    g.writeStringField("name", s.name());
    g.writeNumberField("kind", s.kind());
    g.writeStringField("start_time_unix_nano", Long.toString(s.startTimeUnixNano()));
    g.writeStringField("end_time_unix_nano", Long.toString(s.endTimeUnixNano()));
    g.writeStringField("duration_nano", Long.toString(s.durationNano()));
    g.writeObjectFieldStart("status");
    g.writeNumberField("code", s.statusCode());
    g.writeStringField("message", s.statusMessage());
    g.writeEndObject();
    attributes(g, s.attributes());
    g.writeNumberField("dropped_attributes_count", s.droppedAttributesCount());
    g.writeArrayFieldStart("events");
    for (SpanRow.Event e : s.events()) {
      g.writeStartObject();
      g.writeStringField("time_unix_nano", Long.toString(e.timeUnixNano()));
      g.writeStringField("name", e.name());
      attributes(g, e.attributes());
      g.writeNumberField("dropped_attributes_count", e.droppedAttributesCount());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeNumberField("dropped_events_count", s.droppedEventsCount());
    g.writeArrayFieldStart("links");
    for (SpanRow.Link k : s.links()) {
      g.writeStartObject();
      g.writeStringField("trace_id", k.traceId());
      g.writeStringField("span_id", k.spanId());
      g.writeStringField("trace_state", k.traceState());
      g.writeNumberField("flags", k.flags());
      attributes(g, k.attributes());
      g.writeNumberField("dropped_attributes_count", k.droppedAttributesCount());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeNumberField("dropped_links_count", s.droppedLinksCount());
    resourceAndScope(g, s.resource(), s.scope(), shared);
    g.writeEndObject();
  }

  private static void resourceAndScope(JsonGenerator g, Resource r, Scope s, Shared shared) throws IOException {
    if (shared == null) {
      g.writeFieldName("resource");
      resource(g, r);
      g.writeFieldName("scope");
      scope(g, s);
    } else {
      shared.write(g, "resource", r, ResponseJson::resource);
      shared.write(g, "scope", s, ResponseJson::scope);
    }
  }

  private static void resource(JsonGenerator g, Resource r) throws IOException {
    g.writeStartObject();
    attributes(g, r.attributes());
    g.writeNumberField("dropped_attributes_count", r.droppedAttributesCount());
    // Always present: null says "this resource has no identity", which is worth seeing.
    g.writeStringField("entity", r.entityHex());
    if (r.schemaUrl() != null) {
      g.writeStringField("schema_url", r.schemaUrl());
    }
    g.writeEndObject();
  }

  private static void scope(JsonGenerator g, Scope s) throws IOException {
    g.writeStartObject();
    g.writeStringField("name", s.name());
    g.writeStringField("version", s.version());
    attributes(g, s.attributes());
    g.writeNumberField("dropped_attributes_count", s.droppedAttributesCount());
    if (s.schemaUrl() != null) {
      g.writeStringField("schema_url", s.schemaUrl());
    }
    g.writeEndObject();
  }

  /** Writes {@code "attributes": {...}}. */
  private static void attributes(JsonGenerator g, List<Attribute> attrs) throws IOException {
    g.writeFieldName("attributes");
    object(g, attrs);
  }

  /** Writes attributes as one JSON object, keys in list order (repeated keys as stored). */
  public static void object(JsonGenerator g, List<Attribute> attrs) throws IOException {
    g.writeStartObject();
    for (Attribute a : attrs) {
      g.writeFieldName(a.key());
      value(g, a.value());
    }
    g.writeEndObject();
  }

  /** Writes one value in its OTLP type (see the class comment). */
  public static void value(JsonGenerator g, Value v) throws IOException {
    switch (v) {
      case Value.Str s -> g.writeString(s.value());
      case Value.Int i -> g.writeString(Long.toString(i.value()));
      case Value.F64 d -> g.writeNumber(d.value());
      case Value.Bool b -> g.writeBoolean(b.value());
      case Value.Bytes b -> {
        byte[] bytes = b.value();
        g.writeBinary(Base64Variants.MIME_NO_LINEFEEDS, bytes, 0, bytes.length);
      }
      case Value.Array a -> {
        g.writeStartArray();
        for (Value x : a.values()) {
          value(g, x);
        }
        g.writeEndArray();
      }
      case Value.KvList m -> object(g, m.entries());
      case Value.Empty e -> g.writeNull();
    }
  }

  /** Writes the stats object: counts of blocks as numbers, 64-bit counts and times as strings. */
  public static void stats(JsonGenerator g, Stats s) throws IOException {
    g.writeObjectFieldStart("stats");
    g.writeNumberField("blocks_total", s.blocksTotal());
    g.writeNumberField("blocks_pruned", s.blocksPruned());
    g.writeNumberField("blocks_scanned", s.blocksScanned());
    g.writeStringField("rows_scanned", Long.toString(s.rowsScanned()));
    g.writeStringField("rows_matched", Long.toString(s.rowsMatched()));
    g.writeStringField("took_ms", Long.toString(s.tookMs()));
    g.writeEndObject();
  }

  /** Writes {@code "refused": [...]} if any block was refused. */
  public static void refused(JsonGenerator g, List<Refused> refused) throws IOException {
    if (refused.isEmpty()) {
      return;
    }
    g.writeArrayFieldStart("refused");
    for (Refused x : refused) {
      g.writeStartObject();
      g.writeStringField("block", x.block());
      g.writeStringField("reason", x.reason());
      g.writeEndObject();
    }
    g.writeEndArray();
  }
}
