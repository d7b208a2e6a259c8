package mira.block.column;

import java.util.Arrays;

/** A growable bitmap (Arrow validity / boolean layout: bit i of byte i/8, LSB first). */
final class Bits {
  private byte[] bits = new byte[16];

  void set(int i, boolean v) {
    int byteIndex = i >>> 3;
    if (byteIndex >= bits.length) {
      bits = Arrays.copyOf(bits, Math.max(bits.length * 2, byteIndex + 1));
    }
    if (v) {
      bits[byteIndex] |= (byte) (1 << (i & 7));
    } else {
      bits[byteIndex] &= (byte) ~(1 << (i & 7));
    }
  }

  boolean get(int i) {
    return (bits[i >>> 3] & (1 << (i & 7))) != 0;
  }

  /** Appends {@code n} bits of {@code src} starting at bit 0 after position {@code at}. */
  void copyFrom(Bits src, int at, int n) {
    if ((at & 7) == 0) {
      int bytes = (n + 7) >>> 3;
      int need = (at >>> 3) + bytes;
      if (need > bits.length) {
        bits = Arrays.copyOf(bits, Math.max(bits.length * 2, need));
      }
      System.arraycopy(src.bits, 0, bits, at >>> 3, bytes);
      // Bits past n in the last byte came from src; they are beyond size and get overwritten.
      return;
    }
    for (int i = 0; i < n; i++) {
      set(at + i, src.get(i));
    }
  }

  byte[] array() {
    return bits;
  }

  Bits copy(int n) {
    Bits b = new Bits();
    b.bits = Arrays.copyOf(bits, Math.max(16, (n + 7) >>> 3));
    return b;
  }
}
