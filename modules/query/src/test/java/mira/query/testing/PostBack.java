package mira.query.testing;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * Turns rendered rows back into an OTLP/JSON export, the way a client that read them would: the
 * row's fields are OTLP's own (snake_case, which the receiver accepts), its resource and scope
 * move out to the envelopes, and each plain attribute value becomes the AnyValue its JSON type
 * says — string, bool, double, array, kvlist; null for an empty value.
 */
public final class PostBack {
  private static final JsonFactory JSON = new JsonFactory();

  private PostBack() {}

  public static byte[] logs(List<JsonTree.Obj> rows) {
    return export(rows, "resourceLogs", "scopeLogs", "logRecords");
  }

  public static byte[] spans(List<JsonTree.Obj> rows) {
    return export(rows, "resourceSpans", "scopeSpans", "spans");
  }

  private static byte[] export(List<JsonTree.Obj> rows, String resources, String scopes, String records) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeArrayFieldStart(resources);
      for (JsonTree.Obj row : rows) {
        JsonTree.Obj res = row.obj("resource");
        JsonTree.Obj scope = row.obj("scope");
        g.writeStartObject();
        g.writeObjectFieldStart("resource");
        members(g, res, "schema_url", "entity");
        g.writeEndObject();
        if (res.has("schema_url")) {
          g.writeStringField("schema_url", res.str("schema_url"));
        }
        g.writeArrayFieldStart(scopes);
        g.writeStartObject();
        g.writeObjectFieldStart("scope");
        members(g, scope, "schema_url");
        g.writeEndObject();
        if (scope.has("schema_url")) {
          g.writeStringField("schema_url", scope.str("schema_url"));
        }
        g.writeArrayFieldStart(records);
        g.writeStartObject();
        members(g, row, "resource", "scope", "duration_nano");
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** Writes an object's members, converting attribute maps and bodies, skipping {@code skip}. */
  private static void members(JsonGenerator g, JsonTree.Obj o, String... skip) throws IOException {
    outer:
    for (Map.Entry<String, Object> e : o.members()) {
      for (String s : skip) {
        if (s.equals(e.getKey())) {
          continue outer;
        }
      }
      switch (e.getKey()) {
        case "attributes" -> {
          g.writeArrayFieldStart("attributes");
          keyValues(g, (JsonTree.Obj) e.getValue());
          g.writeEndArray();
        }
        case "body" -> {
          if (e.getValue() != null) {
            g.writeFieldName("body");
            anyValue(g, e.getValue());
          }
        }
        case "events", "links" -> {
          g.writeArrayFieldStart(e.getKey());
          for (Object x : (List<?>) e.getValue()) {
            g.writeStartObject();
            members(g, (JsonTree.Obj) x);
            g.writeEndObject();
          }
          g.writeEndArray();
        }
        case "status" -> {
          g.writeObjectFieldStart("status");
          members(g, (JsonTree.Obj) e.getValue());
          g.writeEndObject();
        }
        default -> {
          g.writeFieldName(e.getKey());
          plain(g, e.getValue());
        }
      }
    }
  }

  private static void keyValues(JsonGenerator g, JsonTree.Obj attrs) throws IOException {
    for (Map.Entry<String, Object> kv : attrs.members()) {
      g.writeStartObject();
      g.writeStringField("key", kv.getKey());
      g.writeFieldName("value");
      anyValue(g, kv.getValue());
      g.writeEndObject();
    }
  }

  private static void anyValue(JsonGenerator g, Object v) throws IOException {
    g.writeStartObject();
    switch (v) {
      case null -> { }
      case String s -> g.writeStringField("stringValue", s);
      case Boolean b -> g.writeBooleanField("boolValue", b);
      case Double d -> g.writeNumberField("doubleValue", d);
      case Long l -> g.writeNumberField("doubleValue", l.doubleValue());
      case List<?> l -> {
        g.writeObjectFieldStart("arrayValue");
        g.writeArrayFieldStart("values");
        for (Object x : l) {
          anyValue(g, x);
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      case JsonTree.Obj o -> {
        g.writeObjectFieldStart("kvlistValue");
        g.writeArrayFieldStart("values");
        keyValues(g, o);
        g.writeEndArray();
        g.writeEndObject();
      }
      default -> throw new IllegalArgumentException("not a JSON value: " + v);
    }
    g.writeEndObject();
  }

  private static void plain(JsonGenerator g, Object v) throws IOException {
    switch (v) {
      case null -> g.writeNull();
      case String s -> g.writeString(s);
      case Long l -> g.writeNumber(l);
      case Double d -> g.writeNumber(d);
      case Boolean b -> g.writeBoolean(b);
      default -> throw new IllegalArgumentException("unexpected field value " + v);
    }
  }
}
