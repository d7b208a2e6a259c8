package mira.block.column;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/** Variable-length values (Utf8 or Binary): int32 offsets and one data array. */
public final class VarColumn extends Column {
  private final boolean utf8;
  private int[] offsets = new int[65];
  private byte[] data;
  private int dataLen;

  private VarColumn(String name, boolean nullable, boolean utf8, int dataCapacity) {
    super(name, nullable);
    this.utf8 = utf8;
    this.data = new byte[Math.max(64, dataCapacity)];
  }

  public static VarColumn utf8(String name, boolean nullable) {
    return new VarColumn(name, nullable, true, 256);
  }

  public static VarColumn binary(String name, boolean nullable) {
    return new VarColumn(name, nullable, false, 256);
  }

  private void reserve(int len) {
    if (size + 2 > offsets.length) {
      offsets = Arrays.copyOf(offsets, offsets.length * 2);
    }
    if (dataLen + len > data.length) {
      long want = Math.max((long) data.length * 2, (long) dataLen + len);
      if (want > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("column " + name + " would exceed 2 GiB");
      }
      data = Arrays.copyOf(data, (int) want);
    }
  }

  /** Appends {@code src[off, off + len)}. The caller has validated UTF-8 for a Utf8 column. */
  public void append(byte[] src, int off, int len) {
    reserve(len);
    System.arraycopy(src, off, data, dataLen, len);
    dataLen += len;
    offsets[size + 1] = dataLen;
    markValid(size++, true);
  }

  public void append(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    append(b, 0, b.length);
  }

  public void appendNull() {
    reserve(0);
    offsets[size + 1] = dataLen;
    markValid(size++, false);
  }

  public int start(int i) {
    return offsets[i];
  }

  public int end(int i) {
    return offsets[i + 1];
  }

  public byte[] array() {
    return data;
  }

  public String getString(int i) {
    return new String(data, offsets[i], offsets[i + 1] - offsets[i], StandardCharsets.UTF_8);
  }

  public byte[] getBytes(int i) {
    return Arrays.copyOfRange(data, offsets[i], offsets[i + 1]);
  }

  /** Bytes of value data so far. */
  public int dataLength() {
    return dataLen;
  }

  @Override
  public Field field() {
    return new Field(name, new FieldType(nullable, utf8 ? ArrowType.Utf8.INSTANCE : ArrowType.Binary.INSTANCE, null), null);
  }

  @Override
  public long capacityBytes() {
    return data.length + 4L * offsets.length + validityCapacity();
  }

  @Override
  public long byteSize() {
    return dataLen + 4L * (size + 1) + (nullable ? (size >>> 3) + 1 : 0);
  }

  @Override
  public void truncate(int n) {
    if (n < size) {
      truncateValidity(n);
      size = n;
      dataLen = offsets[n];
    }
  }

  @Override
  public void appendRange(Column other, int from, int to) {
    VarColumn o = (VarColumn) other;
    int n = to - from;
    if (size + n + 2 > offsets.length) {
      offsets = Arrays.copyOf(offsets, Math.max(offsets.length * 2, size + n + 2));
    }
    int srcStart = o.offsets[from];
    int bytes = o.offsets[to] - srcStart;
    reserve(bytes);
    System.arraycopy(o.data, srcStart, data, dataLen, bytes);
    int delta = dataLen - srcStart;
    for (int i = 1; i <= n; i++) {
      offsets[size + i] = o.offsets[from + i] + delta;
    }
    dataLen += bytes;
    appendValidity(o, from, to);
    size += n;
  }

  @Override
  public Column copy(int n) {
    VarColumn c = new VarColumn(name, nullable, utf8, 0);
    c.offsets = Arrays.copyOf(offsets, n + 1);
    c.data = Arrays.copyOf(data, Math.max(64, offsets[n]));
    c.dataLen = offsets[n];
    copyValidityInto(c, n);
    c.size = n;
    return c;
  }

  @Override
  public VarColumn emptyLike() {
    return new VarColumn(name, nullable, utf8, 256);
  }

  @Override
  public void capacities(Capacities out) {
    validityCapacities(out);
    out.add(offsets.length);
    out.add(data.length);
  }

  @Override
  public void reserve(Capacities in) {
    reserveValidity(in);
    int n = in.next();
    if (n > offsets.length) {
      offsets = Arrays.copyOf(offsets, n);
    }
    n = in.next();
    if (n > data.length) {
      data = Arrays.copyOf(data, n);
    }
  }

  @Override
  public void body(int rows, IpcBody out) {
    nodeAndValidity(rows, out);
    out.ints(offsets, rows + 1);
    out.bytes(data, offsets[rows]);
  }

  @Override
  public void export(int rows, List<ArrowFieldNode> nodes, List<ArrowBuf> buffers, BufferAllocator allocator) {
    nodes.add(new ArrowFieldNode(rows, nullCount(rows)));
    buffers.add(validityBuffer(rows, allocator));
    buffers.add(Buffers.fromInts(offsets, rows + 1, allocator));
    buffers.add(Buffers.fromBytes(data, offsets[rows], allocator));
  }
}
