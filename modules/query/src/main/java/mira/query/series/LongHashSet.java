package mira.query.series;

/**
 * An open-addressing set of 64-bit hashes, for counting distinct dropped series without keeping
 * them: 8 bytes a series instead of the series. Stops growing at {@link #CAP} entries; after that
 * {@link #add} counts every call, so the count becomes an upper bound.
 */
final class LongHashSet {
  static final int CAP = 1 << 20;

  private long[] slots = new long[64];
  private boolean hasZero;
  private int size;
  private long overflow;

  void add(long h) {
    if (h == 0) {
      if (!hasZero) {
        hasZero = true;
        size++;
      }
      return;
    }
    if (size >= CAP) {
      if (!contains(h)) {
        overflow++;
      }
      return;
    }
    if ((size + 1) * 2 > slots.length) {
      grow();
    }
    int mask = slots.length - 1;
    int i = (int) mix(h) & mask;
    while (slots[i] != 0) {
      if (slots[i] == h) {
        return;
      }
      i = (i + 1) & mask;
    }
    slots[i] = h;
    size++;
  }

  private boolean contains(long h) {
    int mask = slots.length - 1;
    int i = (int) mix(h) & mask;
    while (slots[i] != 0) {
      if (slots[i] == h) {
        return true;
      }
      i = (i + 1) & mask;
    }
    return false;
  }

  void addAll(LongHashSet o) {
    if (o.hasZero) {
      add(0);
    }
    for (long h : o.slots) {
      if (h != 0) {
        add(h);
      }
    }
    overflow += o.overflow;
  }

  long count() {
    return size + overflow;
  }

  private void grow() {
    long[] old = slots;
    slots = new long[old.length * 2];
    int mask = slots.length - 1;
    for (long h : old) {
      if (h != 0) {
        int i = (int) mix(h) & mask;
        while (slots[i] != 0) {
          i = (i + 1) & mask;
        }
        slots[i] = h;
      }
    }
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  /** A 64-bit FNV-1a hash of a series key. */
  static long hash(String key) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < key.length(); i++) {
      h = (h ^ key.charAt(i)) * 0x100000001b3L;
    }
    return h;
  }
}
