package mira.block.column;

import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * One column of a table being built. Not thread-safe: a column belongs to one flusher (or to the
 * request thread decoding into a private batch).
 */
public abstract sealed class Column permits FixedColumn, VarColumn, BoolColumn, DictColumn, ListColumn {
  protected final String name;
  protected final boolean nullable;
  protected int size;
  protected Bits validity;
  protected int nullCount;

  Column(String name, boolean nullable) {
    this.name = name;
    this.nullable = nullable;
    this.validity = nullable ? new Bits() : null;
  }

  public final String name() {
    return name;
  }

  /** Number of values (rows). */
  public final int size() {
    return size;
  }

  public final boolean nullable() {
    return nullable;
  }

  /** The Arrow field this column is written as. */
  public abstract Field field();

  /** Approximate bytes this column will occupy in an Arrow file. */
  public abstract long byteSize();

  /** Heap bytes this column's arrays hold, used or not. */
  public abstract long capacityBytes();

  protected final long validityCapacity() {
    return validity == null ? 0 : validity.capacity();
  }

  /** Forgets every value from row {@code n} on. */
  public abstract void truncate(int n);

  /** Appends rows {@code [from, to)} of {@code other}, which must be the same kind of column. */
  public abstract void appendRange(Column other, int from, int to);

  /** Appends every row of {@code other}. */
  public final void appendColumn(Column other) {
    appendRange(other, 0, other.size());
  }

  /** A deep copy of the first {@code n} rows (for read-your-writes snapshots). */
  public abstract Column copy(int n);

  /** A column of the same kind and name holding no values. */
  public abstract Column emptyLike();

  /**
   * Adds this column's Arrow field nodes and buffers, in IPC order, for the first {@code rows} rows.
   * Buffers are allocated from {@code allocator} and owned by the caller.
   */
  public abstract void export(int rows, List<ArrowFieldNode> nodes, List<ArrowBuf> buffers, BufferAllocator allocator);

  /**
   * Reports this column's field nodes and buffers for the first {@code rows} rows to {@code out},
   * in IPC order (see {@link IpcBody}).
   */
  public abstract void body(int rows, IpcBody out);

  /** Records the lengths of this column's arrays in {@code out} (see {@link Capacities}). */
  public abstract void capacities(Capacities out);

  /**
   * Grows this column's arrays to at least the lengths {@code in} gives next, in the order
   * {@link #capacities} recorded them (for a column of the same layout). Values held are kept.
   */
  public abstract void reserve(Capacities in);

  protected final void validityCapacities(Capacities out) {
    if (nullable) {
      out.add(validity.capacity());
    }
  }

  protected final void reserveValidity(Capacities in) {
    if (nullable) {
      validity.reserve(in.next());
    }
  }

  /** True if none of the first {@code rows} rows holds a value. */
  public final boolean allNull(int rows) {
    return nullable && (rows == size ? nullCount == rows : validity.countFalse(0, rows) == rows);
  }

  /** True if row {@code i} holds a value. */
  public final boolean isSet(int i) {
    return !nullable || validity.get(i);
  }

  protected final void markValid(int i, boolean valid) {
    if (nullable) {
      validity.set(i, valid);
      if (!valid) {
        nullCount++;
      }
    } else if (!valid) {
      throw new IllegalStateException("null in non-nullable column " + name);
    }
  }

  protected final void truncateValidity(int n) {
    if (nullable && n < size) {
      nullCount = n == 0 ? 0 : nullCount - validity.countFalse(n, size);
    }
  }

  /** Appends the validity of rows {@code [from, to)} of {@code o} after this column's rows. */
  protected final void appendValidity(Column o, int from, int to) {
    if (nullable) {
      if (o.nullable) {
        validity.copyFrom(o.validity, from, size, to - from);
        nullCount += from == 0 && to == o.size ? o.nullCount : o.validity.countFalse(from, to);
      } else {
        validity.fillTrue(size, to - from);
      }
    } else if (o.nullable && o.validity.countFalse(from, to) > 0) {
      throw new IllegalStateException("nulls into non-nullable column " + name);
    }
  }

  protected final void copyValidityInto(Column c, int n) {
    if (nullable) {
      c.validity = validity.copy(n);
      c.nullCount = validity.countFalse(0, n);
    }
  }

  protected final int nullCount(int rows) {
    if (!nullable) {
      return 0;
    }
    return rows == size ? nullCount : validity.countFalse(0, rows);
  }

  /** Reports the field node and the validity bitmap Arrow Java's writer emits for this column. */
  protected final void nodeAndValidity(int rows, IpcBody out) {
    out.node(rows, nullCount(rows));
    byte[] bitmap = nullable ? validity.packed(rows) : Bits.ones(rows);
    out.bytes(bitmap, bitmap.length);
  }

  /** The validity buffer for IPC: empty when non-nullable (Arrow reads that as all valid). */
  protected final ArrowBuf validityBuffer(int rows, BufferAllocator allocator) {
    if (!nullable) {
      return allocator.getEmpty();
    }
    byte[] bitmap = validity.packed(rows);
    return Buffers.fromBytes(bitmap, bitmap.length, allocator);
  }
}
