package mira.block.table;

import mira.block.column.DictColumn;
import mira.block.column.FixedColumn;
import mira.block.column.VarColumn;
import mira.proto.wire.ProtoReader;
import mira.proto.wire.WireException;

/**
 * Field readers and column appenders the signal decoders share. Each reader takes the proto field
 * name and puts it in front of a {@link ProtoReader} error, so a decoder only adds the enclosing
 * path ({@code resource_spans[0].scope_spans[1].spans[7]}) with {@link WireException#at}.
 */
public final class Fields {
  private Fields() {}

  /** Fails unless {@code r} is on a length-delimited field (a message, string or bytes). */
  public static void expect(ProtoReader r, String name) throws WireException {
    try {
      r.expect(ProtoReader.LEN);
    } catch (WireException e) {
      throw new WireException(name + ": " + e.getMessage());
    }
  }

  /** Fails unless {@code r} is on a string field holding valid UTF-8. */
  public static void utf8(ProtoReader r, String name) throws WireException {
    try {
      r.requireUtf8();
    } catch (WireException e) {
      throw new WireException(name + ": " + e.getMessage());
    }
  }

  public static long varint(ProtoReader r, String name) throws WireException {
    try {
      return r.varint();
    } catch (WireException e) {
      throw new WireException(name + ": " + e.getMessage());
    }
  }

  /** A {@code uint32}: the low 32 bits of the varint, as a non-negative long. */
  public static long uint32(ProtoReader r, String name) throws WireException {
    return varint(r, name) & 0xFFFF_FFFFL;
  }

  public static long fixed64(ProtoReader r, String name) throws WireException {
    try {
      return r.fixed64();
    } catch (WireException e) {
      throw new WireException(name + ": " + e.getMessage());
    }
  }

  public static int fixed32(ProtoReader r, String name) throws WireException {
    try {
      return r.fixed32();
    } catch (WireException e) {
      throw new WireException(name + ": " + e.getMessage());
    }
  }

  /** Appends {@code buf[start, end)}, or null when absent or empty (proto3 cannot tell them apart). */
  public static void text(VarColumn c, byte[] buf, int start, int end) {
    if (start >= 0 && end > start) {
      c.append(buf, start, end - start);
    } else {
      c.appendNull();
    }
  }

  /**
   * Appends {@code buf[start, end)} to a dictionary column, or null when absent or empty.
   *
   * @throws TooLargeException if the value is new and the dictionary is full
   */
  public static void dict(DictColumn c, byte[] buf, int start, int end, String name) throws TooLargeException {
    if (start < 0 || end == start) {
      c.appendNull();
    } else if (!c.append(buf, start, end - start)) {
      throw new TooLargeException("more than " + DictColumn.CAPACITY + " distinct " + name + " values");
    }
  }

  /**
   * An optional OTLP id (trace or span id): absent or empty is null, otherwise exactly
   * {@code width} bytes.
   */
  public static void id(FixedColumn c, byte[] buf, int start, int len, int width, String name) throws WireException {
    if (start < 0 || len == 0) {
      c.appendNull();
    } else {
      requiredId(c, buf, start, len, width, name);
    }
  }

  /** A mandatory OTLP id: exactly {@code width} bytes; absent or empty is an error. */
  public static void requiredId(FixedColumn c, byte[] buf, int start, int len, int width, String name)
      throws WireException {
    if (start < 0 || len == 0) {
      throw new WireException(name + ": is empty, expected " + width + " bytes");
    }
    if (len != width) {
      throw new WireException(name + ": has " + len + " bytes, expected " + width);
    }
    c.appendBytes(buf, start);
  }

  /** Fails unless {@code r} is on a field of wire type {@code wireType}. */
  public static void expect(ProtoReader r, int wireType, String name) throws WireException {
    try {
      r.expect(wireType);
    } catch (WireException e) {
      throw new WireException(name + ": " + e.getMessage());
    }
  }

  /** A {@code sint32} (zigzag) varint. */
  public static int sint32(ProtoReader r, String name) throws WireException {
    int n = (int) varint(r, name);
    return (n >>> 1) ^ -(n & 1);
  }

  /** The payload of a packed repeated 8-byte field must be a whole number of values. */
  public static void packed64(ProtoReader r, String name) throws WireException {
    if ((r.length() & 7) != 0) {
      throw new WireException(name + ": packed length " + r.length() + " is not a multiple of 8");
    }
  }

  /** Appends {@code v}, or null when 0 (proto3 cannot tell 0 from absent). */
  public static void longOrNull(FixedColumn c, long v) {
    if (v != 0) {
      c.appendLong(v);
    } else {
      c.appendNull();
    }
  }

  /** Appends {@code v}, or null when 0. */
  public static void intOrNull(FixedColumn c, int v) {
    if (v != 0) {
      c.appendInt(v);
    } else {
      c.appendNull();
    }
  }
}
