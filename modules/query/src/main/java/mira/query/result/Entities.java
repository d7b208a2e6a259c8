package mira.query.result;

/** The spelling of entity keys: 16 lowercase hex digits, a 64-bit unsigned value. */
public final class Entities {
  private Entities() {}

  /** {@code key} as 16 lowercase hex digits. */
  public static String hex(long key) {
    String s = Long.toHexString(key);
    return "0".repeat(16 - s.length()) + s;
  }

  /** The key spelled by {@code s} (16 hex digits, either case), or null if it is not one. */
  public static Long parse(String s) {
    if (s == null || s.length() != 16) {
      return null;
    }
    for (int i = 0; i < 16; i++) {
      if (!isHex(s.charAt(i))) {
        return null;
      }
    }
    return Long.parseUnsignedLong(s, 16);
  }

  private static boolean isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
}
