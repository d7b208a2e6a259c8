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
   *
   * @param groups per row, the group its value belongs with (an attribute table's key), or null: the
   *     values are stored grouped by the group of the row each was first seen in, so a compressor
   *     sees URLs beside URLs and request ids beside request ids (the cold tier's zstd); null keeps
   *     the order first seen
   */
  public static TextDictionary of(VarColumn c, int rows, DictColumn groups) {
    if (rows == 0) {
      return null;
    }
    byte[] data = c.array();
    // Sized for the distinct values, not the rows, and grown as they come: a table sized for a
    // million rows would miss the cache on every probe (TableWriteBench, docs/performance.md).
    int[] slots = new int[1024];
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
        if (distinct * 2 > slots.length) {
          slots = rehash(hashes, distinct, slots.length * 2);
          mask = slots.length - 1;
        }
      }
      index[i] = e;
    }
    long plain = c.end(rows - 1) - c.start(0);
    long saved = plain - distinctBytes - 4L * (distinct + 1);
    if (saved * 100 < plain * MIN_SAVING_PERCENT) {
      return null;
    }
    int[] order = order(rowOf, distinct, groups);
    int[] renumber = new int[distinct];
    VarColumn values = VarColumn.utf8(c.name() + ".dict", false);
    for (int k = 0; k < distinct; k++) {
      int r = rowOf[order[k]];
      renumber[order[k]] = k;
      values.append(data, c.start(r), c.end(r) - c.start(r));
    }
    FixedColumn indices = FixedColumn.i32(c.name(), c.nullable());
    for (int i = 0; i < rows; i++) {
      if (c.isSet(i)) {
        indices.appendInt(renumber[index[i]]);
      } else {
        indices.appendNull();
      }
    }
    return new TextDictionary(indices, values);
  }

  private static int[] rehash(int[] hashes, int distinct, int capacity) {
    int[] slots = new int[capacity];
    int mask = capacity - 1;
    for (int e = 0; e < distinct; e++) {
      int s = hashes[e] & mask;
      while (slots[s] != 0) {
        s = (s + 1) & mask;
      }
      slots[s] = e + 1;
    }
    return slots;
  }

  /**
   * The entries in the order they are stored: by the group of their first row (a counting sort,
   * stable, so first seen within a group), or as first seen without groups.
   */
  private static int[] order(int[] rowOf, int distinct, DictColumn groups) {
    int[] order = new int[distinct];
    if (groups == null || groups.entries() == 0) {
      for (int e = 0; e < distinct; e++) {
        order[e] = e;
      }
      return order;
    }
    int[] start = new int[groups.entries() + 2];
    for (int e = 0; e < distinct; e++) {
      start[group(groups, rowOf[e]) + 2]++;
    }
    for (int g = 2; g < start.length; g++) {
      start[g] += start[g - 1];
    }
    for (int e = 0; e < distinct; e++) {
      order[start[group(groups, rowOf[e]) + 1]++] = e;
    }
    return order;
  }

  /** Row {@code r}'s group: its key's dictionary index, or the last group for a null key. */
  private static int group(DictColumn groups, int r) {
    return groups.isNull(r) ? groups.entries() - 1 : groups.index(r);
  }
}
