package mira.block.column;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/** Fixed-width values (integers, floats, timestamps, fixed-size binary) as little-endian bytes. */
public final class FixedColumn extends Column {
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

  private final ArrowType type;
  private final int width;
  private byte[] data;

  private FixedColumn(String name, boolean nullable, ArrowType type, int width, int capacity) {
    super(name, nullable);
    this.type = type;
    this.width = width;
    this.data = new byte[Math.max(64, capacity * width)];
  }

  public static FixedColumn u8(String name, boolean nullable) {
    return new FixedColumn(name, nullable, new ArrowType.Int(8, false), 1, 64);
  }

  public static FixedColumn u16(String name, boolean nullable) {
    return new FixedColumn(name, nullable, new ArrowType.Int(16, false), 2, 64);
  }

  public static FixedColumn i32(String name, boolean nullable) {
    return new FixedColumn(name, nullable, new ArrowType.Int(32, true), 4, 64);
  }

  public static FixedColumn u32(String name, boolean nullable) {
    return new FixedColumn(name, nullable, new ArrowType.Int(32, false), 4, 64);
  }

  public static FixedColumn i64(String name, boolean nullable) {
    return new FixedColumn(name, nullable, new ArrowType.Int(64, true), 8, 64);
  }

  public static FixedColumn u64(String name, boolean nullable) {
    return new FixedColumn(name, nullable, new ArrowType.Int(64, false), 8, 64);
  }

  public static FixedColumn f64(String name, boolean nullable) {
    return new FixedColumn(name, nullable, new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), 8, 64);
  }

  /** Timestamp(ns) without a time zone: OTLP times are Unix-epoch nanoseconds. */
  public static FixedColumn timestampNs(String name, boolean nullable) {
    return new FixedColumn(name, nullable, new ArrowType.Timestamp(TimeUnit.NANOSECOND, null), 8, 64);
  }

  public static FixedColumn fixedBinary(String name, int width, boolean nullable) {
    return new FixedColumn(name, nullable, new ArrowType.FixedSizeBinary(width), width, 64);
  }

  public int width() {
    return width;
  }

  private int reserve() {
    int at = size * width;
    if (at + width > data.length) {
      data = Arrays.copyOf(data, Math.max(data.length * 2, at + width));
    }
    return at;
  }

  public void appendLong(long v) {
    int at = reserve();
    LONG.set(data, at, v);
    markValid(size++, true);
  }

  public void appendDouble(double v) {
    appendLong(Double.doubleToRawLongBits(v));
  }

  public void appendInt(int v) {
    int at = reserve();
    INT.set(data, at, v);
    markValid(size++, true);
  }

  public void appendShort(int v) {
    int at = reserve();
    SHORT.set(data, at, (short) v);
    markValid(size++, true);
  }

  public void appendByte(int v) {
    int at = reserve();
    data[at] = (byte) v;
    markValid(size++, true);
  }

  /** Appends {@code width} bytes from {@code src[off..]}. */
  public void appendBytes(byte[] src, int off) {
    int at = reserve();
    System.arraycopy(src, off, data, at, width);
    markValid(size++, true);
  }

  /** Appends a null (the value bytes are zero). */
  public void appendNull() {
    int at = reserve();
    Arrays.fill(data, at, at + width, (byte) 0);
    markValid(size++, false);
  }

  public long getLong(int i) {
    return (long) LONG.get(data, i * width);
  }

  public double getDouble(int i) {
    return Double.longBitsToDouble(getLong(i));
  }

  public int getInt(int i) {
    return (int) INT.get(data, i * width);
  }

  public int getUnsignedShort(int i) {
    return Short.toUnsignedInt((short) SHORT.get(data, i * width));
  }

  public int getUnsignedByte(int i) {
    return data[i * width] & 0xFF;
  }

  /** The backing array; value i occupies {@code [i * width, (i + 1) * width)}. */
  public byte[] array() {
    return data;
  }

  /** Overwrites value {@code i} of a 2-byte column. */
  public void setShort(int i, int v) {
    SHORT.set(data, i * width, (short) v);
  }

  /** Overwrites value {@code i} of a 4-byte column. */
  public void setInt(int i, int v) {
    INT.set(data, i * width, v);
  }

  /** Adds {@code delta} to each 4-byte value at rows {@code [from, size)} (id rebasing). */
  public void addToInts(int from, int delta) {
    for (int i = from; i < size; i++) {
      int at = i * width;
      INT.set(data, at, (int) INT.get(data, at) + delta);
    }
  }

  /** Replaces each value v (2 or 4 bytes wide) at rows {@code [from, size)} by {@code map[v]}. */
  public void remap(int from, int[] map) {
    if (width == 2) {
      remapShorts(from, map);
      return;
    }
    for (int i = from; i < size; i++) {
      int at = i * width;
      INT.set(data, at, map[(int) INT.get(data, at)]);
    }
  }

  /** Replaces each 2-byte value v at rows {@code [from, size)} by {@code map[v]}. */
  public void remapShorts(int from, int[] map) {
    for (int i = from; i < size; i++) {
      int at = i * width;
      SHORT.set(data, at, (short) map[Short.toUnsignedInt((short) SHORT.get(data, at))]);
    }
  }

  @Override
  public Field field() {
    return new Field(name, new FieldType(nullable, type, null), null);
  }

  @Override
  public long capacityBytes() {
    return data.length + validityCapacity();
  }

  @Override
  public long byteSize() {
    return (long) size * width + (nullable ? (size >>> 3) + 1 : 0);
  }

  @Override
  public void truncate(int n) {
    if (n < size) {
      truncateValidity(n);
      size = n;
    }
  }

  @Override
  public void appendRange(Column other, int from, int to) {
    FixedColumn o = (FixedColumn) other;
    if (o.width != width) {
      throw new IllegalArgumentException("width " + o.width + " into " + width + " in " + name);
    }
    int n = to - from;
    int need = (size + n) * width;
    if (need > data.length) {
      data = Arrays.copyOf(data, Math.max(data.length * 2, need));
    }
    System.arraycopy(o.data, from * width, data, size * width, n * width);
    appendValidity(o, from, to);
    size += n;
  }

  @Override
  public Column copy(int n) {
    FixedColumn c = new FixedColumn(name, nullable, type, width, 0);
    c.data = Arrays.copyOf(data, Math.max(64, n * width));
    copyValidityInto(c, n);
    c.size = n;
    return c;
  }

  @Override
  public FixedColumn emptyLike() {
    return new FixedColumn(name, nullable, type, width, 64);
  }

  @Override
  public void capacities(Capacities out) {
    validityCapacities(out);
    out.add(data.length);
  }

  @Override
  public void reserve(Capacities in) {
    reserveValidity(in);
    int n = in.next();
    if (n > data.length) {
      data = Arrays.copyOf(data, n);
    }
  }

  @Override
  public void body(int rows, IpcBody out) {
    nodeAndValidity(rows, out);
    out.bytes(data, rows * width);
  }

  @Override
  public void export(int rows, List<ArrowFieldNode> nodes, List<ArrowBuf> buffers, BufferAllocator allocator) {
    nodes.add(new ArrowFieldNode(rows, nullCount(rows)));
    buffers.add(validityBuffer(rows, allocator));
    buffers.add(Buffers.fromBytes(data, rows * width, allocator));
  }
}
