package mira.query.match;

/** Byte-array helpers for UTF-8 text: substring search and code-point-order comparison. */
public final class Bytes {
  private Bytes() {}

  /**
   * True if {@code needle} occurs in {@code hay[off, off + len)}. UTF-8 is self-synchronising, so a
   * byte match is a character match.
   */
  public static boolean contains(byte[] hay, int off, int len, byte[] needle) {
    int n = needle.length;
    if (n == 0) {
      return true;
    }
    byte first = needle[0];
    int last = off + len - n;
    outer:
    for (int i = off; i <= last; i++) {
      if (hay[i] != first) {
        continue;
      }
      for (int j = 1; j < n; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  /** True if {@code a[off, off + len)} equals {@code b}. */
  public static boolean equals(byte[] a, int off, int len, byte[] b) {
    if (len != b.length) {
      return false;
    }
    for (int i = 0; i < len; i++) {
      if (a[off + i] != b[i]) {
        return false;
      }
    }
    return true;
  }

  /** Compares {@code a[off, off + len)} with {@code b} as unsigned bytes: UTF-8 code point order. */
  public static int compare(byte[] a, int off, int len, byte[] b) {
    int n = Math.min(len, b.length);
    for (int i = 0; i < n; i++) {
      int x = a[off + i] & 0xFF;
      int y = b[i] & 0xFF;
      if (x != y) {
        return x < y ? -1 : 1;
      }
    }
    return Integer.compare(len, b.length);
  }
}
