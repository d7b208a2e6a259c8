package mira.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class RuleStateTest {
  static final long S = 1_000_000_000L;

  @Test
  void withoutForTheFirstBreachFires() {
    RuleState s = new RuleState();
    assertThat(s.advance(false, 1 * S, 0)).isEqualTo(RuleState.Edge.NONE);
    assertThat(s.shown()).isEqualTo("ok");
    assertThat(s.advance(true, 2 * S, 0)).isEqualTo(RuleState.Edge.FIRED);
    assertThat(s.shown()).isEqualTo("firing");
    assertThat(s.since).isEqualTo(2 * S);
    assertThat(s.advance(true, 3 * S, 0)).isEqualTo(RuleState.Edge.NONE);
    assertThat(s.advance(false, 4 * S, 0)).isEqualTo(RuleState.Edge.RESOLVED);
    assertThat(s.shown()).isEqualTo("ok");
    assertThat(s.firingStartedAt).isEqualTo(2 * S);
  }

  @Test
  void forIsASustainedBreach() {
    RuleState s = new RuleState();
    long hold = 30 * S;
    assertThat(s.advance(true, 0, hold)).isEqualTo(RuleState.Edge.NONE);
    assertThat(s.shown()).isEqualTo("pending");
    assertThat(s.advance(true, 20 * S, hold)).isEqualTo(RuleState.Edge.NONE);
    assertThat(s.advance(false, 25 * S, hold)).as("one good evaluation resets the hold").isEqualTo(RuleState.Edge.NONE);
    assertThat(s.shown()).isEqualTo("ok");
    assertThat(s.advance(true, 40 * S, hold)).isEqualTo(RuleState.Edge.NONE);
    assertThat(s.advance(true, 69 * S, hold)).as("29 s of breach is not 30").isEqualTo(RuleState.Edge.NONE);
    assertThat(s.advance(true, 70 * S, hold)).isEqualTo(RuleState.Edge.FIRED);
    assertThat(s.since).isEqualTo(70 * S);
  }

  @Test
  void aFailedEvaluationIsNeitherQuietNorAResolve() {
    RuleState s = new RuleState();
    s.advance(true, 0, 10 * S);
    s.failed("IOException: disk", 5 * S);
    assertThat(s.shown()).isEqualTo("error");
    assertThat(s.error).isEqualTo("IOException: disk");
    assertThat(s.phase).as("the hold is dropped").isEqualTo(RuleState.Phase.OK);
    assertThat(s.advance(true, 6 * S, 10 * S)).isEqualTo(RuleState.Edge.NONE);
    assertThat(s.advance(true, 15 * S, 10 * S)).as("held from 6 s, not from 0").isEqualTo(RuleState.Edge.NONE);
    assertThat(s.advance(true, 16 * S, 10 * S)).isEqualTo(RuleState.Edge.FIRED);
    s.failed("busy", 17 * S);
    assertThat(s.phase).as("firing stays firing through an error").isEqualTo(RuleState.Phase.FIRING);
    assertThat(s.shown()).isEqualTo("error");
    assertThat(s.advance(true, 18 * S, 10 * S)).as("and is not fired twice").isEqualTo(RuleState.Edge.NONE);
    assertThat(s.error).isNull();
    assertThat(s.shown()).isEqualTo("firing");
  }

  /**
   * Against a model: the rule fires exactly at the first evaluation that ends a run of consecutive
   * breaches spanning at least {@code for}, resolves at the first good evaluation after, and a
   * flapping series whose runs are all shorter than {@code for} never fires.
   */
  @Property(tries = 300)
  void edgesFollowRunsOfBreaches(@ForAll @Size(max = 60) List<Boolean> breaches,
      @ForAll @IntRange(min = 0, max = 5) int holdSteps) {
    RuleState s = new RuleState();
    long hold = holdSteps * S;
    boolean firing = false;
    long runStart = -1;
    List<String> got = new ArrayList<>();
    List<String> want = new ArrayList<>();
    for (int i = 0; i < breaches.size(); i++) {
      long now = (i + 1) * S;
      boolean b = breaches.get(i);
      RuleState.Edge e = s.advance(b, now, hold);
      if (e != RuleState.Edge.NONE) {
        got.add(i + ":" + e);
      }
      if (b) {
        runStart = runStart < 0 ? now : runStart;
        if (!firing && now - runStart >= hold) {
          firing = true;
          want.add(i + ":FIRED");
        }
      } else {
        runStart = -1;
        if (firing) {
          firing = false;
          want.add(i + ":RESOLVED");
        }
      }
    }
    assertThat(got).isEqualTo(want);
  }

  /**
   * The identity alerting stands on: p95(d) > T exactly when more than 5% of the sample exceeds T,
   * so a ratio rule ({@code duration > T} over all, above 0.05) is a p95 rule. p95 is the
   * nearest-rank percentile (the smallest sample value with at least 95% of the sample at or below
   * it); the ratio is computed and compared the way a rule is.
   */
  @Property(tries = 2000)
  void aPercentileThresholdIsARatioThreshold(@ForAll @Size(min = 1, max = 400) List<@IntRange(min = 0, max = 2000) Integer> d,
      @ForAll @IntRange(min = 0, max = 2000) int threshold) throws Exception {
    List<Integer> sorted = new ArrayList<>(d);
    sorted.sort(null);
    int rank = (int) Math.ceil(0.95 * sorted.size());
    int p95 = sorted.get(rank - 1);
    long over = d.stream().filter(x -> x > threshold).count();
    Rule r = RulesFile.parse("r", "{rules: [{name: \"p95\", query: {signal: \"traces\", where: [{field: \"duration_nano\", "
        + "gt: \"" + threshold + "\"}]}, of: {signal: \"traces\"}, over: \"5m\", above: \"0.05\"}]}").rules().getFirst();
    double ratio = Evaluation.ratio(over, d.size());
    assertThat(r.breached(ratio)).as("p95 %d vs %d, %d of %d over", p95, threshold, over, d.size())
        .isEqualTo(p95 > threshold);
  }
}
