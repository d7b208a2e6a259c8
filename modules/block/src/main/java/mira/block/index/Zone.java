package mira.block.index;

import mira.block.index.ZoneIndex.Answer;
import mira.block.index.ZoneIndex.Op;
import mira.block.table.NumericText;

/**
 * The range of one column or attribute key in a block: the least and greatest integer value, the
 * least and greatest double value, kept apart so an int64 past 2^53 is never rounded, and an
 * unbounded mark for a key holding a value no interval describes.
 *
 * <p>What may match a numeric term: an integer (integer column, int attribute, string that
 * {@link NumericText} reads as an integer) or a double (double column or attribute, string read as
 * a decimal) for which {@code value op bound} holds. Integers and doubles are compared both exactly
 * (by mathematical value) and as an engine converting the integer to a double would, and a strict
 * comparison between doubles is answered as the non-strict one, so that {@code -0.0}/{@code 0.0}
 * answer "maybe" whichever way the engine orders them; the answer is "maybe" if any reading could
 * match. A string that is not a number (engines compare it as text), a boolean or bytes make the key
 * unbounded: "maybe" to everything. So does a NaN, which orders differently in {@code <} and in
 * {@link Double#compare}.
 */
final class Zone {
  static final int HAS_LONG = 1;
  static final int HAS_DOUBLE = 2;
  static final int UNBOUNDED = 4;

  int state;
  long lo = Long.MAX_VALUE;
  long hi = Long.MIN_VALUE;
  double dlo = Double.POSITIVE_INFINITY;
  double dhi = Double.NEGATIVE_INFINITY;

  Zone() {}

  Zone(int state, long lo, long hi, double dlo, double dhi) {
    this.state = state;
    this.lo = lo;
    this.hi = hi;
    this.dlo = dlo;
    this.dhi = dhi;
  }

  void addLong(long v) {
    state |= HAS_LONG;
    if (v < lo) {
      lo = v;
    }
    if (v > hi) {
      hi = v;
    }
  }

  void addDouble(double v) {
    if (Double.isNaN(v)) {
      state |= UNBOUNDED;
      return;
    }
    state |= HAS_DOUBLE;
    if (v < dlo || (v == dlo && Double.compare(v, dlo) < 0)) {
      dlo = v;
    }
    if (v > dhi || (v == dhi && Double.compare(v, dhi) > 0)) {
      dhi = v;
    }
  }

  /** A string value: a number if {@link NumericText} reads one, else the key becomes unbounded. */
  void addText(byte[] b, int off, int len, NumericText parser) {
    if ((state & UNBOUNDED) != 0) {
      return;
    }
    switch (parser.parse(b, off, len)) {
      case NumericText.LONG -> addLong(parser.longValue());
      case NumericText.DOUBLE -> addDouble(parser.doubleValue());
      default -> state |= UNBOUNDED;
    }
  }

  void unbounded() {
    state |= UNBOUNDED;
  }

  boolean isUnbounded() {
    return (state & UNBOUNDED) != 0;
  }

  Answer answer(Op op, long bound) {
    if ((state & UNBOUNDED) != 0) {
      return Answer.MAYBE;
    }
    if ((state & HAS_LONG) != 0 && holds(op, Long.compare(lo, bound), Long.compare(hi, bound))) {
      return Answer.MAYBE;
    }
    if ((state & HAS_DOUBLE) != 0
        && (holds(op, -compare(bound, dlo), -compare(bound, dhi)) || loose(op, dlo, dhi, (double) bound))) {
      return Answer.MAYBE;
    }
    return Answer.NO;
  }

  Answer answer(Op op, double bound) {
    if ((state & UNBOUNDED) != 0 || Double.isNaN(bound)) {
      return Answer.MAYBE;
    }
    if ((state & HAS_LONG) != 0
        && (holds(op, compare(lo, bound), compare(hi, bound)) || loose(op, (double) lo, (double) hi, bound))) {
      return Answer.MAYBE;
    }
    if ((state & HAS_DOUBLE) != 0 && loose(op, dlo, dhi, bound)) {
      return Answer.MAYBE;
    }
    return Answer.NO;
  }

  /**
   * Whether some value in an interval can satisfy {@code op}, given the signs of (low end − bound)
   * and (high end − bound).
   */
  private static boolean holds(Op op, int lowVsBound, int highVsBound) {
    return switch (op) {
      case EQ -> lowVsBound <= 0 && highVsBound >= 0;
      case GT -> highVsBound > 0;
      case GTE -> highVsBound >= 0;
      case LT -> lowVsBound < 0;
      case LTE -> lowVsBound <= 0;
    };
  }

  /** {@link #holds} over doubles with {@code <}/{@code >} read as {@code <=}/{@code >=}. */
  private static boolean loose(Op op, double lo, double hi, double bound) {
    return switch (op) {
      case EQ -> lo <= bound && hi >= bound;
      case GT, GTE -> hi >= bound;
      case LT, LTE -> lo <= bound;
    };
  }

  /** Sign of {@code v - x} by exact mathematical value; {@code x} is not NaN. */
  static int compare(long v, double x) {
    if (x >= 0x1p63) {
      return -1;
    }
    if (x < -0x1p63) {
      return 1;
    }
    // |x| < 2^63, so its integer part fits a long and the fraction is exact.
    long t = (long) x;
    if (v != t) {
      return Long.compare(v, t);
    }
    double frac = x - (double) t;
    return frac > 0 ? -1 : frac < 0 ? 1 : 0;
  }
}
