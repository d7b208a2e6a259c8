package mira.query.render;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;
import mira.query.doc.Term;
import mira.query.frame.Correlate;
import mira.query.result.CorrelateResult;
import mira.query.result.Entities;
import mira.query.result.Frame;

/**
 * Renders a correlate answer: the frame (accepted back as {@code "frame"}), and the query
 * documents that return its records from {@code /api/v1/query} and {@code /api/v1/series}.
 */
public final class FrameJson {
  /** The page size the frame's query documents ask for. */
  public static final int QUERY_LIMIT = 1000;

  private FrameJson() {}

  public static byte[] correlate(CorrelateResult r) {
    return Json.render(g -> {
      g.writeStartObject();
      g.writeFieldName("frame");
      frame(g, r.frame());
      g.writeObjectFieldStart("truncated");
      g.writeBooleanField("traces", r.tracesTruncated());
      g.writeBooleanField("entities", r.entitiesTruncated());
      g.writeEndObject();
      g.writeNumberField("anchor_rows", r.anchorRows());
      g.writeObjectFieldStart("queries");
      List<Term> all = Correlate.membership(r.frame(), true);
      g.writeFieldName("logs");
      query(g, "logs", r.frame(), all);
      g.writeFieldName("traces");
      query(g, "traces", r.frame(), all);
      g.writeFieldName("series");
      query(g, null, r.frame(), Correlate.membership(r.frame(), false));
      g.writeEndObject();
      ResponseJson.stats(g, r.stats());
      ResponseJson.refused(g, r.refused());
      g.writeEndObject();
    });
  }

  /** The frame object. */
  public static void frame(JsonGenerator g, Frame f) throws IOException {
    g.writeStartObject();
    g.writeStringField("from", Long.toString(f.from()));
    g.writeStringField("to", Long.toString(f.to()));
    g.writeArrayFieldStart("entities");
    for (Frame.Member m : f.entities()) {
      g.writeStartObject();
      g.writeStringField("entity", Entities.hex(m.key()));
      if (m.serviceName() == null) {
        g.writeNullField("service.name");
      } else {
        g.writeStringField("service.name", m.serviceName());
      }
      g.writeFieldName("identity");
      ResponseJson.object(g, m.identity());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("traces");
    for (String t : f.traces()) {
      g.writeString(t);
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /** A query document over the frame: a search of {@code signal}, or a series document when null. */
  private static void query(JsonGenerator g, String signal, Frame f, List<Term> where) throws IOException {
    g.writeStartObject();
    if (signal != null) {
      g.writeStringField("signal", signal);
    }
    g.writeStringField("from", Long.toString(f.from()));
    g.writeStringField("to", Long.toString(f.to()));
    g.writeFieldName("where");
    TermJson.where(g, where);
    if (signal != null) {
      g.writeNumberField("limit", QUERY_LIMIT);
    }
    g.writeEndObject();
  }
}
