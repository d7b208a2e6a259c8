package mira.block.table;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import mira.block.column.Column;
import mira.block.column.FixedColumn;
import mira.proto.wire.Signal;

/**
 * The tables of one signal: either a decoded export (one request) or an open block accumulating
 * many. Tables 0..3 are always resources, resource_attrs, scopes, scope_attrs; the signal's own
 * tables follow, root table first.
 *
 * <p>Resources and scopes are de-duplicated by the bytes that defined them (the Resource message
 * and its schema_url), so a block holding ten thousand exports from one SDK holds one resource
 * row.
 *
 * <p>A signal may also declare id sequences — one id space shared by several tables, so no single
 * table's row count can rebase it ({@link Rebase#SEQUENCE}) — and interned tables, one row per
 * distinct key ({@link Interner}, {@link Rebase#INTERNED}). {@link #tryAppend} carries both over:
 * sequence ids are offset by the block's value of the sequence, interned rows are copied only when
 * new and references to them are translated. Not thread-safe.
 */
public abstract class Batch {
  public static final int RESOURCES = 0;
  public static final int RESOURCE_ATTRS = 1;
  public static final int SCOPES = 2;
  public static final int SCOPE_ATTRS = 3;
  /** The first signal-specific table, the root table (logs, spans, metrics). */
  public static final int ROOT = 4;

  /** UInt16 ids address this many resources or scopes per block. */
  public static final int MAX_RESOURCES = 65536;

  protected final Table[] tables;
  /** Identity bytes of each resource / scope row, by id. */
  private byte[][] resourceIdentity = new byte[8][];
  private byte[][] scopeIdentity = new byte[8][];
  private Map<Identity, Integer> resourceIndex;
  private Map<Identity, Integer> scopeIndex;
  /** Next id of each sequence, which is also how many ids it has handed out. */
  private final int[] sequences;
  /** By table index: the interner of an interned table, else null. */
  private final Interner[] interners;
  protected long minTime = Long.MAX_VALUE;
  protected long maxTime = Long.MIN_VALUE;

  protected Batch(Table[] tables) {
    this(tables, 0);
  }

  /**
   * @param sequences how many id sequences the signal uses (see {@link Rebase#SEQUENCE})
   * @param internedTables indices of the tables that are interned (see {@link Interner})
   */
  protected Batch(Table[] tables, int sequences, int... internedTables) {
    this.tables = tables;
    this.sequences = new int[sequences];
    this.interners = new Interner[tables.length];
    for (int t : internedTables) {
      if (t < ROOT) {
        throw new IllegalArgumentException("table " + t + " is shared and cannot be interned");
      }
      interners[t] = new Interner(tables[t]);
    }
  }

  public abstract Signal signal();

  /** A new, empty batch of the same signal (an open block starts as one). */
  public abstract Batch newEmpty();

  public final Table[] tables() {
    return tables;
  }

  public final Table table(int i) {
    return tables[i];
  }

  /** Rows of the root table: log records, spans or metric data points' parent metrics. */
  public int rows() {
    return tables[ROOT].rows();
  }

  /** Records for accounting: log records, spans, or data points. */
  public abstract long records();

  public final boolean isEmpty() {
    return tables[ROOT].rows() == 0;
  }

  /** Smallest record time (ns since the epoch), or Long.MAX_VALUE when empty. */
  public final long minTime() {
    return minTime;
  }

  /** Largest record time (ns since the epoch), or Long.MIN_VALUE when empty. */
  public final long maxTime() {
    return maxTime;
  }

  /** Widens the time range to include {@code t}. */
  public final void observeTime(long t) {
    if (t < minTime) {
      minTime = t;
    }
    if (t > maxTime) {
      maxTime = t;
    }
  }

  /** Ids sequence {@code s} has handed out; the next id it hands out is this value. */
  public final int sequence(int s) {
    return sequences[s];
  }

  /** Takes the next id of sequence {@code s}. */
  protected final int nextId(int s) {
    return sequences[s]++;
  }

  /** The interner of interned table {@code t}. */
  protected final Interner interner(int t) {
    Interner i = interners[t];
    if (i == null) {
      throw new IllegalArgumentException(tables[t].file() + " is not interned");
    }
    return i;
  }

  /** Approximate size of the block's Arrow files. */
  public final long byteSize() {
    long n = 0;
    for (Table t : tables) {
      n += t.byteSize();
    }
    return n;
  }

  /** Heap bytes held by this batch's arrays, used or not. */
  public final long capacityBytes() {
    long n = 0;
    for (Table t : tables) {
      n += t.capacityBytes();
    }
    return n;
  }

  /**
   * Heap bytes held by this batch's largest column: growing it copies it into an array twice its
   * size while it is still held, the largest single step by which appending makes the batch grow.
   */
  public final long largestColumnBytes() {
    long n = 0;
    for (Table t : tables) {
      for (Column c : t.columns()) {
        n = Math.max(n, c.capacityBytes());
      }
    }
    return n;
  }

  /** The lengths of every column's arrays (see {@link mira.block.column.Capacities}). */
  public final mira.block.column.Capacities capacities() {
    mira.block.column.Capacities out = new mira.block.column.Capacities();
    for (Table t : tables) {
      t.capacities(out);
    }
    return out;
  }

  /**
   * Grows every column's arrays to the lengths {@code like} recorded from a batch of the same
   * signal, so appending as much as that batch held grows nothing.
   */
  public final void reserve(mira.block.column.Capacities like) {
    mira.block.column.Capacities in = like.cursor();
    for (Table t : tables) {
      t.reserve(in);
    }
  }

  public final int resourceCount() {
    return tables[RESOURCES].rows();
  }

  public final int scopeCount() {
    return tables[SCOPES].rows();
  }

  /**
   * The id of the resource with these identity bytes, or -1 if this batch has none. Decoders
   * call it before writing a resource row so one request's repeated resources share a row.
   */
  protected final int findResource(byte[] identity) {
    if (resourceIndex == null) {
      resourceIndex = new HashMap<>();
    }
    Integer id = resourceIndex.get(new Identity(identity));
    return id == null ? -1 : id;
  }

  /** Records the identity of the resource row just written with id {@code id}. */
  protected final void registerResource(int id, byte[] identity) {
    if (id >= resourceIdentity.length) {
      resourceIdentity = Arrays.copyOf(resourceIdentity, Math.max(id + 1, resourceIdentity.length * 2));
    }
    resourceIdentity[id] = identity;
    if (resourceIndex == null) {
      resourceIndex = new HashMap<>();
    }
    resourceIndex.put(new Identity(identity), id);
  }

  protected final int findScope(byte[] identity) {
    if (scopeIndex == null) {
      scopeIndex = new HashMap<>();
    }
    Integer id = scopeIndex.get(new Identity(identity));
    return id == null ? -1 : id;
  }

  protected final void registerScope(int id, byte[] identity) {
    if (id >= scopeIdentity.length) {
      scopeIdentity = Arrays.copyOf(scopeIdentity, Math.max(id + 1, scopeIdentity.length * 2));
    }
    scopeIdentity[id] = identity;
    if (scopeIndex == null) {
      scopeIndex = new HashMap<>();
    }
    scopeIndex.put(new Identity(identity), id);
  }

  /**
   * Appends every row of {@code other} (a decoded export of the same signal) to this batch.
   *
   * @return false, changing nothing, if {@code other} does not fit: a UInt16 dictionary or the
   *     resource / scope id space would overflow. The caller seals this block and retries on an
   *     empty one, which any decoded export fits by construction.
   */
  public final boolean tryAppend(Batch other) {
    if (other.signal() != signal()) {
      throw new IllegalArgumentException(other.signal() + " batch into " + signal() + " block");
    }
    int[] resourceMap = new int[other.resourceCount()];
    int newResources = plan(other.resourceCount(), other.resourceIdentity, this::lookupResource, resourceCount(), resourceMap);
    int[] scopeMap = new int[other.scopeCount()];
    int newScopes = plan(other.scopeCount(), other.scopeIdentity, this::lookupScope, scopeCount(), scopeMap);
    if (resourceCount() + newResources > MAX_RESOURCES || scopeCount() + newScopes > MAX_RESOURCES) {
      return false;
    }
    for (int t = 0; t < tables.length; t++) {
      if (tables[t].dictionaryOverflow(other.tables[t]) > 0) {
        return false;
      }
    }
    int[] rowsBefore = new int[tables.length];
    int[][] internMaps = new int[tables.length][];
    for (int t = 0; t < tables.length; t++) {
      rowsBefore[t] = tables[t].rows();
      if (interners[t] != null) {
        internMaps[t] = interners[t].plan(other.interners[t]);
      }
    }
    AppendPlan plan = new AppendPlan(rowsBefore, sequences.clone(), resourceMap, scopeMap, internMaps);
    copyNew(other, RESOURCES, RESOURCE_ATTRS, resourceMap, plan, true);
    copyNew(other, SCOPES, SCOPE_ATTRS, scopeMap, plan, false);
    for (int t = ROOT; t < tables.length; t++) {
      if (interners[t] != null) {
        interners[t].appendNew(other.interners[t], plan, internMaps[t]);
      } else {
        Table o = other.tables[t];
        tables[t].appendRange(o, 0, o.rows(), plan);
      }
    }
    for (int s = 0; s < sequences.length; s++) {
      sequences[s] += other.sequences[s];
    }
    if (other.minTime < minTime) {
      minTime = other.minTime;
    }
    if (other.maxTime > maxTime) {
      maxTime = other.maxTime;
    }
    return true;
  }

  private interface Lookup {
    int find(byte[] identity);
  }

  private int lookupResource(byte[] identity) {
    return findResource(identity);
  }

  private int lookupScope(byte[] identity) {
    return findScope(identity);
  }

  /** Fills {@code map} (other id → this id) and returns how many of other's rows are new here. */
  private static int plan(int count, byte[][] identities, Lookup lookup, int base, int[] map) {
    int fresh = 0;
    for (int i = 0; i < count; i++) {
      int existing = lookup.find(identities[i]);
      map[i] = existing >= 0 ? existing : base + fresh++;
    }
    return fresh;
  }

  private void copyNew(Batch other, int table, int attrTable, int[] map, AppendPlan plan, boolean resources) {
    Table rows = tables[table];
    Table attrs = tables[attrTable];
    Table oRows = other.tables[table];
    Table oAttrs = other.tables[attrTable];
    FixedColumn oParent = (FixedColumn) oAttrs.column(0);
    int attrAt = 0;
    for (int i = 0; i < oRows.rows(); i++) {
      int attrEnd = attrAt;
      while (attrEnd < oParent.size() && oParent.getInt(attrEnd) == i) {
        attrEnd++;
      }
      if (map[i] == rows.rows()) {
        rows.appendRange(oRows, i, i + 1, plan);
        attrs.appendRange(oAttrs, attrAt, attrEnd, plan);
        byte[] identity = resources ? other.resourceIdentity[i] : other.scopeIdentity[i];
        if (resources) {
          registerResource(map[i], identity);
        } else {
          registerScope(map[i], identity);
        }
      }
      attrAt = attrEnd;
    }
  }

  /**
   * Empties this batch, keeping its arrays' capacity, so a flusher can reuse its last block's
   * memory for the next one instead of growing new arrays from scratch (growth by copying was the
   * largest cost of the append in the decode+append benchmark).
   */
  public final void clear() {
    for (int t = 0; t < tables.length; t++) {
      tables[t].clear();
      if (interners[t] != null) {
        interners[t] = new Interner(tables[t]);
      }
    }
    java.util.Arrays.fill(sequences, 0);
    java.util.Arrays.fill(resourceIdentity, null);
    java.util.Arrays.fill(scopeIdentity, null);
    if (resourceIndex != null) {
      resourceIndex.clear();
    }
    if (scopeIndex != null) {
      scopeIndex.clear();
    }
    minTime = Long.MAX_VALUE;
    maxTime = Long.MIN_VALUE;
  }

  /** A deep copy of this batch's current contents (a read-your-writes snapshot). */
  public final Batch snapshot() {
    Batch c = newEmpty();
    for (int t = 0; t < tables.length; t++) {
      c.tables[t] = tables[t].copy();
      if (interners[t] != null) {
        c.interners[t] = new Interner(c.tables[t]);
      }
    }
    System.arraycopy(sequences, 0, c.sequences, 0, sequences.length);
    c.resourceIdentity = resourceIdentity.clone();
    c.scopeIdentity = scopeIdentity.clone();
    c.resourceIndex = resourceIndex == null ? null : new HashMap<>(resourceIndex);
    c.scopeIndex = scopeIndex == null ? null : new HashMap<>(scopeIndex);
    c.minTime = minTime;
    c.maxTime = maxTime;
    return c;
  }

  /** Checks every table is rectangular (a decoder bug otherwise). */
  public final void check() {
    for (Table t : tables) {
      t.checkRectangular();
    }
  }

  /** Columns of table {@code t}. */
  protected final Column col(int t, int c) {
    return tables[t].column(c);
  }

  private record Identity(byte[] bytes) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Identity i && Arrays.equals(bytes, i.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }
  }
}
