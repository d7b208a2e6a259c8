package mira.query.render;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import mira.query.Refused;
import mira.query.Row;
import mira.query.SearchResult;
import mira.query.Stats;
import mira.query.TraceResult;

/**
 * The response documents that carry rendered rows: {@code {"rows": [...], <tail>}}. Rows are
 * rendered once, as bytes, while their block is open; the envelope splices them in rather than
 * parsing them again.
 */
public final class Envelope {
  private Envelope() {}

  public static byte[] search(SearchResult r) {
    List<Row> rows = r.rows();
    byte[][] json = new byte[rows.size()][];
    for (int i = 0; i < json.length; i++) {
      json[i] = rows.get(i).json();
    }
    byte[] tail = Json.render((JsonGenerator g) -> {
      g.writeStartObject();
      if (r.next() != null) {
        g.writeStringField("next", r.next());
      }
      stats(g, r.stats());
      refused(g, r.refused());
      g.writeEndObject();
    });
    return splice(null, json, tail);
  }

  public static byte[] trace(TraceResult r) {
    byte[] tail = Json.render((JsonGenerator g) -> {
      g.writeStartObject();
      stats(g, r.stats());
      refused(g, r.refused());
      g.writeEndObject();
    });
    return splice(r.traceId(), r.spans().toArray(new byte[0][]), tail);
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

  /** {@code {["trace_id": id,] "rows": [rows...], <tail's members>}}. */
  private static byte[] splice(String traceId, byte[][] rows, byte[] tail) {
    int size = 32 + tail.length;
    for (byte[] r : rows) {
      size += r.length + 1;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(size);
    out.writeBytes(ascii("{"));
    if (traceId != null) {
      out.writeBytes(ascii("\"trace_id\":\"" + traceId + "\","));
    }
    out.writeBytes(ascii("\"rows\":["));
    for (int i = 0; i < rows.length; i++) {
      if (i > 0) {
        out.write(',');
      }
      out.writeBytes(rows[i]);
    }
    out.write(']');
    // The tail is an object; its members continue this one.
    if (tail.length > 2) {
      out.write(',');
      out.write(tail, 1, tail.length - 1);
    } else {
      out.write('}');
    }
    return out.toByteArray();
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
