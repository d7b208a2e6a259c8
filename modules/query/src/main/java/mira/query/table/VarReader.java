package mira.query.table;

import java.nio.charset.StandardCharsets;
import mira.block.read.TableView;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.ValueVector;

/**
 * A Utf8 or Binary column (int32 offsets) read from its Arrow buffers, in place. Absent reads as all
 * null. A column a block stored as a dictionary of its distinct values ({@link #of(TableView,
 * String)}) reads the same: row {@code i} is the dictionary's value at the row's Int32 index.
 */
public final class VarReader {
  private final ArrowBuf offsets;
  private final ArrowBuf data;
  private final Nulls nulls;
  private final boolean present;
  /** Per-row Int32 indices into the values for a dictionary-encoded column; null for a plain one. */
  private final ArrowBuf indices;

  private VarReader(ValueVector v, ValueVector values) {
    this.present = v != null;
    this.indices = values == null ? null : v.getDataBuffer();
    ValueVector text = values == null ? v : values;
    this.offsets = text == null ? null : text.getOffsetBuffer();
    this.data = text == null ? null : text.getDataBuffer();
    this.nulls = new Nulls(v);
  }

  /** A plain (not dictionary-encoded) column, or null for an absent one. */
  public static VarReader of(ValueVector v) {
    return new VarReader(v, null);
  }

  /** Column {@code name} of {@code t} (null: none), plain or dictionary-encoded. */
  public static VarReader of(TableView t, String name) {
    if (t == null) {
      return new VarReader(null, null);
    }
    return new VarReader(t.column(name), t.dictionary(name));
  }

  /** Where row {@code i}'s value is in the offsets: the row itself, or its dictionary index. */
  private int slot(int i) {
    return indices == null ? i : indices.getInt((long) i * 4);
  }

  public boolean present() {
    return present;
  }

  public boolean isNull(int i) {
    return !present || nulls.isNull(i);
  }

  public int start(int i) {
    return offsets.getInt((long) slot(i) * 4);
  }

  public int length(int i) {
    int k = slot(i);
    return offsets.getInt((long) (k + 1) * 4) - offsets.getInt((long) k * 4);
  }

  /** True if row {@code i}'s bytes are exactly {@code b}, compared in place (no copy). */
  public boolean equalsAt(int i, byte[] b) {
    int at = slot(i);
    int start = offsets.getInt((long) at * 4);
    if (offsets.getInt((long) (at + 1) * 4) - start != b.length) {
      return false;
    }
    for (int k = 0; k < b.length; k++) {
      if (data.getByte(start + k) != b[k]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Copies row {@code i}'s bytes into {@code s} (grown if needed) and returns their length.
   */
  public int copy(int i, Scratch s) {
    int start = start(i);
    int len = length(i);
    byte[] b = s.ensure(len);
    data.getBytes(start, b, 0, len);
    return len;
  }

  public byte[] bytes(int i) {
    int start = start(i);
    int len = length(i);
    byte[] b = new byte[len];
    data.getBytes(start, b, 0, len);
    return b;
  }

  /** Row {@code i} as a String (UTF-8), or null where null. */
  public String string(int i) {
    return isNull(i) ? null : new String(bytes(i), StandardCharsets.UTF_8);
  }
}
