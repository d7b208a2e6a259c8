package mira.block.table;

import mira.block.column.BoolColumn;
import mira.block.column.DictColumn;
import mira.block.column.FixedColumn;
import mira.block.column.VarColumn;
import mira.proto.wire.ProtoReader;
import mira.proto.wire.WireException;

/**
 * Appends OTLP {@code KeyValue}s, read from the wire, to an {@link Attributes} table. One writer per
 * table; it owns two readers so nothing is allocated per attribute.
 */
public final class AttrWriter {
  /** AnyValue nesting (arrays, kvlists) deeper than this is refused rather than recursed into. */
  public static final int MAX_DEPTH = 64;

  private final Table table;
  private final FixedColumn parent;
  private final DictColumn key;
  private final FixedColumn type;
  private final VarColumn str;
  private final FixedColumn i64;
  private final FixedColumn f64;
  private final BoolColumn bool;
  private final VarColumn bytes;
  private final VarColumn ser;
  private final ProtoReader kv = new ProtoReader();
  private final AnyValueReader value = new AnyValueReader();

  public AttrWriter(Table table) {
    this.table = table;
    this.parent = (FixedColumn) table.column(Attributes.PARENT_ID);
    this.key = (DictColumn) table.column(Attributes.KEY);
    this.type = (FixedColumn) table.column(Attributes.TYPE);
    this.str = (VarColumn) table.column(Attributes.STR);
    this.i64 = (FixedColumn) table.column(Attributes.INT);
    this.f64 = (FixedColumn) table.column(Attributes.DOUBLE);
    this.bool = (BoolColumn) table.column(Attributes.BOOL);
    this.bytes = (VarColumn) table.column(Attributes.BYTES);
    this.ser = (VarColumn) table.column(Attributes.SER);
  }

  public Table table() {
    return table;
  }

  /**
   * Appends the KeyValue in the LEN field {@code field} is positioned on, owned by {@code parentId}.
   *
   * @throws WireException naming {@code key} or {@code value} if malformed
   * @throws TooLargeException if the key dictionary is full
   */
  public void append(ProtoReader field, int parentId) throws WireException, TooLargeException {
    field.expect(ProtoReader.LEN);
    kv.enter(field);
    byte[] buf = kv.buffer();
    int keyStart = 0;
    int keyLen = 0;
    boolean hasValue = false;
    int valueStart = 0;
    int valueEnd = 0;
    while (kv.next()) {
      switch (kv.field()) {
        case 1 -> {
          try {
            kv.requireUtf8();
          } catch (WireException e) {
            throw new WireException("key: " + e.getMessage());
          }
          keyStart = kv.start();
          keyLen = kv.length();
        }
        case 2 -> {
          try {
            kv.expect(ProtoReader.LEN);
          } catch (WireException e) {
            throw new WireException("value: " + e.getMessage());
          }
          hasValue = true;
          valueStart = kv.start();
          valueEnd = kv.end();
        }
        default -> { }
      }
    }
    if (!key.append(buf, keyStart, keyLen)) {
      throw new TooLargeException("more than " + DictColumn.CAPACITY + " distinct attribute keys in " + table.file());
    }
    parent.appendInt(parentId);
    if (!hasValue) {
      appendEmpty();
      return;
    }
    try {
      value.read(buf, valueStart, valueEnd);
    } catch (WireException e) {
      throw WireException.at("value", e);
    }
    appendValue(buf, valueStart, valueEnd);
  }

  /** Appends the value {@link #value} just read, with {@code [start, end)} its AnyValue bytes. */
  private void appendValue(byte[] buf, int start, int end) {
    switch (value.kind()) {
      case Attributes.TYPE_STR -> {
        type.appendByte(Attributes.TYPE_STR);
        str.append(buf, value.start(), value.length());
        i64.appendNull();
        f64.appendNull();
        bool.appendNull();
        bytes.appendNull();
        ser.appendNull();
      }
      case Attributes.TYPE_INT -> {
        type.appendByte(Attributes.TYPE_INT);
        str.appendNull();
        i64.appendLong(value.bits());
        f64.appendNull();
        bool.appendNull();
        bytes.appendNull();
        ser.appendNull();
      }
      case Attributes.TYPE_DOUBLE -> {
        type.appendByte(Attributes.TYPE_DOUBLE);
        str.appendNull();
        i64.appendNull();
        f64.appendLong(value.bits());
        bool.appendNull();
        bytes.appendNull();
        ser.appendNull();
      }
      case Attributes.TYPE_BOOL -> {
        type.appendByte(Attributes.TYPE_BOOL);
        str.appendNull();
        i64.appendNull();
        f64.appendNull();
        bool.append(value.bits() != 0);
        bytes.appendNull();
        ser.appendNull();
      }
      case Attributes.TYPE_BYTES -> {
        type.appendByte(Attributes.TYPE_BYTES);
        str.appendNull();
        i64.appendNull();
        f64.appendNull();
        bool.appendNull();
        bytes.append(buf, value.start(), value.length());
        ser.appendNull();
      }
      case Attributes.TYPE_MAP, Attributes.TYPE_SLICE -> {
        type.appendByte(value.kind());
        str.appendNull();
        i64.appendNull();
        f64.appendNull();
        bool.appendNull();
        bytes.appendNull();
        ser.append(buf, start, end - start);
      }
      default -> appendEmpty();
    }
  }

  private void appendEmpty() {
    type.appendByte(Attributes.TYPE_EMPTY);
    str.appendNull();
    i64.appendNull();
    f64.appendNull();
    bool.appendNull();
    bytes.appendNull();
    ser.appendNull();
  }
}
