package mira.block.table;

import java.nio.charset.StandardCharsets;

/**
 * When a string attribute counts as a number: the one rule the zone index ({@code zone.idx}) and
 * the query engine's ordered comparisons on string values must share. If the engine read a text as
 * a number that this class does not, or read it as a different number, the zone index could prune a
 * block holding a match.
 *
 * <p>The grammar is deliberately narrow, plain ASCII with no surrounding space: an integer
 * {@code [+-]?[0-9]+} is a {@link #LONG} when it fits 64 bits; a decimal
 * {@code [+-]?([0-9]+(.[0-9]*)?|.[0-9]+)([eE][+-]?[0-9]+)?} (and an integer too large for a long)
 * is a {@link #DOUBLE}, the value {@link Double#parseDouble} gives (correctly rounded). Everything
 * else — {@code "NaN"}, {@code "Infinity"}, hex, {@code " 1"}, {@code "1d"}, the empty string — is
 * {@link #NONE}: not a number.
 *
 * <p>An instance is a reusable parser holding the last result, so the seal path parses without
 * allocating (except for decimals, which go through {@code Double.parseDouble}). Not thread-safe.
 */
public final class NumericText {
  /** Not a number. */
  public static final int NONE = 0;
  /** A 64-bit signed integer: {@link #longValue()}. */
  public static final int LONG = 1;
  /** A double: {@link #doubleValue()}. */
  public static final int DOUBLE = 2;

  private long longValue;
  private double doubleValue;

  /** Parses {@code b[off, off + len)} (UTF-8) and returns {@link #NONE}, {@link #LONG} or {@link #DOUBLE}. */
  public int parse(byte[] b, int off, int len) {
    int end = off + len;
    int i = off;
    if (i < end && (b[i] == '+' || b[i] == '-')) {
      i++;
    }
    int intStart = i;
    while (i < end && isDigit(b[i])) {
      i++;
    }
    int intDigits = i - intStart;
    if (i == end) {
      if (intDigits == 0) {
        return NONE;
      }
      return integer(b, off, len, intDigits);
    }
    int fracDigits = 0;
    if (b[i] == '.') {
      i++;
      int fracStart = i;
      while (i < end && isDigit(b[i])) {
        i++;
      }
      fracDigits = i - fracStart;
    }
    if (intDigits + fracDigits == 0) {
      return NONE;
    }
    if (i < end && (b[i] == 'e' || b[i] == 'E')) {
      i++;
      if (i < end && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      int expStart = i;
      while (i < end && isDigit(b[i])) {
        i++;
      }
      if (i == expStart) {
        return NONE;
      }
    }
    if (i != end) {
      return NONE;
    }
    doubleValue = Double.parseDouble(new String(b, off, len, StandardCharsets.US_ASCII));
    return DOUBLE;
  }

  /** Parses {@code s}; see {@link #parse(byte[], int, int)}. */
  public int parse(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return parse(b, 0, b.length);
  }

  /** The value of the last {@link #LONG} parsed. */
  public long longValue() {
    return longValue;
  }

  /** The value of the last {@link #DOUBLE} parsed. */
  public double doubleValue() {
    return doubleValue;
  }

  private int integer(byte[] b, int off, int len, int digits) {
    if (digits <= 18) {
      // Eighteen digits cannot overflow a long, so no check is needed.
      int i = off;
      boolean negative = b[i] == '-';
      if (b[i] == '+' || b[i] == '-') {
        i++;
      }
      long v = 0;
      for (int end = off + len; i < end; i++) {
        v = v * 10 + (b[i] - '0');
      }
      longValue = negative ? -v : v;
      return LONG;
    }
    String s = new String(b, off, len, StandardCharsets.US_ASCII);
    try {
      longValue = Long.parseLong(s);
      return LONG;
    } catch (NumberFormatException e) {
      doubleValue = Double.parseDouble(s);
      return DOUBLE;
    }
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }
}
