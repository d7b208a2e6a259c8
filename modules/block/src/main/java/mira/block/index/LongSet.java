package mira.block.index;

/** A set of longs by open addressing, for de-duplicating hashes at seal time without boxing. */
final class LongSet {
  private long[] slots = new long[1024];
  private boolean hasZero;
  private int size;

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
    for (int s = (int) Hashing.splitmix64(v) & mask; ; s = (s + 1) & mask) {
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
        int s = (int) Hashing.splitmix64(e) & mask;
        while (slots[s] != 0) {
          s = (s + 1) & mask;
        }
        slots[s] = e;
      }
    }
  }
}
