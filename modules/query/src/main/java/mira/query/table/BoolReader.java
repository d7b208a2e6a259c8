package mira.query.table;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/** A Boolean (bit-packed) column. Absent reads as all null. */
public final class BoolReader {
  private final ArrowBuf data;
  private final Nulls nulls;
  private final boolean present;

  private BoolReader(FieldVector v) {
    this.present = v != null;
    this.data = v == null ? null : v.getDataBuffer();
    this.nulls = new Nulls(v);
  }

  public static BoolReader of(FieldVector v) {
    return new BoolReader(v);
  }

  public boolean isNull(int i) {
    return !present || nulls.isNull(i);
  }

  public boolean get(int i) {
    return ((data.getByte(i >>> 3) >>> (i & 7)) & 1) != 0;
  }
}
