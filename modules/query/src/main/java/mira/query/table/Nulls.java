package mira.query.table;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.ValueVector;

/** A column's validity bits; a column without nulls (or without the column) reads as all valid. */
final class Nulls {
  private final ArrowBuf validity;

  Nulls(ValueVector v) {
    ArrowBuf b = null;
    if (v != null && v.getNullCount() > 0) {
      b = v.getValidityBuffer();
    }
    this.validity = b;
  }

  boolean isNull(int i) {
    return validity != null && ((validity.getByte(i >>> 3) >>> (i & 7)) & 1) == 0;
  }
}
