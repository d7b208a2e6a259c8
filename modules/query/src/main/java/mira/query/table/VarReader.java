package mira.query.table;

import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.ValueVector;

/** A Utf8 or Binary column (int32 offsets) read from its Arrow buffers. Absent reads as all null. */
public final class VarReader {
  private final ArrowBuf offsets;
  private final ArrowBuf data;
  private final Nulls nulls;
  private final boolean present;

  private VarReader(ValueVector v) {
    this.present = v != null;
    this.offsets = v == null ? null : v.getOffsetBuffer();
    this.data = v == null ? null : v.getDataBuffer();
    this.nulls = new Nulls(v);
  }

  public static VarReader of(ValueVector v) {
    return new VarReader(v);
  }

  public boolean present() {
    return present;
  }

  public boolean isNull(int i) {
    return !present || nulls.isNull(i);
  }

  public int start(int i) {
    return offsets.getInt((long) i * 4);
  }

  public int length(int i) {
    return offsets.getInt((long) (i + 1) * 4) - offsets.getInt((long) i * 4);
  }

  /** True if row {@code i}'s bytes are exactly {@code b}, compared in place (no copy). */
  public boolean equalsAt(int i, byte[] b) {
    int start = start(i);
    if (offsets.getInt((long) (i + 1) * 4) - start != b.length) {
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
    int len = offsets.getInt((long) (i + 1) * 4) - start;
    byte[] b = s.ensure(len);
    data.getBytes(start, b, 0, len);
    return len;
  }

  public byte[] bytes(int i) {
    int start = start(i);
    int len = offsets.getInt((long) (i + 1) * 4) - start;
    byte[] b = new byte[len];
    data.getBytes(start, b, 0, len);
    return b;
  }

  /** Row {@code i} as a String (UTF-8), or null where null. */
  public String string(int i) {
    return isNull(i) ? null : new String(bytes(i), StandardCharsets.UTF_8);
  }
}
