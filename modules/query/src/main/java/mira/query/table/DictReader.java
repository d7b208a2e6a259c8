package mira.query.table;

import mira.block.read.TableView;

/** A Dictionary(UInt16, Utf8) column: per-row indices and the dictionary's values. */
public final class DictReader {
  private final IntReader indices;
  private final VarReader values;
  private final int size;

  private DictReader(TableView t, String name) {
    this.indices = IntReader.of(t == null ? null : t.column(name));
    var d = t == null ? null : t.dictionary(name);
    this.values = VarReader.of(d);
    this.size = d == null ? 0 : d.getValueCount();
  }

  public static DictReader of(TableView t, String name) {
    return new DictReader(t, name);
  }

  public boolean isNull(int i) {
    return indices.isNull(i);
  }

  /** The dictionary index of row {@code i}. */
  public int index(int i) {
    return indices.getInt(i);
  }

  /** Entries in the dictionary. */
  public int size() {
    return size;
  }

  /** The dictionary's values. */
  public VarReader values() {
    return values;
  }

  /** Which dictionary entries equal {@code key} (UTF-8); null if none does. */
  public boolean[] entriesEqualTo(byte[] key, Scratch s) {
    boolean[] out = null;
    for (int d = 0; d < size; d++) {
      if (values.isNull(d) || values.length(d) != key.length) {
        continue;
      }
      int len = values.copy(d, s);
      if (mira.query.match.Bytes.equals(s.buf(), 0, len, key)) {
        if (out == null) {
          out = new boolean[size];
        }
        out[d] = true;
      }
    }
    return out;
  }

  /** Row {@code i}'s value, or null. */
  public String string(int i) {
    return isNull(i) ? null : values.string(index(i));
  }
}
