package mira.block.table;

import java.util.Arrays;
import mira.block.column.DictColumn;
import mira.block.column.FixedColumn;
import mira.block.column.ListColumn;

/**
 * A table whose rows are interned: one row per distinct value of its key, so a value that thousands
 * of rows elsewhere repeat (a histogram's explicit bounds) is stored once and referred to by id.
 *
 * <p>Layout: column 0 {@code id} UInt32 with {@link Rebase#INTERNED} on this table, column 1 the
 * key, a {@link ListColumn} of fixed-width values, compared byte for byte (so {@code -0.0} and
 * {@code 0.0} are different keys, and every key reads back exactly as it arrived). Further columns
 * are not allowed: a row is its key. Ids are dense and equal to the row index.
 *
 * <p>Lookups hash the key bytes in place and probe an open-addressing table of row indices; the
 * keys themselves live only in the table's columns, and nothing is allocated per lookup. On append
 * to an open block ({@link Batch#tryAppend}) only keys the block lacks are copied, and every
 * column that refers to this table is translated with {@link #plan}'s map. Not thread-safe.
 */
public final class Interner {

  private final Table table;
  private final FixedColumn id;
  private final ListColumn key;
  private final int width;
  /** Open addressing: slot holds row + 1, 0 = empty. */
  private int[] slots;
  private int[] hashes;

  /** Interns into {@code table}, indexing the rows it already holds. */
  Interner(Table table) {
    if (table.columns().length != 2 || !(table.column(0) instanceof FixedColumn f)
        || !(table.column(1) instanceof ListColumn l)) {
      throw new IllegalArgumentException(table.file() + " is not an interned table (id, key list)");
    }
    this.table = table;
    this.id = f;
    this.key = l;
    this.width = l.child().width();
    int rows = table.rows();
    hashes = new int[Math.max(8, rows)];
    byte[] keys = l.child().array();
    for (int row = 0; row < rows; row++) {
      hashes[row] = hash(keys, l.start(row) * width, (l.end(row) - l.start(row)) * width);
    }
    rehash(Math.max(16, Integer.highestOneBit(Math.max(1, rows)) * 4));
  }

  public Table table() {
    return table;
  }

  /** Distinct keys held. */
  public int size() {
    return table.rows();
  }

  /**
   * The id of the key {@code b[off, off + len)}, appending a row if it is new.
   *
   * @param len bytes, a multiple of the key column's value width
   */
  public int intern(byte[] b, int off, int len) {
    if (len % width != 0) {
      throw new IllegalArgumentException(len + " bytes is not a whole number of " + width + "-byte values");
    }
    int h = hash(b, off, len);
    int mask = slots.length - 1;
    int s = h & mask;
    for (; ; s = (s + 1) & mask) {
      int row = slots[s] - 1;
      if (row < 0) {
        break;
      }
      if (hashes[row] == h && sameKey(row, b, off, len)) {
        return row;
      }
    }
    int row = table.rows();
    FixedColumn values = key.child();
    for (int at = off; at < off + len; at += width) {
      values.appendBytes(b, at);
    }
    key.endList();
    id.appendInt(row);
    insert(row, h, s);
    return row;
  }

  /**
   * Maps each of {@code other}'s ids to this table's: an existing row's id where the key is already
   * here, otherwise the next free id in {@code other}'s row order — which is the id
   * {@link #appendNew} gives that row.
   */
  int[] plan(Interner other) {
    int[] map = new int[other.size()];
    int fresh = table.rows();
    byte[] keys = other.key.child().array();
    for (int i = 0; i < map.length; i++) {
      int off = other.key.start(i) * width;
      int len = (other.key.end(i) - other.key.start(i)) * width;
      int row = find(keys, off, len, other.hashes[i]);
      map[i] = row >= 0 ? row : fresh++;
    }
    return map;
  }

  /** Appends the rows of {@code other} that {@code plan} marked new (their id is this table's next row). */
  void appendNew(Interner other, AppendPlan plan, int[] map) {
    for (int i = 0; i < map.length; i++) {
      int row = table.rows();
      if (map[i] != row) {
        continue;
      }
      table.appendRange(other.table, i, i + 1, plan);
      int h = other.hashes[i];
      int mask = slots.length - 1;
      int s = h & mask;
      while (slots[s] != 0) {
        s = (s + 1) & mask;
      }
      insert(row, h, s);
    }
  }

  private boolean sameKey(int row, byte[] b, int off, int len) {
    int from = key.start(row) * width;
    int to = key.end(row) * width;
    return to - from == len && Arrays.equals(key.child().array(), from, to, b, off, off + len);
  }

  private int find(byte[] b, int off, int len, int h) {
    int mask = slots.length - 1;
    for (int s = h & mask; ; s = (s + 1) & mask) {
      int row = slots[s] - 1;
      if (row < 0) {
        return -1;
      }
      if (hashes[row] == h && sameKey(row, b, off, len)) {
        return row;
      }
    }
  }

  /** Records {@code row} with hash {@code h} in the empty slot {@code s}. */
  private void insert(int row, int h, int s) {
    if (row >= hashes.length) {
      hashes = Arrays.copyOf(hashes, Math.max(row + 1, hashes.length * 2));
    }
    hashes[row] = h;
    slots[s] = row + 1;
    if ((row + 1) * 2 > slots.length) {
      rehash(slots.length * 2);
    }
  }

  private void rehash(int capacity) {
    int rows = table.rows();
    slots = new int[capacity];
    int mask = capacity - 1;
    for (int row = 0; row < rows; row++) {
      int s = hashes[row] & mask;
      while (slots[s] != 0) {
        s = (s + 1) & mask;
      }
      slots[s] = row + 1;
    }
  }

  private static int hash(byte[] b, int off, int len) {
    return DictColumn.hash(b, off, len);
  }
}
