package mira.query.table;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * An integer or timestamp column read straight from its Arrow data buffer: 1, 2, 4 or 8 bytes,
 * signed or unsigned (unsigned values are widened without sign). An absent column reads as all
 * null.
 */
public final class IntReader {
  private final ArrowBuf data;
  private final int width;
  private final boolean signed;
  private final Nulls nulls;
  private final boolean present;
  private final FieldVector vector;

  private IntReader(FieldVector v) {
    this.present = v != null;
    this.vector = v;
    this.data = v == null ? null : v.getDataBuffer();
    int w = 8;
    boolean s = true;
    if (v != null && v.getField().getType() instanceof ArrowType.Int t) {
      w = t.getBitWidth() / 8;
      s = t.getIsSigned();
    }
    this.width = w;
    this.signed = s;
    this.nulls = new Nulls(v);
  }

  public static IntReader of(FieldVector v) {
    return new IntReader(v);
  }

  public boolean present() {
    return present;
  }

  /** The vector read, or null if the column is absent. */
  public FieldVector vector() {
    return vector;
  }

  public boolean isNull(int i) {
    return !present || nulls.isNull(i);
  }

  /** The value at row {@code i}; meaningless if {@link #isNull}. */
  public long get(int i) {
    long at = (long) i * width;
    return switch (width) {
      case 8 -> data.getLong(at);
      case 4 -> signed ? data.getInt(at) : data.getInt(at) & 0xFFFF_FFFFL;
      case 2 -> signed ? data.getShort(at) : data.getShort(at) & 0xFFFF;
      default -> signed ? data.getByte(at) : data.getByte(at) & 0xFF;
    };
  }

  /** The value, or {@code dflt} where null. */
  public long getOr(int i, long dflt) {
    return isNull(i) ? dflt : get(i);
  }

  /** As an int (ids, foreign keys). */
  public int getInt(int i) {
    return (int) get(i);
  }
}
