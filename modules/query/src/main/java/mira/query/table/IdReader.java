package mira.query.table;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/** A FixedSizeBinary column of trace or span ids. Absent reads as all null. */
public final class IdReader {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private final ArrowBuf data;
  private final int width;
  private final Nulls nulls;
  private final boolean present;

  private IdReader(FieldVector v, int width) {
    this.present = v != null;
    this.data = v == null ? null : v.getDataBuffer();
    this.width = width;
    this.nulls = new Nulls(v);
  }

  public static IdReader of(FieldVector v, int width) {
    return new IdReader(v, width);
  }

  public boolean isNull(int i) {
    return !present || nulls.isNull(i);
  }

  public int width() {
    return width;
  }

  /** True if row {@code i} holds exactly {@code id} (which has {@link #width} bytes). */
  public boolean equalsAt(int i, byte[] id) {
    long at = (long) i * width;
    for (int k = 0; k < width; k++) {
      if (data.getByte(at + k) != id[k]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The {@code k}-th eight bytes of row {@code i} as one long, in the buffer's (little-endian)
   * order: a key for hashing and joining, not a number; meaningless if {@link #isNull}.
   */
  public long word(int i, int k) {
    return data.getLong((long) i * width + 8L * k);
  }

  public byte[] bytes(int i) {
    byte[] b = new byte[width];
    data.getBytes((long) i * width, b, 0, width);
    return b;
  }

  /** Lowercase hex of row {@code i}, or "" where null. */
  public String hex(int i) {
    if (isNull(i)) {
      return "";
    }
    char[] out = new char[width * 2];
    long at = (long) i * width;
    for (int k = 0; k < width; k++) {
      int b = data.getByte(at + k);
      out[2 * k] = HEX[(b >> 4) & 0xF];
      out[2 * k + 1] = HEX[b & 0xF];
    }
    return new String(out);
  }
}
