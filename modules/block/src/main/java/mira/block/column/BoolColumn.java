package mira.block.column;

import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/** Booleans, bit-packed as Arrow stores them. */
public final class BoolColumn extends Column {
  private Bits values = new Bits();

  public BoolColumn(String name, boolean nullable) {
    super(name, nullable);
  }

  public void append(boolean v) {
    values.set(size, v);
    markValid(size++, true);
  }

  public void appendNull() {
    values.set(size, false);
    markValid(size++, false);
  }

  public boolean get(int i) {
    return values.get(i);
  }

  @Override
  public Field field() {
    return new Field(name, new FieldType(nullable, ArrowType.Bool.INSTANCE, null), null);
  }

  @Override
  public long capacityBytes() {
    return values.capacity() + validityCapacity();
  }

  @Override
  public long byteSize() {
    return ((size >>> 3) + 1) * (nullable ? 2L : 1L);
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
    BoolColumn o = (BoolColumn) other;
    values.copyFrom(o.values, from, size, to - from);
    appendValidity(o, from, to);
    size += to - from;
  }

  @Override
  public Column copy(int n) {
    BoolColumn c = new BoolColumn(name, nullable);
    c.values = values.copy(n);
    copyValidityInto(c, n);
    c.size = n;
    return c;
  }

  @Override
  public BoolColumn emptyLike() {
    return new BoolColumn(name, nullable);
  }

  @Override
  public void capacities(Capacities out) {
    validityCapacities(out);
    out.add(values.capacity());
  }

  @Override
  public void reserve(Capacities in) {
    reserveValidity(in);
    values.reserve(in.next());
  }

  @Override
  public void body(int rows, IpcBody out) {
    nodeAndValidity(rows, out);
    byte[] bitmap = values.packed(rows);
    out.bytes(bitmap, bitmap.length);
  }

  @Override
  public void export(int rows, List<ArrowFieldNode> nodes, List<ArrowBuf> buffers, BufferAllocator allocator) {
    nodes.add(new ArrowFieldNode(rows, nullCount(rows)));
    buffers.add(validityBuffer(rows, allocator));
    byte[] bitmap = values.packed(rows);
    buffers.add(Buffers.fromBytes(bitmap, bitmap.length, allocator));
  }
}
