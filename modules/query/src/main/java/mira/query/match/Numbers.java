package mira.query.match;

/**
 * Numbers read out of text, and exact comparison between integers and doubles. A stored string
 * is a number only if the whole of it is JSON number syntax ({@code -?digits[.digits][e±digits]});
 * {@code " 5"}, {@code "0x10"} and {@code "NaN"} are text.
 */
public final class Numbers {
  /** Returned by the compare methods when the two are unordered (a NaN). */
  public static final int UNORDERED = Integer.MIN_VALUE;

  private Numbers() {}

  /**
   * Parses {@code b[off, off + len)} (ASCII digits and signs) as a number.
   *
   * @param out receives the value: {@code out.isLong} and {@code out.l}, or {@code out.d}
   * @return false if the bytes are not a number
   */
  public static boolean parse(byte[] b, int off, int len, Parsed out) {
    int i = off;
    int end = off + len;
    if (i < end && b[i] == '-') {
      i++;
    }
    int digits = i;
    while (i < end && b[i] >= '0' && b[i] <= '9') {
      i++;
    }
    if (i == digits) {
      return false;
    }
    boolean integral = true;
    if (i < end && b[i] == '.') {
      integral = false;
      i++;
      int frac = i;
      while (i < end && b[i] >= '0' && b[i] <= '9') {
        i++;
      }
      if (i == frac) {
        return false;
      }
    }
    if (i < end && (b[i] == 'e' || b[i] == 'E')) {
      integral = false;
      i++;
      if (i < end && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      int exp = i;
      while (i < end && b[i] >= '0' && b[i] <= '9') {
        i++;
      }
      if (i == exp) {
        return false;
      }
    }
    if (i != end) {
      return false;
    }
    String s = new String(b, off, len, java.nio.charset.StandardCharsets.US_ASCII);
    if (integral && len <= 20) {
      try {
        out.l = Long.parseLong(s);
        out.isLong = true;
        return true;
      } catch (NumberFormatException e) {
        // beyond a long: read as a double below
      }
    }
    out.isLong = false;
    out.d = Double.parseDouble(s);
    return true;
  }

  /** A parsed number. */
  public static final class Parsed {
    public boolean isLong;
    public long l;
    public double d;
  }

  /** Compares a long with a double exactly, without rounding the long; UNORDERED for NaN. */
  public static int compare(long a, double b) {
    if (Double.isNaN(b)) {
      return UNORDERED;
    }
    if (b >= 0x1p63) {
      return -1;
    }
    if (b < -0x1p63) {
      return 1;
    }
    long bl = (long) b; // truncates toward zero; exact in range
    if (a != bl) {
      return a < bl ? -1 : 1;
    }
    double frac = b - bl;
    return frac > 0 ? -1 : frac < 0 ? 1 : 0;
  }

  /** Compares two doubles numerically (so -0.0 equals 0.0); UNORDERED if either is NaN. */
  public static int compare(double a, double b) {
    if (a < b) {
      return -1;
    }
    if (a > b) {
      return 1;
    }
    return a == b ? 0 : UNORDERED;
  }
}
