package mira.query.rows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import mira.block.table.AttrWriter;
import mira.block.table.Attributes;
import mira.proto.wire.ProtoReader;
import mira.proto.wire.WireException;
import mira.query.result.Attribute;
import mira.query.result.Value;
import mira.query.table.AttrTable;
import mira.query.table.Scratch;

/**
 * Reads stored values into {@link Value}s: an attribute row of an attribute table, or an
 * AnyValue kept as its protobuf bytes (arrays, key-value lists, non-string bodies).
 *
 * <p>Arrays and kvlists were validated to {@link AttrWriter#MAX_DEPTH} levels at ingest, and the
 * decoder here recurses at most that deep again, so a damaged value cannot run the stack out.
 */
public final class StoredValues {
  private StoredValues() {}

  /** Attribute row {@code j}'s value. */
  public static Value attr(AttrTable t, int j, Scratch s) throws WireException {
    return switch (t.type(j)) {
      case Attributes.TYPE_STR -> {
        int len = t.str().copy(j, s);
        yield new Value.Str(new String(s.buf(), 0, len, StandardCharsets.UTF_8));
      }
      case Attributes.TYPE_INT -> new Value.Int(t.i64().get(j));
      case Attributes.TYPE_DOUBLE -> new Value.F64(Double.longBitsToDouble(t.f64().get(j)));
      case Attributes.TYPE_BOOL -> new Value.Bool(t.bool().get(j));
      case Attributes.TYPE_BYTES -> new Value.Bytes(t.bytes().bytes(j));
      case Attributes.TYPE_MAP, Attributes.TYPE_SLICE -> {
        if (t.ser().isNull(j)) {
          throw new WireException("attribute row " + j + " has no ser value");
        }
        byte[] b = t.ser().bytes(j);
        yield anyValue(b, 0, b.length);
      }
      default -> Value.Empty.INSTANCE;
    };
  }

  /** The AnyValue encoded in {@code buf[from, to)}. */
  public static Value anyValue(byte[] buf, int from, int to) throws WireException {
    return anyValue(buf, from, to, 1);
  }

  private static Value anyValue(byte[] buf, int from, int to, int depth) throws WireException {
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
    return switch (kind) {
      case Attributes.TYPE_STR -> new Value.Str(new String(buf, vs, ve - vs, StandardCharsets.UTF_8));
      case Attributes.TYPE_BOOL -> new Value.Bool(bits != 0);
      case Attributes.TYPE_INT -> new Value.Int(bits);
      case Attributes.TYPE_DOUBLE -> new Value.F64(Double.longBitsToDouble(bits));
      case Attributes.TYPE_BYTES -> new Value.Bytes(java.util.Arrays.copyOfRange(buf, vs, ve));
      case Attributes.TYPE_SLICE -> {
        List<Value> items = new ArrayList<>();
        ProtoReader a = new ProtoReader(buf, vs, ve);
        while (a.next()) {
          if (a.field() == 1) {
            a.expect(ProtoReader.LEN);
            items.add(anyValue(buf, a.start(), a.end(), depth + 1));
          }
        }
        yield new Value.Array(items);
      }
      case Attributes.TYPE_MAP -> {
        List<Attribute> entries = new ArrayList<>();
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
          String key = new String(buf, ks, ke - ks, StandardCharsets.UTF_8);
          entries.add(new Attribute(key, valueStart < 0 ? Value.Empty.INSTANCE
              : anyValue(buf, valueStart, valueEnd, depth + 1)));
        }
        yield new Value.KvList(entries);
      }
      default -> Value.Empty.INSTANCE;
    };
  }
}
