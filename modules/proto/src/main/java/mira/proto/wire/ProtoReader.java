package mira.proto.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A cursor over protobuf wire-format bytes, allocation-free.
 *
 * <p>One reader walks one message: {@link #next()} advances to the next field and
 * {@link #field()} / {@link #wireType()} describe it; the value accessors read it. A nested message
 * is walked by a second reader {@link #reset reset} to {@link #start()}..{@link #end()} of the
 * length-delimited field, so no reader is ever allocated per message.
 *
 * <p>Errors are {@link WireException}s whose message is completed by the caller with the field
 * path; this class only says what was wrong at which offset. Not thread-safe.
 */
public final class ProtoReader {
  public static final int VARINT = 0;
  public static final int I64 = 1;
  public static final int LEN = 2;
  public static final int SGROUP = 3;
  public static final int EGROUP = 4;
  public static final int I32 = 5;

  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private byte[] buf;
  private int pos;
  private int limit;
  private int field;
  private int wireType;
  /** For a LEN field, the bounds of its payload; for others, the bounds of the encoded value. */
  private int valueStart;
  private int valueEnd;
  private long varint;
  private int fieldStart;

  public ProtoReader() {}

  public ProtoReader(byte[] buf, int start, int end) {
    reset(buf, start, end);
  }

  /** Points this reader at {@code buf[start, end)}. */
  public ProtoReader reset(byte[] buf, int start, int end) {
    this.buf = buf;
    this.pos = start;
    this.limit = end;
    return this;
  }

  /** Points this reader at the payload of the length-delimited field {@code parent} is on. */
  public ProtoReader enter(ProtoReader parent) {
    return reset(parent.buf, parent.valueStart, parent.valueEnd);
  }

  public byte[] buffer() {
    return buf;
  }

  /**
   * Advances to the next field.
   *
   * @return false at the end of the message
   * @throws WireException on a truncated field, an invalid tag or wire type
   */
  public boolean next() throws WireException {
    if (pos >= limit) {
      return false;
    }
    fieldStart = pos;
    long tag = readRawVarint();
    int wt = (int) (tag & 7);
    long num = tag >>> 3;
    if (num == 0 || num > 0x1FFF_FFFFL) {
      throw new WireException("invalid field number " + num + " at offset " + pos);
    }
    field = (int) num;
    wireType = wt;
    switch (wt) {
      case VARINT -> {
        valueStart = pos;
        varint = readRawVarint();
        valueEnd = pos;
      }
      case I64 -> {
        valueStart = pos;
        require(8);
        pos += 8;
        valueEnd = pos;
      }
      case LEN -> {
        long len = readRawVarint();
        if (len < 0 || len > limit - pos) {
          throw new WireException("field " + field + " claims " + len + " bytes but " + (limit - pos) + " remain");
        }
        valueStart = pos;
        pos += (int) len;
        valueEnd = pos;
      }
      case I32 -> {
        valueStart = pos;
        require(4);
        pos += 4;
        valueEnd = pos;
      }
      case SGROUP -> {
        valueStart = pos;
        skipGroup(field);
        valueEnd = pos;
      }
      default -> throw new WireException("field " + field + " has invalid wire type " + wt);
    }
    return true;
  }

  /** Offset in {@link #buffer()} where the current field's tag begins. */
  public int fieldStart() {
    return fieldStart;
  }

  /** The current field's number. */
  public int field() {
    return field;
  }

  /** The current field's wire type. */
  public int wireType() {
    return wireType;
  }

  /** Fails unless the current field has wire type {@code expected}. */
  public void expect(int expected) throws WireException {
    if (wireType != expected) {
      throw new WireException("has wire type " + wireType + ", expected " + expected);
    }
  }

  /** The value of a VARINT field (also int32/uint32/enum/bool, truncated by the caller). */
  public long varint() throws WireException {
    expect(VARINT);
    return varint;
  }

  /** The value of an I64 field (fixed64, sfixed64, double bits). */
  public long fixed64() throws WireException {
    expect(I64);
    return (long) LONG_LE.get(buf, valueStart);
  }

  /** The value of an I32 field (fixed32, sfixed32, float bits). */
  public int fixed32() throws WireException {
    expect(I32);
    return (int) INT_LE.get(buf, valueStart);
  }

  public double double64() throws WireException {
    return Double.longBitsToDouble(fixed64());
  }

  /** Start offset of the current LEN field's payload in {@link #buffer()}. */
  public int start() {
    return valueStart;
  }

  /** End offset (exclusive) of the current field's value. */
  public int end() {
    return valueEnd;
  }

  public int length() {
    return valueEnd - valueStart;
  }

  /** Checks that the current LEN field holds valid UTF-8 (protobuf's rule for proto3 strings). */
  public void requireUtf8() throws WireException {
    expect(LEN);
    if (!Utf8.isValid(buf, valueStart, valueEnd)) {
      throw new WireException("is not valid UTF-8");
    }
  }

  /** Reads one varint at the cursor (for packed repeated fields walked by a child reader). */
  public long readRawVarint() throws WireException {
    int p = pos;
    if (p < limit) {
      byte b = buf[p];
      if (b >= 0) {
        pos = p + 1;
        return b;
      }
    }
    return readVarintSlow();
  }

  /** True if the cursor is at the end of this reader's range. */
  public boolean atEnd() {
    return pos >= limit;
  }

  /** Reads a little-endian 64-bit value at the cursor (packed fixed64 / double). */
  public long readRawFixed64() throws WireException {
    require(8);
    long v = (long) LONG_LE.get(buf, pos);
    pos += 8;
    return v;
  }

  private long readVarintSlow() throws WireException {
    long result = 0;
    int shift = 0;
    int p = pos;
    while (shift < 64) {
      if (p >= limit) {
        throw new WireException("truncated varint at offset " + p);
      }
      byte b = buf[p++];
      result |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        pos = p;
        return result;
      }
      shift += 7;
    }
    throw new WireException("malformed varint at offset " + pos);
  }

  private void require(int n) throws WireException {
    if (limit - pos < n) {
      throw new WireException("field " + field + " is truncated at offset " + pos);
    }
  }

  private void skipGroup(int groupField) throws WireException {
    // Groups are deprecated but legal: skip to the matching end-group tag, iteratively.
    int depth = 1;
    while (depth > 0) {
      if (pos >= limit) {
        throw new WireException("unterminated group " + groupField);
      }
      long tag = readRawVarint();
      int wt = (int) (tag & 7);
      switch (wt) {
        case VARINT -> readRawVarint();
        case I64 -> {
          require(8);
          pos += 8;
        }
        case LEN -> {
          long len = readRawVarint();
          if (len < 0 || len > limit - pos) {
            throw new WireException("truncated field inside group " + groupField);
          }
          pos += (int) len;
        }
        case I32 -> {
          require(4);
          pos += 4;
        }
        case SGROUP -> depth++;
        case EGROUP -> depth--;
        default -> throw new WireException("invalid wire type " + wt + " inside group " + groupField);
      }
    }
  }
}
