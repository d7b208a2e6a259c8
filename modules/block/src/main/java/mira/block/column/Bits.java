package mira.block.column;

import java.util.Arrays;

/**
 * A growable sequence of booleans (validity, or a Boolean column's values), one byte per value
 * while building and packed into Arrow's bitmap layout (bit i of byte i/8, LSB first) only when
 * exported. A byte store is a plain write where a bit would be a read-modify-write; the decode
 * benchmark showed bit setting among its hottest methods.
 */
final class Bits {
  private byte[] values = new byte[64];

  void set(int i, boolean v) {
    if (i >= values.length) {
      values = Arrays.copyOf(values, Math.max(values.length * 2, i + 1));
    }
    values[i] = (byte) (v ? 1 : 0);
  }

  boolean get(int i) {
    return values[i] != 0;
  }

  /** How many of the values in {@code [from, to)} are false. */
  int countFalse(int from, int to) {
    int n = 0;
    for (int i = from; i < to; i++) {
      n += values[i] ^ 1;
    }
    return n;
  }

  /** Copies values {@code [from, from + n)} of {@code src} to position {@code at}. */
  void copyFrom(Bits src, int from, int at, int n) {
    if (at + n > values.length) {
      values = Arrays.copyOf(values, Math.max(values.length * 2, at + n));
    }
    System.arraycopy(src.values, from, values, at, n);
  }

  /** Sets {@code [at, at + n)} to true. */
  void fillTrue(int at, int n) {
    if (at + n > values.length) {
      values = Arrays.copyOf(values, Math.max(values.length * 2, at + n));
    }
    Arrays.fill(values, at, at + n, (byte) 1);
  }

  /** The first {@code n} values packed as an Arrow bitmap of {@code (n + 7) / 8} bytes. */
  byte[] packed(int n) {
    byte[] out = new byte[(n + 7) >>> 3];
    for (int i = 0; i < n; i++) {
      out[i >>> 3] |= (byte) (values[i] << (i & 7));
    }
    return out;
  }

  /** A bitmap of {@code (n + 7) / 8} bytes with bits {@code [0, n)} set and the rest clear. */
  static byte[] ones(int n) {
    byte[] out = new byte[(n + 7) >>> 3];
    java.util.Arrays.fill(out, 0, n >>> 3, (byte) 0xFF);
    if ((n & 7) != 0) {
      out[n >>> 3] = (byte) (0xFF >>> (8 - (n & 7)));
    }
    return out;
  }

  /** Grows the store to at least {@code n} values. */
  void reserve(int n) {
    if (n > values.length) {
      values = Arrays.copyOf(values, n);
    }
  }

  /** Heap bytes held. */
  int capacity() {
    return values.length;
  }

  Bits copy(int n) {
    Bits b = new Bits();
    b.values = Arrays.copyOf(values, Math.max(64, n));
    return b;
  }
}
