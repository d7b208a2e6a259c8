package mira.block.column;

import java.util.Arrays;

/**
 * A text column's values stored once per block: the distinct values in first-seen order and, per
 * row, the index of its value (an Arrow {@code Dictionary<Int32, Utf8>} column). Built when a table
 * is written, from the finished heap column, and only where it pays: attribute values repeat (a
 * traces block of the load generator holds about one distinct string per ten rows), while most log
 * bodies do not.
 */
public final class TextDictionary {
  /**
   * A table keeps its column plain unless the dictionary saves at least this share of the plain
   * column's data bytes: an index costs what an offset did, so the gain is the repeated bytes minus
   * the dictionary's own offsets, and a small gain is not worth the indirection on every read.
   */
  static final int MIN_SAVING_PERCENT = 10;

  private final FixedColumn indices;
  private final VarColumn values;

  private TextDictionary(FixedColumn indices, VarColumn values) {
    this.indices = indices;
    this.values = values;
  }

  /** Per-row dictionary indices (Int32, null where the row is null). */
  public FixedColumn indices() {
    return indices;
  }

  /** The distinct values, in the order first seen. */
  public VarColumn values() {
    return values;
  }

  /**
   * The dictionary of the first {@code rows} rows of {@code c}, or null where it would not save
   * {@value #MIN_SAVING_PERCENT} % of the column's data bytes (or the column is empty).
   */
  public static TextDictionary of(VarColumn c, int rows) {
    if (rows == 0) {
      return null;
    }
    byte[] data = c.array();
    int[] slots = new int[Integer.highestOneBit(Math.max(16, rows)) << 1];
    int mask = slots.length - 1;
    int[] rowOf = new int[64];
    int[] hashes = new int[64];
    int[] index = new int[rows];
    int distinct = 0;
    long distinctBytes = 0;
    for (int i = 0; i < rows; i++) {
      if (!c.isSet(i)) {
        continue;
      }
      int start = c.start(i);
      int len = c.end(i) - start;
      int h = DictColumn.hash(data, start, len);
      int s = h & mask;
      int e;
      while ((e = slots[s] - 1) >= 0) {
        int r = rowOf[e];
        if (hashes[e] == h && c.end(r) - c.start(r) == len
            && Arrays.equals(data, c.start(r), c.end(r), data, start, start + len)) {
          break;
        }
        s = (s + 1) & mask;
      }
      if (e < 0) {
        e = distinct++;
        if (e == rowOf.length) {
          rowOf = Arrays.copyOf(rowOf, e * 2);
          hashes = Arrays.copyOf(hashes, e * 2);
        }
        rowOf[e] = i;
        hashes[e] = h;
        slots[s] = e + 1;
        distinctBytes += len;
      }
      index[i] = e;
    }
    long plain = c.end(rows - 1) - c.start(0);
    long saved = plain - distinctBytes - 4L * (distinct + 1);
    if (saved * 100 < plain * MIN_SAVING_PERCENT) {
      return null;
    }
    VarColumn values = VarColumn.utf8(c.name() + ".dict", false);
    for (int e = 0; e < distinct; e++) {
      int r = rowOf[e];
      values.append(data, c.start(r), c.end(r) - c.start(r));
    }
    FixedColumn indices = FixedColumn.i32(c.name(), c.nullable());
    for (int i = 0; i < rows; i++) {
      if (c.isSet(i)) {
        indices.appendInt(index[i]);
      } else {
        indices.appendNull();
      }
    }
    return new TextDictionary(indices, values);
  }
}
