package mira.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RunTest {
  @Test
  void aPacedRunStartsExportsOnItsScheduleAndNotBefore() {
    // 100 records per export at 2,000 records/s: one export every 50 ms.
    Options o = Options.parse(new String[] {"--batch", "100", "--rate", "2000", "--for", "10s"});
    long t0 = System.nanoTime();
    Run run = new Run(o, t0);
    for (int i = 0; i < 5; i++) {
      assertThat(run.claim()).isTrue();
    }
    // The fifth export is scheduled 4 intervals after the start: it cannot have started sooner.
    assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(4 * 50_000_000L);
  }

  @Test
  void aPacedRunStopsAtItsEndEvenWithSlotsLeft() {
    // One export every 400 ms in a 1 s run: slots at 0, 400 and 800 ms, none at 1200.
    Options o = Options.parse(new String[] {"--batch", "400", "--rate", "1000", "--for", "1s"});
    Run run = new Run(o, System.nanoTime());
    int n = 0;
    while (run.claim()) {
      n++;
    }
    assertThat(n).isEqualTo(3);
  }

  @Test
  void anUnpacedRunIsBoundedByItsExportCount() {
    Options o = Options.parse(new String[] {"--exports", "7"});
    Run run = new Run(o, System.nanoTime());
    int n = 0;
    while (run.claim()) {
      n++;
    }
    assertThat(n).isEqualTo(7);
  }
}
