package mira.query.series;

/**
 * Exponential-histogram bucket counts as doubles (so increases and merged sums stay exact up to
 * 2^53), immutable. At scale {@code s} the base is {@code 2^(2^-s)}; positive bucket {@code i}
 * holds values in {@code (base^i, base^(i+1)]}, negative bucket {@code i} values in
 * {@code [-base^(i+1), -base^i)}, and the zero bucket values within the zero threshold of 0.
 * Lowering the scale by {@code d} maps bucket {@code i} to {@code i >> d} (floor division by
 * {@code 2^d}), which is exact: every bucket of the finer scale lies inside one of the coarser.
 */
record ExpHist(int scale, double zero, Side pos, Side neg) {
  /** Consecutive buckets from index {@code offset}. */
  record Side(int offset, double[] counts) {
    static final Side EMPTY = new Side(0, new double[0]);

    double total() {
      double t = 0;
      for (double c : counts) {
        t += c;
      }
      return t;
    }

    Side downscale(int d) {
      if (d <= 0 || counts.length == 0) {
        return this;
      }
      int lo = offset >> d;
      int hi = (offset + counts.length - 1) >> d;
      double[] out = new double[hi - lo + 1];
      for (int k = 0; k < counts.length; k++) {
        out[((offset + k) >> d) - lo] += counts[k];
      }
      return new Side(lo, out);
    }

    /** This plus {@code sign} times {@code o}, both at the same scale. */
    Side plus(Side o, double sign) {
      if (o.counts.length == 0) {
        return this;
      }
      if (counts.length == 0 && sign > 0) {
        return o;
      }
      int lo = counts.length == 0 ? o.offset : Math.min(offset, o.offset);
      int hi = counts.length == 0 ? o.offset + o.counts.length : Math.max(offset + counts.length, o.offset + o.counts.length);
      double[] out = new double[hi - lo];
      for (int k = 0; k < counts.length; k++) {
        out[offset + k - lo] += counts[k];
      }
      for (int k = 0; k < o.counts.length; k++) {
        out[o.offset + k - lo] += sign * o.counts[k];
      }
      return new Side(lo, out);
    }
  }

  /** Where a quantile fell: its value and the bounds of the bucket that answered. */
  record Answer(double value, double lower, double upper) {}

  /** Unsigned 64-bit counts as stored. */
  static ExpHist of(int scale, long zero, int posOffset, long[] pos, int negOffset, long[] neg) {
    return new ExpHist(scale, unsigned(zero), new Side(posOffset, unsigned(pos)), new Side(negOffset, unsigned(neg)));
  }

  private static double unsigned(long c) {
    return c >= 0 ? c : (double) (c >>> 1) * 2.0 + (c & 1);
  }

  private static double[] unsigned(long[] c) {
    double[] out = new double[c.length];
    for (int k = 0; k < c.length; k++) {
      out[k] = unsigned(c[k]);
    }
    return out;
  }

  double total() {
    return zero + pos.total() + neg.total();
  }

  /** The same counts at a scale no finer than {@code to}. */
  ExpHist downscale(int to) {
    if (to >= scale) {
      return this;
    }
    int d = scale - to;
    return new ExpHist(to, zero, pos.downscale(d), neg.downscale(d));
  }

  /** This plus {@code sign} times {@code o}, at the coarser of the two scales. */
  ExpHist plus(ExpHist o, double sign) {
    int s = Math.min(scale, o.scale);
    ExpHist a = downscale(s);
    ExpHist b = o.downscale(s);
    return new ExpHist(s, a.zero + sign * b.zero, a.pos.plus(b.pos, sign), a.neg.plus(b.neg, sign));
  }

  /** The lower bound of positive bucket {@code i}, {@code base^i}, at this scale. */
  double bound(int i) {
    return Math.pow(2, Math.scalb((double) i, -scale));
  }

  /**
   * The {@code q}-quantile: rank {@code q * total}, the first non-empty bucket in value order
   * (negative buckets from the most negative, the zero bucket, positive buckets upwards) whose
   * cumulative count reaches the rank, interpolated linearly between the bucket's bounds; the zero
   * bucket answers 0. Null when the counts sum to zero.
   */
  Answer quantile(double q) {
    double total = total();
    if (!(total > 0)) {
      return null;
    }
    double rank = q * total;
    double cum = 0;
    double[] n = neg.counts;
    for (int k = n.length - 1; k >= 0; k--) {
      if (n[k] > 0 && cum + n[k] >= rank) {
        int i = neg.offset + k;
        return answer(-bound(i + 1), -bound(i), rank - cum, n[k]);
      }
      cum += n[k];
    }
    if (zero > 0 && cum + zero >= rank) {
      return new Answer(0, 0, 0);
    }
    cum += zero;
    double[] p = pos.counts;
    int last = -1;
    for (int k = 0; k < p.length; k++) {
      if (p[k] > 0) {
        last = k;
        if (cum + p[k] >= rank) {
          int i = pos.offset + k;
          return answer(bound(i), bound(i + 1), rank - cum, p[k]);
        }
      }
      cum += p[k];
    }
    // Rounding left the rank a hair above the total: the top of the last non-empty bucket.
    if (last >= 0) {
      int i = pos.offset + last;
      return new Answer(bound(i + 1), bound(i), bound(i + 1));
    }
    return zero > 0 ? new Answer(0, 0, 0) : null;
  }

  private static Answer answer(double lower, double upper, double into, double count) {
    return new Answer(lower + (upper - lower) * Math.min(1, into / count), lower, upper);
  }
}
