package mira.block.metrics;

import mira.block.column.FixedColumn;
import mira.proto.wire.ProtoReader;
import mira.proto.wire.WireException;

/** Reads of one scalar field whose errors name the field, for the metrics decoders. */
final class Fields {
  private Fields() {}

  static void expect(ProtoReader r, int wireType, String name) throws WireException {
    try {
      r.expect(wireType);
    } catch (WireException e) {
      throw new WireException(name + ": " + e.getMessage());
    }
  }

  static void utf8(ProtoReader r, String name) throws WireException {
    try {
      r.requireUtf8();
    } catch (WireException e) {
      throw new WireException(name + ": " + e.getMessage());
    }
  }

  static long varint(ProtoReader r, String name) throws WireException {
    try {
      return r.varint();
    } catch (WireException e) {
      throw new WireException(name + ": " + e.getMessage());
    }
  }

  /** A uint32 (flags): the low 32 bits of the varint, as protobuf truncates it. */
  static int uint32(ProtoReader r, String name) throws WireException {
    return (int) varint(r, name);
  }

  /** A sint32 (zigzag) varint. */
  static int sint32(ProtoReader r, String name) throws WireException {
    int n = (int) varint(r, name);
    return (n >>> 1) ^ -(n & 1);
  }

  /** A fixed64, sfixed64 or double (as raw bits, so NaN payloads survive). */
  static long fixed64(ProtoReader r, String name) throws WireException {
    try {
      return r.fixed64();
    } catch (WireException e) {
      throw new WireException(name + ": " + e.getMessage());
    }
  }

  /** The payload of a packed repeated 8-byte field must be a whole number of values. */
  static void packed64(ProtoReader r, String name) throws WireException {
    if ((r.length() & 7) != 0) {
      throw new WireException(name + ": packed length " + r.length() + " is not a multiple of 8");
    }
  }

  /** Appends {@code t}, or null when 0 (proto3 cannot tell 0 from absent). */
  static void longOrNull(FixedColumn c, long t) {
    if (t != 0) {
      c.appendLong(t);
    } else {
      c.appendNull();
    }
  }

  static void intOrNull(FixedColumn c, int v) {
    if (v != 0) {
      c.appendInt(v);
    } else {
      c.appendNull();
    }
  }

  /** An OTLP id: absent or empty is null; otherwise exactly {@code width} bytes. */
  static void id(FixedColumn c, byte[] buf, int start, int len, int width, String name) throws WireException {
    if (start < 0 || len == 0) {
      c.appendNull();
    } else if (len != width) {
      throw new WireException(name + ": has " + len + " bytes, expected " + width);
    } else {
      c.appendBytes(buf, start);
    }
  }
}
