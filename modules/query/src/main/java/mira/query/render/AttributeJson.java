package mira.query.render;

import mira.query.result.AttributeList;
import mira.query.result.FacetList;
import mira.query.result.Value;

/**
 * Renders the attribute listing ({@code GET /api/v1/attributes}) and facets
 * ({@code POST /api/v1/facets}). Counts are 64-bit, so written as decimal strings like every other
 * count of the API; a facet value is written in its OTLP type as an attribute value is, with its
 * type named beside it, because an int64 and bytes are written as text.
 */
public final class AttributeJson {
  private AttributeJson() {}

  public static byte[] attributes(AttributeList r) {
    return Json.render(g -> {
      g.writeStartObject();
      g.writeStringField("signal", r.signal());
      g.writeStringField("records", Long.toString(r.records()));
      g.writeArrayFieldStart("attributes");
      for (AttributeList.Key k : r.keys()) {
        g.writeStartObject();
        g.writeStringField("key", k.key());
        g.writeStringField("level", k.level());
        g.writeArrayFieldStart("types");
        for (String t : k.types()) {
          g.writeString(t);
        }
        g.writeEndArray();
        g.writeStringField("count", Long.toString(k.count()));
        g.writeEndObject();
      }
      g.writeEndArray();
      ResponseJson.stats(g, r.stats());
      ResponseJson.refused(g, r.refused());
      g.writeEndObject();
    });
  }

  public static byte[] facets(FacetList r) {
    return Json.render(g -> {
      g.writeStartObject();
      g.writeStringField("signal", r.signal());
      g.writeStringField("records", Long.toString(r.records()));
      g.writeArrayFieldStart("facets");
      for (FacetList.Facet f : r.facets()) {
        g.writeStartObject();
        g.writeStringField("key", f.key());
        g.writeStringField("level", f.level());
        g.writeStringField("count", Long.toString(f.count()));
        g.writeStringField("distinct", Long.toString(f.distinct()));
        g.writeArrayFieldStart("values");
        for (FacetList.ValueCount v : f.values()) {
          g.writeStartObject();
          g.writeFieldName("value");
          ResponseJson.value(g, v.value());
          g.writeStringField("type", typeName(v.value()));
          g.writeStringField("count", Long.toString(v.count()));
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeStringField("other", Long.toString(f.other()));
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("missing");
      for (String k : r.missing()) {
        g.writeString(k);
      }
      g.writeEndArray();
      ResponseJson.stats(g, r.stats());
      ResponseJson.refused(g, r.refused());
      g.writeEndObject();
    });
  }

  /** The name in {@link AttributeList#TYPES} of a value's type. */
  public static String typeName(Value v) {
    return switch (v) {
      case Value.Str s -> "string";
      case Value.Int i -> "int";
      case Value.F64 d -> "double";
      case Value.Bool b -> "bool";
      case Value.Bytes b -> "bytes";
      case Value.KvList m -> "map";
      case Value.Array a -> "array";
      case Value.Empty e -> "empty";
    };
  }
}
