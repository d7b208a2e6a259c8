package mira.block.index;

import java.nio.ByteBuffer;

/**
 * A Bloom filter of {@code bits} bits (a multiple of 64) probed at {@link #HASHES} positions
 * derived from two 64-bit hashes by Kirsch–Mitzenmacher double hashing: position i is
 * {@code h1 + i * h2} (mod 2^64) scaled onto {@code [0, bits)} by a multiply-high, which needs no
 * division and no power-of-two size. Sized at {@link #BITS_PER_KEY} bits per key: about 0.8 %
 * false positives when the hashes are uniform.
 */
final class Bloom {
  static final int HASHES = 7;
  static final int BITS_PER_KEY = 10;

  private final long[] words;
  private final long bits;
  private final int hashes;

  private Bloom(long[] words, int hashes) {
    this.words = words;
    this.bits = (long) words.length * 64;
    this.hashes = hashes;
  }

  /** An empty filter sized for {@code keys} keys (at least one word), probed at {@link #HASHES} positions. */
  static Bloom forKeys(long keys) {
    long bits = Math.max(64, keys * BITS_PER_KEY);
    long words = (bits + 63) / 64;
    if (words > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(keys + " keys");
    }
    return new Bloom(new long[(int) words], HASHES);
  }

  /** A filter over {@code words} read from a file (not copied), probed at {@code hashes} positions. */
  static Bloom of(long[] words, int hashes) {
    return new Bloom(words, hashes);
  }

  long bits() {
    return bits;
  }

  int hashes() {
    return hashes;
  }

  /** Bytes of the serialized filter: {@link #writeTo} followed by {@link #readFrom}. */
  long serializedSize() {
    return 16 + 8L * words.length;
  }

  /** Writes u32 hashes, u32 zero, u64 bits, then the words. */
  void writeTo(ByteBuffer out) {
    out.putInt(hashes).putInt(0).putLong(bits);
    for (long w : words) {
      out.putLong(w);
    }
  }

  /** Reads what {@link #writeTo} wrote, checking the sizes agree. */
  static Bloom readFrom(ByteBuffer in) throws SidecarFile.Damaged {
    if (in.remaining() < 16) {
      throw new SidecarFile.Damaged("filter header truncated");
    }
    int hashes = in.getInt();
    in.getInt();
    long bits = in.getLong();
    if (hashes < 1 || hashes > 64 || bits < 64 || bits % 64 != 0 || bits / 8 != in.remaining()) {
      throw new SidecarFile.Damaged("filter of " + bits + " bits and " + hashes + " hashes in " + in.remaining() + " bytes");
    }
    long[] words = new long[(int) (bits / 64)];
    in.asLongBuffer().get(words);
    in.position(in.limit());
    return new Bloom(words, hashes);
  }

  int words() {
    return words.length;
  }

  void add(long h1, long h2) {
    long g = h1;
    for (int i = 0; i < hashes; i++) {
      long at = Math.unsignedMultiplyHigh(g, bits);
      words[(int) (at >>> 6)] |= 1L << at;
      g += h2;
    }
  }

  boolean mightContain(long h1, long h2) {
    long g = h1;
    for (int i = 0; i < hashes; i++) {
      long at = Math.unsignedMultiplyHigh(g, bits);
      if ((words[(int) (at >>> 6)] & (1L << at)) == 0) {
        return false;
      }
      g += h2;
    }
    return true;
  }

  /** Fraction of bits set (for tests and stats). */
  double fill() {
    long n = 0;
    for (long w : words) {
      n += Long.bitCount(w);
    }
    return (double) n / bits;
  }
}
