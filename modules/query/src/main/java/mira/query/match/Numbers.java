package mira.query.match;

/**
 * Exact comparison between integers and doubles. (When a stored string counts as a number is
 * {@link mira.block.table.NumericText}'s rule, shared with the zone index.)
 */
public final class Numbers {
  /** Returned by the compare methods when the two are unordered (a NaN). */
  public static final int UNORDERED = Integer.MIN_VALUE;

  private Numbers() {}

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
