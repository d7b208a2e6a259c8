package mira.block.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The hash functions of the sidecar files. Part of the on-disk format: a reader probes with the
 * same functions the writer inserted with, so changing one needs a new file version.
 */
final class Hashing {
  private static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle BE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private Hashing() {}

  /**
   * SplitMix64's output function: the golden-ratio increment, then its finalizer. A bijection on
   * 64 bits whose every output bit depends on every input bit.
   */
  static long splitmix64(long x) {
    long z = x + GOLDEN;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Bytes 0..7 of a 16-byte trace id at {@code b[off..]}, read big-endian (as the hex is written). */
  static long high(byte[] b, int off) {
    return (long) BE64.get(b, off);
  }

  /** Bytes 8..15 of a 16-byte trace id at {@code b[off..]}, read big-endian. */
  static long low(byte[] b, int off) {
    return (long) BE64.get(b, off + 8);
  }

  /**
   * A 64-bit hash of {@code b[off, off + len)} under {@code seed}: the length is mixed in first,
   * then each little-endian 8-byte word (the last one zero-padded) through {@link #splitmix64}.
   */
  static long bytes(byte[] b, int off, int len, long seed) {
    long h = splitmix64(seed ^ len);
    int i = off;
    int end = off + len;
    for (; i + 8 <= end; i += 8) {
      h = splitmix64(h ^ (long) LE64.get(b, i));
    }
    if (i < end) {
      long w = 0;
      for (int s = 0; i < end; i++, s += 8) {
        w |= (b[i] & 0xFFL) << s;
      }
      h = splitmix64(h ^ w);
    }
    return h;
  }
}
