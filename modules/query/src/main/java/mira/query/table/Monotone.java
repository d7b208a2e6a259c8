package mira.query.table;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.arrow.vector.ValueVector;

/**
 * Whether an integer column never decreases, found by one pass and remembered for as long as its
 * vector lives. A published block's vectors are loaded once and live while the block stays open
 * (across queries, see {@code scan.Readers}), so a table's parent ids are checked once, not once
 * per query; a vector is never reloaded with other values, so what is remembered stays true.
 * Keyed by vector identity (Arrow's vectors do not override {@code equals}); entries go with the
 * vectors. Thread-safe.
 */
final class Monotone {
  private static final Map<ValueVector, Boolean> KNOWN = Collections.synchronizedMap(new WeakHashMap<>());

  private Monotone() {}

  /** True if {@code c.getInt(0..rows)} never decreases. */
  static boolean nonDecreasing(IntReader c, int rows) {
    ValueVector v = c.vector();
    if (v == null) {
      return false;
    }
    Boolean known = KNOWN.get(v);
    if (known != null) {
      return known;
    }
    boolean sorted = true;
    int prev = Integer.MIN_VALUE;
    for (int j = 0; j < rows && sorted; j++) {
      int x = c.getInt(j);
      sorted = x >= prev;
      prev = x;
    }
    KNOWN.put(v, sorted);
    return sorted;
  }
}
