package mira.query.render;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import mira.proto.wire.Signal;
import mira.query.doc.Scalar;
import mira.query.doc.SearchQuery;
import mira.query.doc.SeriesFn;
import mira.query.doc.SeriesQuery;
import mira.query.doc.Term;
import mira.query.result.Entities;

/**
 * Terms as a document's {@code where} list spells them, so a surface that builds terms (filter
 * text, a frame's queries) hands back a list {@code /api/v1/query} parses to the same terms.
 */
public final class TermJson {
  private TermJson() {}

  /**
   * A parsed search as a query document that parses back to it: times as integer nanoseconds, terms
   * in their document form, the cursor encoded. What a replica sends its peers for each page it reads.
   */
  public static byte[] search(SearchQuery q) {
    return Json.render(g -> {
      g.writeStartObject();
      g.writeStringField("signal", q.signal() == Signal.LOGS ? "logs" : "traces");
      g.writeStringField("from", Long.toString(q.from()));
      g.writeStringField("to", Long.toString(q.to()));
      g.writeFieldName("where");
      where(g, q.where());
      g.writeNumberField("limit", q.limit());
      if (q.after() != null) {
        g.writeStringField("after", q.after().encode());
      }
      g.writeEndObject();
    });
  }

  /**
   * A parsed series query as a document that reads the same points: times as integer nanoseconds,
   * terms in their document form, caps and function as given. A step is written in whole
   * milliseconds (rounded up: a document cannot spell less), and a window-aligned step (an alert
   * rule's) as the epoch-aligned one a document can spell, which reads the same points; the node
   * that asks computes the function itself from the typed query.
   */
  public static byte[] series(SeriesQuery q) {
    return Json.render(g -> {
      g.writeStartObject();
      if (q.name() != null) {
        g.writeStringField("name", q.name());
      }
      g.writeStringField("from", Long.toString(q.from()));
      g.writeStringField("to", Long.toString(q.to()));
      g.writeFieldName("where");
      where(g, q.where());
      g.writeNumberField("max_series", q.maxSeries());
      g.writeNumberField("max_points", q.maxPoints());
      SeriesFn f = q.fn();
      if (f != null) {
        g.writeStringField("step", Math.max(1, (f.step() + 999_999) / 1_000_000) + "ms");
        g.writeStringField("fn", f.fn());
        if (!Double.isNaN(f.quantile())) {
          g.writeNumberField("quantile", f.quantile());
        }
        if (f.groupBy() != null) {
          g.writeArrayFieldStart("group_by");
          for (String k : f.groupBy()) {
            g.writeString(k);
          }
          g.writeEndArray();
        }
        if (f.agg() != null) {
          g.writeStringField("agg", f.agg());
        }
      }
      g.writeEndObject();
    });
  }

  /** Writes {@code terms} as a JSON array. */
  public static void where(JsonGenerator g, List<Term> terms) throws IOException {
    g.writeStartArray();
    for (Term t : terms) {
      term(g, t);
    }
    g.writeEndArray();
  }

  /** Writes one term as a JSON object. */
  public static void term(JsonGenerator g, Term t) throws IOException {
    g.writeStartObject();
    switch (t) {
      case Term.Attr a -> {
        g.writeStringField("attr", a.key());
        g.writeFieldName(a.op().key());
        scalar(g, a.value());
      }
      case Term.Field f -> {
        g.writeStringField("field", f.field().key());
        g.writeFieldName(f.op().key());
        scalar(g, f.value());
      }
      case Term.AttrIn a -> {
        g.writeStringField("attr", a.key());
        list(g, a.values());
      }
      case Term.FieldIn f -> {
        g.writeStringField("field", f.field().key());
        list(g, f.values());
      }
      case Term.Text x -> g.writeStringField("text", x.text());
      case Term.Entity e -> {
        List<String> keys = new ArrayList<>();
        for (long k : e.keys()) {
          keys.add(Entities.hex(k));
        }
        keys.sort(null);
        if (keys.size() == 1) {
          g.writeStringField("entity", keys.getFirst());
        } else {
          g.writeObjectFieldStart("entity");
          g.writeArrayFieldStart("in");
          for (String k : keys) {
            g.writeString(k);
          }
          g.writeEndArray();
          g.writeEndObject();
        }
      }
      case Term.Not n -> {
        g.writeFieldName("not");
        term(g, n.term());
      }
    }
    g.writeEndObject();
  }

  private static void list(JsonGenerator g, List<Scalar> values) throws IOException {
    g.writeArrayFieldStart("in");
    for (Scalar v : values) {
      scalar(g, v);
    }
    g.writeEndArray();
  }

  /** A scalar with its JSON type: a double stays a double ({@code 1.0}, not {@code 1}). */
  public static void scalar(JsonGenerator g, Scalar v) throws IOException {
    switch (v.kind()) {
      case STRING -> g.writeString(v.text());
      case INT -> g.writeNumber(v.longValue());
      case DOUBLE -> g.writeNumber(v.doubleValue());
      case BOOL -> g.writeBoolean(v.bool());
    }
  }
}
