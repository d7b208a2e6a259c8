package mira.block.column;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/** A List of fixed-width values (bucket counts, bounds, quantiles): int32 offsets and a child column. */
public final class ListColumn extends Column {
  private int[] offsets = new int[65];
  private final FixedColumn child;

  public ListColumn(String name, boolean nullable, FixedColumn child) {
    super(name, nullable);
    this.child = child;
  }

  /** The child column; append the list's elements to it, then call {@link #endList()}. */
  public FixedColumn child() {
    return child;
  }

  /** Closes a list whose elements were appended to {@link #child()} since the previous list. */
  public void endList() {
    if (size + 2 > offsets.length) {
      offsets = Arrays.copyOf(offsets, offsets.length * 2);
    }
    offsets[size + 1] = child.size();
    markValid(size++, true);
  }

  public void appendNull() {
    if (size + 2 > offsets.length) {
      offsets = Arrays.copyOf(offsets, offsets.length * 2);
    }
    offsets[size + 1] = child.size();
    markValid(size++, false);
  }

  public int start(int i) {
    return offsets[i];
  }

  public int end(int i) {
    return offsets[i + 1];
  }

  @Override
  public Field field() {
    return new Field(name, new FieldType(nullable, ArrowType.List.INSTANCE, null), List.of(child.field()));
  }

  @Override
  public long capacityBytes() {
    return 4L * offsets.length + child.capacityBytes() + validityCapacity();
  }

  @Override
  public long byteSize() {
    return 4L * (size + 1) + child.byteSize();
  }

  @Override
  public void truncate(int n) {
    if (n < size) {
      truncateValidity(n);
      size = n;
      child.truncate(offsets[n]);
    }
  }

  @Override
  public void appendRange(Column other, int from, int to) {
    ListColumn o = (ListColumn) other;
    int n = to - from;
    if (size + n + 2 > offsets.length) {
      offsets = Arrays.copyOf(offsets, Math.max(offsets.length * 2, size + n + 2));
    }
    int delta = child.size() - o.offsets[from];
    child.appendRange(o.child, o.offsets[from], o.offsets[to]);
    for (int i = 1; i <= n; i++) {
      offsets[size + i] = o.offsets[from + i] + delta;
    }
    appendValidity(o, from, to);
    size += n;
  }

  @Override
  public Column copy(int n) {
    ListColumn c = new ListColumn(name, nullable, (FixedColumn) child.copy(offsets[n]));
    c.offsets = Arrays.copyOf(offsets, Math.max(65, n + 1));
    copyValidityInto(c, n);
    c.size = n;
    return c;
  }

  @Override
  public ListColumn emptyLike() {
    return new ListColumn(name, nullable, child.emptyLike());
  }

  @Override
  public void capacities(Capacities out) {
    validityCapacities(out);
    out.add(offsets.length);
    child.capacities(out);
  }

  @Override
  public void reserve(Capacities in) {
    reserveValidity(in);
    int n = in.next();
    if (n > offsets.length) {
      offsets = Arrays.copyOf(offsets, n);
    }
    child.reserve(in);
  }

  @Override
  public void body(int rows, IpcBody out) {
    nodeAndValidity(rows, out);
    out.ints(offsets, rows + 1);
    child.body(offsets[rows], out);
  }

  @Override
  public void export(int rows, List<ArrowFieldNode> nodes, List<ArrowBuf> buffers, BufferAllocator allocator) {
    nodes.add(new ArrowFieldNode(rows, nullCount(rows)));
    buffers.add(validityBuffer(rows, allocator));
    buffers.add(Buffers.fromInts(offsets, rows + 1, allocator));
    child.export(offsets[rows], nodes, buffers, allocator);
  }
}
