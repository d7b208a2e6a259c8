package mira.query.render;

import mira.query.result.ServiceMap;

/** Renders the service map ({@code POST /api/v1/map}). */
public final class MapJson {
  private MapJson() {}

  public static byte[] map(ServiceMap m) {
    return Json.render(g -> {
      g.writeStartObject();
      g.writeArrayFieldStart("nodes");
      for (ServiceMap.Node n : m.nodes()) {
        g.writeStartObject();
        g.writeStringField("service", n.service());
        g.writeNumberField("entities", n.entities());
        g.writeStringField("spans", Long.toString(n.spans()));
        g.writeStringField("errors", Long.toString(n.errors()));
        g.writeNumberField("p50_ms", n.p50Ms());
        g.writeNumberField("p99_ms", n.p99Ms());
        g.writeBooleanField("virtual", n.virtual());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("edges");
      for (ServiceMap.Edge e : m.edges()) {
        g.writeStartObject();
        g.writeStringField("from", e.from());
        g.writeStringField("to", e.to());
        g.writeStringField("calls", Long.toString(e.calls()));
        g.writeStringField("errors", Long.toString(e.errors()));
        g.writeNumberField("p50_ms", e.p50Ms());
        g.writeNumberField("p99_ms", e.p99Ms());
        g.writeStringField("kind", e.kind());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeBooleanField("truncated", m.truncated());
      ResponseJson.stats(g, m.stats());
      ResponseJson.refused(g, m.refused());
      g.writeEndObject();
    });
  }
}
