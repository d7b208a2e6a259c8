package mira.proto.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** UTF-8 validation over a byte range, with an 8-bytes-at-a-time ASCII fast path. */
public final class Utf8 {
  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long HIGH_BITS = 0x8080808080808080L;

  private Utf8() {}

  /** True if {@code b[from, to)} is well-formed UTF-8 (no overlongs, no surrogates, ≤ U+10FFFF). */
  public static boolean isValid(byte[] b, int from, int to) {
    int i = from;
    while (i + 8 <= to) {
      if ((((long) LONG_LE.get(b, i)) & HIGH_BITS) != 0) {
        break;
      }
      i += 8;
    }
    while (i < to) {
      int c = b[i];
      if (c >= 0) {
        i++;
        continue;
      }
      return validFrom(b, i, to);
    }
    return true;
  }

  private static boolean validFrom(byte[] b, int i, int to) {
    while (i < to) {
      int c = b[i] & 0xFF;
      if (c < 0x80) {
        i++;
      } else if (c < 0xC2) {
        return false;
      } else if (c < 0xE0) {
        if (i + 1 >= to || (b[i + 1] & 0xC0) != 0x80) {
          return false;
        }
        i += 2;
      } else if (c < 0xF0) {
        if (i + 2 >= to) {
          return false;
        }
        int c1 = b[i + 1] & 0xFF;
        if ((c1 & 0xC0) != 0x80 || (b[i + 2] & 0xC0) != 0x80) {
          return false;
        }
        if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0)) {
          return false;
        }
        i += 3;
      } else if (c < 0xF5) {
        if (i + 3 >= to) {
          return false;
        }
        int c1 = b[i + 1] & 0xFF;
        if ((c1 & 0xC0) != 0x80 || (b[i + 2] & 0xC0) != 0x80 || (b[i + 3] & 0xC0) != 0x80) {
          return false;
        }
        if ((c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90)) {
          return false;
        }
        i += 4;
      } else {
        return false;
      }
    }
    return true;
  }
}
