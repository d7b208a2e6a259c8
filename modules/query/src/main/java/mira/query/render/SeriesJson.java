package mira.query.render;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;
import mira.query.result.MetricList;
import mira.query.result.SeriesPoints;
import mira.query.result.SeriesResult;

/**
 * The response documents of {@code POST /api/v1/series} and {@code GET /api/v1/metrics}: the one
 * place their JSON is written. 64-bit integers are strings, doubles numbers (docs/api.md).
 */
public final class SeriesJson {
  private SeriesJson() {}

  public static byte[] series(SeriesResult r) {
    return Json.render((JsonGenerator g) -> {
      g.writeStartObject();
      g.writeArrayFieldStart("series");
      for (SeriesResult.Series s : r.series()) {
        series(g, s);
      }
      g.writeEndArray();
      g.writeObjectFieldStart("stats");
      g.writeNumberField("blocks_total", r.stats().blocksTotal());
      g.writeNumberField("blocks_pruned", r.stats().blocksPruned());
      g.writeNumberField("blocks_scanned", r.stats().blocksScanned());
      g.writeStringField("points_scanned", Long.toString(r.stats().rowsScanned()));
      g.writeStringField("points_matched", Long.toString(r.stats().rowsMatched()));
      g.writeStringField("dropped_series", Long.toString(r.droppedSeries()));
      g.writeStringField("took_ms", Long.toString(r.stats().tookMs()));
      g.writeEndObject();
      ResponseJson.refused(g, r.refused());
      g.writeEndObject();
    });
  }

  private static void series(JsonGenerator g, SeriesResult.Series s) throws IOException {
    g.writeStartObject();
    g.writeStringField("name", s.name());
    g.writeStringField("type", s.type());
    g.writeStringField("unit", s.unit());
    g.writeStringField("description", s.description());
    g.writeObjectFieldStart("resource");
    g.writeFieldName("attributes");
    ResponseJson.object(g, s.resource());
    g.writeStringField("entity", s.entityHex());
    g.writeEndObject();
    g.writeFieldName("attributes");
    ResponseJson.object(g, s.attributes());
    g.writeArrayFieldStart("points");
    for (SeriesResult.Point p : s.points()) {
      g.writeStartObject();
      g.writeStringField("time_unix_nano", Long.toString(p.time()));
      g.writeFieldName("value");
      value(g, p.kind(), p.l(), p.d());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("exemplars");
    for (SeriesResult.Exemplar x : s.exemplars()) {
      g.writeStartObject();
      g.writeStringField("time_unix_nano", Long.toString(x.time()));
      g.writeFieldName("value");
      value(g, x.kind(), x.l(), x.d());
      g.writeStringField("trace_id", x.traceId());
      g.writeStringField("span_id", x.spanId());
      g.writeFieldName("attributes");
      ResponseJson.object(g, x.attributes());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeStringField("dropped_points", Long.toString(s.droppedPoints()));
    if (s.bounds() != null) {
      g.writeArrayFieldStart("bounds");
      for (double b : s.bounds()) {
        g.writeNumber(b);
      }
      g.writeEndArray();
    }
    if (s.scale() != null) {
      g.writeNumberField("scale", s.scale());
    }
    g.writeEndObject();
  }

  /**
   * A node's stored points for a peer ({@link SeriesPoints}): not a public answer, but the one
   * place its JSON is written; {@code mira.client.ResultReader#seriesPoints} reads it back. Integers
   * are JSON numbers here (a count's unsigned bits as a signed long), doubles numbers or the strings
   * {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}; members without a value are left out.
   */
  public static byte[] points(SeriesPoints r) {
    return Json.render((JsonGenerator g) -> {
      g.writeStartObject();
      g.writeArrayFieldStart("series");
      for (SeriesPoints.Stored s : r.series()) {
        g.writeStartObject();
        g.writeStringField("name", s.name());
        g.writeStringField("type", s.type());
        g.writeStringField("unit", s.unit());
        g.writeStringField("description", s.description());
        g.writeFieldName("resource");
        ResponseJson.object(g, s.resource());
        g.writeFieldName("attributes");
        ResponseJson.object(g, s.attributes());
        g.writeNumberField("entity", s.entity());
        g.writeNumberField("temporality", s.temporality());
        g.writeBooleanField("monotonic", s.monotonic());
        g.writeNumberField("dropped_points", s.droppedPoints());
        g.writeArrayFieldStart("points");
        for (SeriesPoints.Point p : s.points()) {
          point(g, p);
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeBooleanField("exact_name", r.exactName());
      g.writeNumberField("dropped_series", r.droppedSeries());
      ResponseJson.stats(g, r.stats());
      ResponseJson.refused(g, r.refused());
      g.writeEndObject();
    });
  }

  private static void point(JsonGenerator g, SeriesPoints.Point p) throws IOException {
    g.writeStartObject();
    g.writeNumberField("t", p.time());
    g.writeNumberField("node", p.node());
    g.writeNumberField("seq", p.seq());
    g.writeNumberField("id", p.id());
    g.writeNumberField("kind", p.kind());
    if (p.kind() == SeriesResult.LONG || p.kind() == SeriesResult.UNSIGNED) {
      g.writeNumberField("l", p.l());
    } else if (p.kind() == SeriesResult.DOUBLE) {
      g.writeNumberField("d", p.d());
    }
    g.writeNumberField("start", p.start());
    if (!p.exemplars().isEmpty()) {
      g.writeArrayFieldStart("exemplars");
      for (SeriesResult.Exemplar x : p.exemplars()) {
        g.writeStartObject();
        g.writeNumberField("t", x.time());
        g.writeNumberField("kind", x.kind());
        g.writeNumberField("l", x.l());
        g.writeNumberField("d", x.d());
        g.writeStringField("trace_id", x.traceId());
        g.writeStringField("span_id", x.spanId());
        g.writeFieldName("attributes");
        ResponseJson.object(g, x.attributes());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    if (p.counts() != null) {
      g.writeFieldName("counts");
      g.writeArray(p.counts(), 0, p.counts().length);
    }
    doubles(g, "bounds", p.bounds());
    if (p.exp() != null) {
      SeriesPoints.Exp e = p.exp();
      g.writeObjectFieldStart("exp");
      g.writeNumberField("scale", e.scale());
      g.writeNumberField("zero", e.zero());
      g.writeNumberField("pos_offset", e.posOffset());
      doubles(g, "pos", e.pos());
      g.writeNumberField("neg_offset", e.negOffset());
      doubles(g, "neg", e.neg());
      g.writeEndObject();
    }
    doubles(g, "quantiles", p.quantiles());
    doubles(g, "values", p.values());
    g.writeEndObject();
  }

  private static void doubles(JsonGenerator g, String name, double[] values) throws IOException {
    if (values == null) {
      return;
    }
    g.writeArrayFieldStart(name);
    for (double v : values) {
      g.writeNumber(v);
    }
    g.writeEndArray();
  }

  private static void value(JsonGenerator g, int kind, long l, double d) throws IOException {
    switch (kind) {
      case SeriesResult.LONG -> g.writeString(Long.toString(l));
      case SeriesResult.UNSIGNED -> g.writeString(Long.toUnsignedString(l));
      case SeriesResult.DOUBLE -> g.writeNumber(d);
      default -> g.writeNull();
    }
  }

  public static byte[] metrics(MetricList r) {
    return Json.render((JsonGenerator g) -> {
      g.writeStartObject();
      g.writeArrayFieldStart("metrics");
      for (MetricList.Metric m : r.metrics()) {
        g.writeStartObject();
        g.writeStringField("name", m.name());
        g.writeStringField("type", m.type());
        g.writeStringField("unit", m.unit());
        g.writeStringField("description", m.description());
        g.writeStringField("temporality", m.temporality());
        if (m.monotonic() == null) {
          g.writeNullField("monotonic");
        } else {
          g.writeBooleanField("monotonic", m.monotonic());
        }
        g.writeArrayFieldStart("attribute_keys");
        for (String k : m.attributeKeys()) {
          g.writeString(k);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("bounds");
        for (List<Double> b : m.bounds()) {
          g.writeStartArray();
          for (double x : b) {
            g.writeNumber(x);
          }
          g.writeEndArray();
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
      ResponseJson.stats(g, r.stats());
      ResponseJson.refused(g, r.refused());
      g.writeEndObject();
    });
  }
}
