package mira.block.index;

/**
 * A set of longs by open addressing, for de-duplicating hashes at seal time without boxing. The
 * members are hashes already, so their low bits pick the slot directly.
 */
final class LongSet {
  private long[] slots;
  private boolean hasZero;
  private int size;

  /** A set expecting up to {@code expected} members before it grows. */
  LongSet(int expected) {
    int cap = Integer.highestOneBit(Math.max(512, Math.min(expected, 1 << 29)) * 2 - 1) * 2;
    slots = new long[cap];
  }

  /** Adds {@code v}; returns false if it was already present. */
  boolean add(long v) {
    if (v == 0) {
      if (hasZero) {
        return false;
      }
      hasZero = true;
      size++;
      return true;
    }
    int mask = slots.length - 1;
    for (int s = (int) v & mask; ; s = (s + 1) & mask) {
      long e = slots[s];
      if (e == 0) {
        slots[s] = v;
        if (++size * 2 > slots.length) {
          grow();
        }
        return true;
      }
      if (e == v) {
        return false;
      }
    }
  }

  int size() {
    return size;
  }

  /** Calls {@code f} with every member. */
  void forEach(java.util.function.LongConsumer f) {
    if (hasZero) {
      f.accept(0);
    }
    for (long e : slots) {
      if (e != 0) {
        f.accept(e);
      }
    }
  }

  private void grow() {
    long[] old = slots;
    slots = new long[old.length * 2];
    int mask = slots.length - 1;
    for (long e : old) {
      if (e != 0) {
        int s = (int) e & mask;
        while (slots[s] != 0) {
          s = (s + 1) & mask;
        }
        slots[s] = e;
      }
    }
  }
}
