package mira.query.frame;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Both service maps take their p50 and p99 from {@link Acc}: its bisection over sorted pieces and
 * single spans must give the nearest-rank quantile of all the durations sorted together.
 */
class AccTest {
  @Test
  void quantilesOverPiecesAndSinglesEqualTheNearestRankOfAllSorted() {
    SplittableRandom rnd = new SplittableRandom(42);
    for (int round = 0; round < 500; round++) {
      Acc acc = new Acc();
      List<Long> all = new ArrayList<>();
      int pieces = rnd.nextInt(0, 6);
      for (int p = 0; p < pieces; p++) {
        long[] d = new long[rnd.nextInt(0, 40)];
        for (int i = 0; i < d.length; i++) {
          d[i] = rnd.nextBoolean() ? rnd.nextLong(0, 50) * 1_000_000 : rnd.nextLong(0, 5_000_000_000L);
          all.add(d[i]);
        }
        Arrays.sort(d);
        acc.add(d.length, 0, d);
      }
      int singles = rnd.nextInt(0, 30);
      for (int i = 0; i < singles; i++) {
        long d = rnd.nextLong(0, 5_000_000_000L);
        acc.add(d, i % 3 == 0);
        all.add(d);
      }
      long[] sorted = all.stream().mapToLong(Long::longValue).sorted().toArray();
      for (double q : new double[] {0.0, 0.01, 0.5, 0.9, 0.99, 1.0}) {
        double expected = sorted.length == 0 ? 0 : sorted[(int) Math.max(0, Math.ceil(q * sorted.length) - 1)] / 1e6;
        assertThat(acc.quantile(q)).as("round %d, q %s over %d durations", round, q, sorted.length).isEqualTo(expected);
      }
      assertThat(acc.n).isEqualTo(sorted.length);
    }
  }
}
