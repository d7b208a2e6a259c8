package mira.query.series;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Exponential-histogram quantiles against the raw values the buckets were built from. */
class ExpHistTest {
  /** The OTel mapping of a positive magnitude to its bucket at {@code scale}: ceil(log_base(v)) - 1. */
  static int index(double v, int scale) {
    return (int) Math.ceil(Math.log(v) / Math.log(2) * Math.pow(2, scale)) - 1;
  }

  /** Buckets of raw values as an SDK would record them; |v| <= zeroThreshold goes to the zero bucket. */
  static long[][] buckets(double[] values, int scale, double zeroThreshold, int[] offsets) {
    int posLo = Integer.MAX_VALUE;
    int posHi = Integer.MIN_VALUE;
    int negLo = Integer.MAX_VALUE;
    int negHi = Integer.MIN_VALUE;
    long zero = 0;
    for (double v : values) {
      if (Math.abs(v) <= zeroThreshold) {
        continue;
      }
      int i = index(Math.abs(v), scale);
      if (v > 0) {
        posLo = Math.min(posLo, i);
        posHi = Math.max(posHi, i);
      } else {
        negLo = Math.min(negLo, i);
        negHi = Math.max(negHi, i);
      }
    }
    long[] pos = new long[posLo == Integer.MAX_VALUE ? 0 : posHi - posLo + 1];
    long[] neg = new long[negLo == Integer.MAX_VALUE ? 0 : negHi - negLo + 1];
    for (double v : values) {
      if (Math.abs(v) <= zeroThreshold) {
        zero++;
      } else if (v > 0) {
        pos[index(v, scale) - posLo]++;
      } else {
        neg[index(-v, scale) - negLo]++;
      }
    }
    offsets[0] = pos.length == 0 ? 0 : posLo;
    offsets[1] = neg.length == 0 ? 0 : negLo;
    return new long[][] {{zero}, pos, neg};
  }

  static ExpHist of(double[] values, int scale) {
    int[] off = new int[2];
    long[][] b = buckets(values, scale, 0, off);
    return ExpHist.of(scale, b[0][0], off[0], b[1], off[1], b[2]);
  }

  /** The nearest-rank quantile: the value at rank max(1, ceil(q * n)). */
  static double truth(double[] values, double q) {
    double[] s = values.clone();
    Arrays.sort(s);
    int rank = (int) Math.max(1, Math.ceil(q * s.length - 1e-9));
    return s[rank - 1];
  }

  static double[] values(Random rnd, int n) {
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      int kind = rnd.nextInt(10);
      v[i] = kind == 0 ? 0 : kind == 1 ? -Math.exp(rnd.nextGaussian() * 2) : Math.exp(rnd.nextGaussian() * 3 + 2);
    }
    return v;
  }

  static void assertWithin(ExpHist.Answer a, double truth, String what) {
    double tol = 1e-9 * Math.max(1, Math.abs(truth));
    assertThat(a).as(what).isNotNull();
    assertThat(truth).as(what + " truth in the answering bucket " + a).isBetween(a.lower() - tol, a.upper() + tol);
    assertThat(a.value()).as(what + " answer in its bucket").isBetween(a.lower(), a.upper());
  }

  @Test
  void theTrueQuantileLiesInTheBucketThatAnswers() {
    long seed = Long.getLong("mira.seed", System.nanoTime());
    System.out.println("ExpHistTest seed " + seed);
    Random rnd = new Random(seed);
    for (int t = 0; t < 2_000; t++) {
      double[] v = values(rnd, 1 + rnd.nextInt(300));
      int scale = rnd.nextInt(9) - 2;
      ExpHist h = of(v, scale);
      assertThat(h.total()).isEqualTo(v.length);
      for (double q : new double[] {0, 0.01, 0.25, 0.5, 0.9, 0.99, 1, rnd.nextDouble()}) {
        assertWithin(h.quantile(q), truth(v, q), "seed " + seed + " trial " + t + " scale " + scale + " q " + q);
      }
    }
  }

  @Test
  void seriesAtDifferentScalesMergeAtTheCoarserAndKeepTheTruthInTheAnsweringBucket() {
    long seed = Long.getLong("mira.seed", System.nanoTime());
    System.out.println("ExpHistTest seed " + seed);
    Random rnd = new Random(seed);
    for (int t = 0; t < 1_000; t++) {
      double[] a = values(rnd, 1 + rnd.nextInt(200));
      double[] b = values(rnd, 1 + rnd.nextInt(200));
      int sa = rnd.nextInt(8);
      int sb = rnd.nextInt(8) - 3;
      ExpHist m = of(a, sa).plus(of(b, sb), 1);
      assertThat(m.scale()).isEqualTo(Math.min(sa, sb));
      double[] all = new double[a.length + b.length];
      System.arraycopy(a, 0, all, 0, a.length);
      System.arraycopy(b, 0, all, a.length, b.length);
      // The merged buckets are exactly those of all the values at the coarser scale.
      ExpHist direct = of(all, m.scale());
      assertThat(m.pos().offset()).isEqualTo(direct.pos().offset());
      assertThat(m.pos().counts()).isEqualTo(direct.pos().counts());
      assertThat(m.neg().counts()).isEqualTo(direct.neg().counts());
      for (double q : new double[] {0.5, 0.99, rnd.nextDouble()}) {
        assertWithin(m.quantile(q), truth(all, q), "seed " + seed + " trial " + t + " q " + q);
      }
    }
  }

  @Test
  void anIncreaseIsTheCountsRecordedBetweenTwoCumulativePoints() {
    Random rnd = new Random(7);
    double[] first = values(rnd, 100);
    double[] more = values(rnd, 50);
    double[] both = new double[150];
    System.arraycopy(first, 0, both, 0, 100);
    System.arraycopy(more, 0, both, 100, 50);
    // The SDK lowered the scale between the two points: the increase is taken at the coarser one.
    ExpHist inc = of(both, 2).plus(of(first, 4), -1);
    ExpHist want = of(more, 2);
    assertThat(inc.scale()).isEqualTo(2);
    assertThat(inc.total()).isEqualTo(50);
    assertThat(inc.zero()).isEqualTo(want.zero());
    for (double q : new double[] {0.1, 0.5, 0.9}) {
      assertThat(inc.quantile(q).value()).isEqualTo(want.quantile(q).value());
    }
    assertThat(ExpHist.of(0, 0, 0, new long[0], 0, new long[0]).quantile(0.5)).isNull();
  }
}
