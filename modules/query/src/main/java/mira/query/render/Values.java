package mira.query.render;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import mira.block.table.AttrWriter;
import mira.block.table.Attributes;
import mira.proto.wire.ProtoReader;
import mira.proto.wire.WireException;
import mira.query.table.AttrTable;
import mira.query.table.Scratch;

/**
 * Writes stored values as JSON in their OTLP type: a string as a string, a boolean as a boolean,
 * a double as a number ({@code "NaN"} and the infinities as strings), an int64 as a decimal string
 * (a JSON number is a double to most readers), bytes as standard padded base64, an array as a JSON
 * array, a kvlist as a JSON object (repeated keys are written as they were stored), an empty value
 * as null.
 *
 * <p>Arrays and kvlists are stored as the AnyValue's protobuf bytes; they were validated to
 * {@link AttrWriter#MAX_DEPTH} levels at ingest, and the decoder here recurses at most that deep
 * again, so a damaged value cannot run the stack out.
 */
public final class Values {
  private Values() {}

  /** Writes attribute row {@code j}'s value. */
  public static void attr(JsonGenerator g, AttrTable t, int j, Scratch s) throws IOException, WireException {
    switch (t.type(j)) {
      case Attributes.TYPE_STR -> {
        int len = t.str().copy(j, s);
        g.writeUTF8String(s.buf(), 0, len);
      }
      case Attributes.TYPE_INT -> g.writeString(Long.toString(t.i64().get(j)));
      case Attributes.TYPE_DOUBLE -> g.writeNumber(Double.longBitsToDouble(t.f64().get(j)));
      case Attributes.TYPE_BOOL -> g.writeBoolean(t.bool().get(j));
      case Attributes.TYPE_BYTES -> {
        int len = t.bytes().copy(j, s);
        g.writeBinary(Base64Variants.MIME_NO_LINEFEEDS, s.buf(), 0, len);
      }
      case Attributes.TYPE_MAP, Attributes.TYPE_SLICE -> {
        if (t.ser().isNull(j)) {
          throw new WireException("attribute row " + j + " has no ser value");
        }
        byte[] b = t.ser().bytes(j);
        anyValue(g, b, 0, b.length);
      }
      default -> g.writeNull();
    }
  }

  /** Writes the AnyValue encoded in {@code buf[from, to)}. */
  public static void anyValue(JsonGenerator g, byte[] buf, int from, int to) throws IOException, WireException {
    anyValue(g, buf, from, to, 1);
  }

  private static void anyValue(JsonGenerator g, byte[] buf, int from, int to, int depth)
      throws IOException, WireException {
    if (depth > AttrWriter.MAX_DEPTH + 1) {
      throw new WireException("value nested deeper than " + AttrWriter.MAX_DEPTH + " levels");
    }
    ProtoReader r = new ProtoReader(buf, from, to);
    int kind = Attributes.TYPE_EMPTY;
    int vs = 0;
    int ve = 0;
    long bits = 0;
    // The last value field wins, as in protobuf.
    while (r.next()) {
      switch (r.field()) {
        case 1 -> {
          r.expect(ProtoReader.LEN);
          kind = Attributes.TYPE_STR;
          vs = r.start();
          ve = r.end();
        }
        case 2 -> {
          bits = r.varint() != 0 ? 1 : 0;
          kind = Attributes.TYPE_BOOL;
        }
        case 3 -> {
          bits = r.varint();
          kind = Attributes.TYPE_INT;
        }
        case 4 -> {
          bits = r.fixed64();
          kind = Attributes.TYPE_DOUBLE;
        }
        case 5, 6, 7 -> {
          r.expect(ProtoReader.LEN);
          kind = r.field() == 5 ? Attributes.TYPE_SLICE : r.field() == 6 ? Attributes.TYPE_MAP : Attributes.TYPE_BYTES;
          vs = r.start();
          ve = r.end();
        }
        case 8 -> kind = Attributes.TYPE_EMPTY;
        default -> { }
      }
    }
    switch (kind) {
      case Attributes.TYPE_STR -> g.writeUTF8String(buf, vs, ve - vs);
      case Attributes.TYPE_BOOL -> g.writeBoolean(bits != 0);
      case Attributes.TYPE_INT -> g.writeString(Long.toString(bits));
      case Attributes.TYPE_DOUBLE -> g.writeNumber(Double.longBitsToDouble(bits));
      case Attributes.TYPE_BYTES -> g.writeBinary(Base64Variants.MIME_NO_LINEFEEDS, buf, vs, ve - vs);
      case Attributes.TYPE_SLICE -> {
        g.writeStartArray();
        ProtoReader a = new ProtoReader(buf, vs, ve);
        while (a.next()) {
          if (a.field() == 1) {
            a.expect(ProtoReader.LEN);
            anyValue(g, buf, a.start(), a.end(), depth + 1);
          }
        }
        g.writeEndArray();
      }
      case Attributes.TYPE_MAP -> {
        g.writeStartObject();
        ProtoReader list = new ProtoReader(buf, vs, ve);
        ProtoReader kv = new ProtoReader();
        while (list.next()) {
          if (list.field() != 1) {
            continue;
          }
          list.expect(ProtoReader.LEN);
          kv.enter(list);
          int ks = 0;
          int ke = 0;
          int valueStart = -1;
          int valueEnd = -1;
          while (kv.next()) {
            if (kv.field() == 1) {
              kv.expect(ProtoReader.LEN);
              ks = kv.start();
              ke = kv.end();
            } else if (kv.field() == 2) {
              kv.expect(ProtoReader.LEN);
              valueStart = kv.start();
              valueEnd = kv.end();
            }
          }
          g.writeFieldName(new String(buf, ks, ke - ks, java.nio.charset.StandardCharsets.UTF_8));
          if (valueStart < 0) {
            g.writeNull();
          } else {
            anyValue(g, buf, valueStart, valueEnd, depth + 1);
          }
        }
        g.writeEndObject();
      }
      default -> g.writeNull();
    }
  }
}
