package mira.block.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A reversible rearrangement of a buffer's bytes that makes it compress better, applied before
 * zstd and undone after it. A buffer does not say what it holds, so every shape is lossless for
 * any bytes: words are taken little-endian, {@code width} bytes at a time, and the bytes after the
 * last whole word are kept as they are.
 *
 * <ul>
 *   <li>delta: each word becomes its difference from the previous one (wrapping), which turns
 *       Arrow offsets, dense ids and parent ids — columns that only ever grow — into runs of small
 *       numbers;
 *   <li>split: byte {@code j} of every word is stored together, then byte {@code j + 1}, and so
 *       on, so the high bytes that barely change across timestamps and small integers sit in long
 *       runs instead of between the low bytes that do change.
 * </ul>
 */
enum Shape {
  PLAIN(0, 0, false, false),
  DELTA4(1, 4, true, false),
  DELTA8(2, 8, true, false),
  SPLIT4(3, 4, false, true),
  SPLIT8(4, 8, false, true),
  DELTA4_SPLIT(5, 4, true, true),
  DELTA8_SPLIT(6, 8, true, true);

  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final Shape[] BY_ID = values();

  /** The id stored with a buffer: never changes once written. */
  final int id;
  private final int width;
  private final boolean delta;
  private final boolean split;

  Shape(int id, int width, boolean delta, boolean split) {
    this.id = id;
    this.width = width;
    this.delta = delta;
    this.split = split;
  }

  /** The shape with this stored id, or null for an id this version does not know. */
  static Shape byId(int id) {
    return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
  }

  /** Writes the shaped form of {@code src[0, n)} to {@code dst[0, n)}. */
  void apply(byte[] src, byte[] dst, int n) {
    if (this == PLAIN) {
      System.arraycopy(src, 0, dst, 0, n);
    } else if (!split) {
      differences(src, dst, n);
    } else if (!delta) {
      splitBytes(src, dst, n);
    } else {
      byte[] scratch = new byte[n];
      differences(src, scratch, n);
      splitBytes(scratch, dst, n);
    }
  }

  /** Undoes {@link #apply}: {@code src} holds the shaped bytes, {@code dst} receives the original. */
  void undo(byte[] src, byte[] dst, int n) {
    if (this == PLAIN) {
      System.arraycopy(src, 0, dst, 0, n);
    } else if (!split) {
      sums(src, dst, n);
    } else {
      joinBytes(src, dst, n);
      if (delta) {
        sums(dst, dst, n);
      }
    }
  }

  private void differences(byte[] src, byte[] dst, int n) {
    int words = n / width;
    if (width == 8) {
      long prev = 0;
      for (int i = 0; i < words; i++) {
        long v = (long) LONG.get(src, i * 8);
        LONG.set(dst, i * 8, v - prev);
        prev = v;
      }
    } else {
      int prev = 0;
      for (int i = 0; i < words; i++) {
        int v = (int) INT.get(src, i * 4);
        INT.set(dst, i * 4, v - prev);
        prev = v;
      }
    }
    System.arraycopy(src, words * width, dst, words * width, n - words * width);
  }

  /** Prefix sums; {@code src} and {@code dst} may be the same array. */
  private void sums(byte[] src, byte[] dst, int n) {
    int words = n / width;
    if (width == 8) {
      long acc = 0;
      for (int i = 0; i < words; i++) {
        acc += (long) LONG.get(src, i * 8);
        LONG.set(dst, i * 8, acc);
      }
    } else {
      int acc = 0;
      for (int i = 0; i < words; i++) {
        acc += (int) INT.get(src, i * 4);
        INT.set(dst, i * 4, acc);
      }
    }
    System.arraycopy(src, words * width, dst, words * width, n - words * width);
  }

  /** Byte planes: plane {@code j} holds byte {@code j} of every word. Reads each word once. */
  private void splitBytes(byte[] src, byte[] dst, int n) {
    int words = n / width;
    if (width == 8) {
      for (int i = 0; i < words; i++) {
        long v = (long) LONG.get(src, i * 8);
        for (int j = 0, at = i; j < 8; j++, at += words) {
          dst[at] = (byte) (v >>> (8 * j));
        }
      }
    } else {
      for (int i = 0; i < words; i++) {
        int v = (int) INT.get(src, i * 4);
        for (int j = 0, at = i; j < 4; j++, at += words) {
          dst[at] = (byte) (v >>> (8 * j));
        }
      }
    }
    System.arraycopy(src, words * width, dst, words * width, n - words * width);
  }

  /** Words back from byte planes, each written once (sequential writes, one read stream per plane). */
  private void joinBytes(byte[] src, byte[] dst, int n) {
    int words = n / width;
    if (width == 8) {
      for (int i = 0; i < words; i++) {
        long v = 0;
        for (int j = 0, at = i; j < 8; j++, at += words) {
          v |= (src[at] & 0xFFL) << (8 * j);
        }
        LONG.set(dst, i * 8, v);
      }
    } else {
      for (int i = 0; i < words; i++) {
        int v = 0;
        for (int j = 0, at = i; j < 4; j++, at += words) {
          v |= (src[at] & 0xFF) << (8 * j);
        }
        INT.set(dst, i * 4, v);
      }
    }
    System.arraycopy(src, words * width, dst, words * width, n - words * width);
  }
}
