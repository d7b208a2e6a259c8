package mira.query.render;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import mira.query.result.Entities;
import mira.query.result.EntityList;
import mira.query.result.ServiceList;

/** Renders the entity and service listings ({@code /api/v1/entities}, {@code /api/v1/services}). */
public final class EntityJson {
  private EntityJson() {}

  public static byte[] entities(EntityList r) {
    return entities(r, false);
  }

  /**
   * The listing; with {@code peer}, also the hashes of the resources without identity (as 16 hex
   * digits), which a replica merging nodes' listings counts each resource by once.
   */
  public static byte[] entities(EntityList r, boolean peer) {
    return Json.render(g -> {
      g.writeStartObject();
      g.writeArrayFieldStart("entities");
      for (EntityList.Entity e : r.entities()) {
        entity(g, e);
      }
      g.writeEndArray();
      g.writeBooleanField("truncated", r.truncated());
      g.writeNumberField("total", r.total());
      EntityList.NoIdentity n = r.noIdentity();
      g.writeObjectFieldStart("no_identity");
      g.writeStringField("resources", Long.toString(n.resources()));
      g.writeStringField("records", Long.toString(n.records()));
      g.writeArrayFieldStart("services");
      for (String s : n.services()) {
        g.writeString(s);
      }
      g.writeEndArray();
      g.writeStringField("hint", n.hint());
      if (peer && n.resourceHashes() != null) {
        g.writeArrayFieldStart("resource_hashes");
        for (long h : n.resourceHashes()) {
          g.writeString(Entities.hex(h));
        }
        g.writeEndArray();
      }
      g.writeEndObject();
      ResponseJson.stats(g, r.stats());
      ResponseJson.refused(g, r.refused());
      g.writeEndObject();
    });
  }

  /** One entity object, as the entities listing writes it. */
  public static void entity(JsonGenerator g, EntityList.Entity e) throws IOException {
    g.writeStartObject();
    g.writeStringField("entity", Entities.hex(e.key()));
    g.writeStringField("rule", e.rule());
    g.writeFieldName("identity");
    ResponseJson.object(g, e.identity());
    if (e.serviceName() == null) {
      g.writeNullField("service.name");
    } else {
      g.writeStringField("service.name", e.serviceName());
    }
    g.writeObjectFieldStart("signals");
    g.writeStringField("logs", Long.toString(e.logs()));
    g.writeStringField("traces", Long.toString(e.spans()));
    g.writeStringField("metrics", Long.toString(e.points()));
    g.writeEndObject();
    g.writeStringField("first_seen", Long.toString(e.firstSeen()));
    g.writeStringField("last_seen", Long.toString(e.lastSeen()));
    g.writeEndObject();
  }

  public static byte[] services(ServiceList r) {
    return services(r, false);
  }

  /**
   * The services listing; with {@code keys}, each service also lists its entities' keys
   * ({@code "entity_keys"}), which a replica merging several nodes' listings counts once each.
   */
  public static byte[] services(ServiceList r, boolean keys) {
    return Json.render(g -> {
      g.writeStartObject();
      g.writeArrayFieldStart("services");
      for (ServiceList.Service s : r.services()) {
        g.writeStartObject();
        if (s.name() == null) {
          g.writeNullField("service.name");
        } else {
          g.writeStringField("service.name", s.name());
        }
        g.writeObjectFieldStart("signals");
        g.writeStringField("logs", Long.toString(s.logs()));
        g.writeStringField("traces", Long.toString(s.spans()));
        g.writeStringField("metrics", Long.toString(s.points()));
        g.writeEndObject();
        g.writeStringField("span_errors", Long.toString(s.errors()));
        g.writeNumberField("entities", s.entities());
        if (keys) {
          g.writeArrayFieldStart("entity_keys");
          for (long k : s.entityKeys()) {
            g.writeString(Entities.hex(k));
          }
          g.writeEndArray();
        }
        g.writeEndObject();
      }
      g.writeEndArray();
      ResponseJson.stats(g, r.stats());
      ResponseJson.refused(g, r.refused());
      g.writeEndObject();
    });
  }
}
