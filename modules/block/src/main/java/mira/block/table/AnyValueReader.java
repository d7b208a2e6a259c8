package mira.block.table;

import mira.proto.wire.ProtoReader;
import mira.proto.wire.WireException;

/**
 * Reads one OTLP {@code AnyValue} from the wire: which kind it is and where its scalar lives.
 * Arrays and kvlists are validated to {@link AttrWriter#MAX_DEPTH} levels (well-formed, UTF-8
 * strings) so they can be stored as bytes and rendered later without surprises.
 */
public final class AnyValueReader {
  /** Readers by position on the walk: a kvlist level takes three (list, pair, value), an array two. */
  private final ProtoReader[] readers = new ProtoReader[3 * AttrWriter.MAX_DEPTH + 4];
  private int kind;
  private int start;
  private int end;
  private long bits;

  public AnyValueReader() {
    readers[0] = new ProtoReader();
  }

  /** The reader at position {@code i}, created on first use (most values never nest). */
  private ProtoReader reader(int i) {
    ProtoReader r = readers[i];
    if (r == null) {
      r = readers[i] = new ProtoReader();
    }
    return r;
  }

  /** One of {@code Attributes.TYPE_*}. */
  public int kind() {
    return kind;
  }

  /** For strings and bytes: the payload range. */
  public int start() {
    return start;
  }

  public int length() {
    return end - start;
  }

  /** For int, double (raw bits) and bool (0/1). */
  public long bits() {
    return bits;
  }

  /** Reads the AnyValue encoded in {@code buf[from, to)}. The last value field wins, as in protobuf. */
  public void read(byte[] buf, int from, int to) throws WireException {
    kind = Attributes.TYPE_EMPTY;
    ProtoReader r = readers[0].reset(buf, from, to);
    while (r.next()) {
      readField(r, 0, 0);
    }
  }

  /** {@code r} is {@code readers[ri]}; {@code depth} is the AnyValue nesting level. */
  private void readField(ProtoReader r, int ri, int depth) throws WireException {
    switch (r.field()) {
      case 1 -> {
        wrap(r, "string_value");
        kind = Attributes.TYPE_STR;
        start = r.start();
        end = r.end();
      }
      case 2 -> {
        bits = varint(r, "bool_value") != 0 ? 1 : 0;
        kind = Attributes.TYPE_BOOL;
      }
      case 3 -> {
        bits = varint(r, "int_value");
        kind = Attributes.TYPE_INT;
      }
      case 4 -> {
        try {
          bits = r.fixed64();
        } catch (WireException e) {
          throw new WireException("double_value: " + e.getMessage());
        }
        kind = Attributes.TYPE_DOUBLE;
      }
      case 5 -> {
        nested(r, ri, depth, false);
        kind = Attributes.TYPE_SLICE;
      }
      case 6 -> {
        nested(r, ri, depth, true);
        kind = Attributes.TYPE_MAP;
      }
      case 7 -> {
        try {
          r.expect(ProtoReader.LEN);
        } catch (WireException e) {
          throw new WireException("bytes_value: " + e.getMessage());
        }
        kind = Attributes.TYPE_BYTES;
        start = r.start();
        end = r.end();
      }
      case 8 -> {
        // string_value_strindex belongs to the profiles signal; elsewhere it is treated as absent.
        varint(r, "string_value_strindex");
        kind = Attributes.TYPE_EMPTY;
      }
      default -> { }
    }
  }

  private static long varint(ProtoReader r, String name) throws WireException {
    try {
      return r.varint();
    } catch (WireException e) {
      throw new WireException(name + ": " + e.getMessage());
    }
  }

  private static void wrap(ProtoReader r, String name) throws WireException {
    try {
      r.requireUtf8();
    } catch (WireException e) {
      throw new WireException(name + ": " + e.getMessage());
    }
  }

  /** Validates an ArrayValue (values=1: AnyValue) or KeyValueList (values=1: KeyValue). */
  private void nested(ProtoReader r, int ri, int depth, boolean kvlist) throws WireException {
    String name = kvlist ? "kvlist_value" : "array_value";
    if (depth + 1 > AttrWriter.MAX_DEPTH) {
      throw new WireException(name + ": nested deeper than " + AttrWriter.MAX_DEPTH + " levels");
    }
    try {
      r.expect(ProtoReader.LEN);
      ProtoReader list = reader(ri + 1).enter(r);
      int i = 0;
      while (list.next()) {
        if (list.field() != 1) {
          continue;
        }
        try {
          list.expect(ProtoReader.LEN);
          if (kvlist) {
            keyValue(list, ri + 1, depth + 1);
          } else {
            anyValue(list, ri + 1, depth + 1);
          }
        } catch (WireException e) {
          throw WireException.at("values[" + i + "]", e);
        }
        i++;
      }
    } catch (WireException e) {
      throw WireException.at(name, e);
    }
  }

  private void keyValue(ProtoReader field, int ri, int depth) throws WireException {
    ProtoReader kv = reader(ri + 1).enter(field);
    while (kv.next()) {
      if (kv.field() == 1) {
        wrap(kv, "key");
      } else if (kv.field() == 2) {
        try {
          anyValue(kv, ri + 1, depth);
        } catch (WireException e) {
          throw WireException.at("value", e);
        }
      }
    }
  }

  private void anyValue(ProtoReader field, int ri, int depth) throws WireException {
    field.expect(ProtoReader.LEN);
    int savedKind = kind;
    ProtoReader v = reader(ri + 1).enter(field);
    while (v.next()) {
      readField(v, ri + 1, depth);
    }
    kind = savedKind;
  }
}
