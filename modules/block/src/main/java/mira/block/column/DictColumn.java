package mira.block.column;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A {@code Dictionary<UInt16, Utf8>} column: for enumerable strings only (attribute keys, severity
 * text, event names). At most {@link #CAPACITY} distinct values; callers check
 * {@link #missing(DictColumn)} before appending another batch and seal the block instead of
 * overflowing.
 */
public final class DictColumn extends Column {
  /** Distinct values a UInt16 index can address. */
  public static final int CAPACITY = 65536;

  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final FixedColumn indices;
  private final VarColumn values;
  /** Open addressing: slot holds entry index + 1, 0 = empty. */
  private int[] slots = new int[64];
  private int[] hashes = new int[16];

  public DictColumn(String name, boolean nullable) {
    super(name, false);
    this.indices = FixedColumn.u16(name, nullable);
    this.values = VarColumn.utf8(name + ".dict", false);
  }

  /** Distinct values held. */
  public int entries() {
    return values.size();
  }

  /**
   * Appends the value {@code b[off, off + len)}, adding it to the dictionary if new.
   *
   * @return false, appending nothing, if the value is new and the dictionary is full
   */
  public boolean append(byte[] b, int off, int len) {
    int idx = lookupOrAdd(b, off, len);
    if (idx < 0) {
      return false;
    }
    indices.appendShort(idx);
    size++;
    return true;
  }

  public boolean append(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return append(b, 0, b.length);
  }

  public void appendNull() {
    indices.appendNull();
    size++;
  }

  /** The dictionary index of row {@code i}. */
  public int index(int i) {
    return indices.getUnsignedShort(i);
  }

  public boolean isNull(int i) {
    return !indices.isSet(i);
  }

  /** The dictionary's values. */
  public VarColumn values() {
    return values;
  }

  public String getString(int i) {
    return values.getString(index(i));
  }

  /** How many of {@code other}'s dictionary values this dictionary lacks. */
  public int missing(DictColumn other) {
    int n = 0;
    for (int e = 0; e < other.values.size(); e++) {
      if (find(other.values.array(), other.values.start(e), other.values.end(e) - other.values.start(e),
          other.hashes[e]) < 0) {
        n++;
      }
    }
    return n;
  }

  /** A fast 32-bit hash of {@code b[off, off + len)}, for in-memory tables only (never persisted). */
  public static int hash(byte[] b, int off, int len) {
    long h = 0x9E3779B97F4A7C15L ^ len;
    int i = off;
    int end = off + len;
    while (i + 8 <= end) {
      h = (h ^ (long) LONG.get(b, i)) * 0xBF58476D1CE4E5B9L;
      h ^= h >>> 29;
      i += 8;
    }
    while (i < end) {
      h = (h ^ (b[i++] & 0xFF)) * 0x94D049BB133111EBL;
    }
    h ^= h >>> 32;
    return (int) h;
  }

  private int find(byte[] b, int off, int len, int h) {
    int mask = slots.length - 1;
    for (int s = h & mask; ; s = (s + 1) & mask) {
      int e = slots[s] - 1;
      if (e < 0) {
        return -1;
      }
      if (hashes[e] == h && values.end(e) - values.start(e) == len
          && Arrays.equals(values.array(), values.start(e), values.end(e), b, off, off + len)) {
        return e;
      }
    }
  }

  private int lookupOrAdd(byte[] b, int off, int len) {
    int h = hash(b, off, len);
    int mask = slots.length - 1;
    int s = h & mask;
    for (; ; s = (s + 1) & mask) {
      int e = slots[s] - 1;
      if (e < 0) {
        break;
      }
      if (hashes[e] == h && values.end(e) - values.start(e) == len
          && Arrays.equals(values.array(), values.start(e), values.end(e), b, off, off + len)) {
        return e;
      }
    }
    int e = values.size();
    if (e >= CAPACITY) {
      return -1;
    }
    values.append(b, off, len);
    if (e >= hashes.length) {
      hashes = Arrays.copyOf(hashes, hashes.length * 2);
    }
    hashes[e] = h;
    slots[s] = e + 1;
    if ((e + 1) * 2 > slots.length) {
      rehash(slots.length * 2);
    }
    return e;
  }

  private void rehash(int capacity) {
    slots = new int[capacity];
    int mask = capacity - 1;
    for (int e = 0; e < values.size(); e++) {
      int s = hashes[e] & mask;
      while (slots[s] != 0) {
        s = (s + 1) & mask;
      }
      slots[s] = e + 1;
    }
  }

  /** Forgets rows from {@code n} on and dictionary values from {@code entries} on. */
  public void truncate(int n, int entries) {
    truncate(n);
    if (entries < values.size()) {
      values.truncate(entries);
      rehash(slots.length);
    }
  }

  @Override
  public Field field() {
    throw new UnsupportedOperationException("use field(dictionaryId)");
  }

  /**
   * The in-memory Arrow field: UInt16 indices with a dictionary encoding under {@code id}. (Arrow
   * Java's writer turns it into the file's Utf8 field from the dictionary it is given.)
   */
  public Field field(long id) {
    ArrowType.Int index = new ArrowType.Int(16, false);
    return new Field(name, new FieldType(indices.nullable(), index, new DictionaryEncoding(id, false, index)), null);
  }

  @Override
  public long capacityBytes() {
    return indices.capacityBytes() + values.capacityBytes() + 4L * slots.length + 4L * hashes.length;
  }

  @Override
  public long byteSize() {
    return indices.byteSize() + values.byteSize();
  }

  @Override
  public void truncate(int n) {
    if (n < size) {
      indices.truncate(n);
      size = n;
    }
  }

  /**
   * Appends {@code other}'s rows, translating its indices into this dictionary. The caller has
   * checked {@link #missing} fits.
   */
  @Override
  public void appendRange(Column other, int from, int to) {
    DictColumn o = (DictColumn) other;
    int[] map = new int[o.values.size()];
    for (int e = 0; e < map.length; e++) {
      int idx = lookupOrAdd(o.values.array(), o.values.start(e), o.values.end(e) - o.values.start(e));
      if (idx < 0) {
        throw new IllegalStateException("dictionary " + name + " is full; headroom was not checked");
      }
      map[e] = idx;
    }
    int at = indices.size();
    indices.appendRange(o.indices, from, to);
    if (map.length > 0) {
      // A null row's index bytes are 0, which every non-empty map can translate harmlessly.
      indices.remapShorts(at, map);
    }
    size += to - from;
  }

  @Override
  public Column copy(int n) {
    DictColumn c = new DictColumn(name, indices.nullable());
    c.indices.appendColumn(indices.copy(n));
    c.size = n;
    c.values.appendColumn(values);
    c.hashes = Arrays.copyOf(hashes, Math.max(16, hashes.length));
    c.rehash(slots.length);
    return c;
  }

  @Override
  public DictColumn emptyLike() {
    return new DictColumn(name, indices.nullable());
  }

  @Override
  public void capacities(Capacities out) {
    indices.capacities(out);
    values.capacities(out);
    out.add(slots.length);
    out.add(hashes.length);
  }

  @Override
  public void reserve(Capacities in) {
    indices.reserve(in);
    values.reserve(in);
    int n = in.next();
    if (n > slots.length) {
      // Power-of-two slot counts only, as lookups mask with slots.length - 1.
      rehash(Integer.highestOneBit(n));
    }
    n = in.next();
    if (n > hashes.length) {
      hashes = Arrays.copyOf(hashes, n);
    }
  }

  @Override
  public void body(int rows, IpcBody out) {
    indices.body(rows, out);
  }

  @Override
  public void export(int rows, List<ArrowFieldNode> nodes, List<ArrowBuf> buffers, BufferAllocator allocator) {
    indices.export(rows, nodes, buffers, allocator);
  }

  /** The dictionary as an Arrow {@link Dictionary} (a VarCharVector owned by the caller). */
  public Dictionary dictionary(long id, BufferAllocator allocator) {
    Field f = values.field();
    VarCharVector v = (VarCharVector) f.createVector(allocator);
    List<ArrowFieldNode> nodes = new java.util.ArrayList<>();
    List<ArrowBuf> bufs = new java.util.ArrayList<>();
    values.export(values.size(), nodes, bufs, allocator);
    try (VectorSchemaRoot root = new VectorSchemaRoot(List.of(f), List.of(v), 0);
        ArrowRecordBatch batch = new ArrowRecordBatch(values.size(), nodes, bufs)) {
      new VectorLoader(root).load(batch);
      // Detach the vector from the root so closing the root does not free it.
      VarCharVector out = (VarCharVector) f.createVector(allocator);
      v.makeTransferPair(out).transfer();
      out.setValueCount(values.size());
      return new Dictionary(out, new DictionaryEncoding(id, false, new ArrowType.Int(16, false)));
    } finally {
      for (ArrowBuf b : bufs) {
        b.close();
      }
    }
  }
}
