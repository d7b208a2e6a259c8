package mira.bench.agent;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Times the scripted agent on a running node: sends an {@link IncidentHour} of about
 * {@code --records} records, runs {@link Investigation} {@code --runs} times after one unmeasured
 * run, prints each call's p50 and max, and exits 1 unless every run found what the corpus holds.
 *
 * <pre>
 *   AgentScenario --http http://127.0.0.1:14318 [--records 1000000] [--runs 20] [--seed 1]
 * </pre>
 */
public final class AgentScenario {
  private AgentScenario() {}

  public static void main(String[] args) throws Exception {
    String http = null;
    long records = 1_000_000;
    int runs = 20;
    long seed = 1;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--http" -> http = args[++i];
        case "--records" -> records = Long.parseLong(args[++i]);
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--seed" -> seed = Long.parseLong(args[++i]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + "; options: --http URL --records N --runs N --seed N");
      }
    }
    if (http == null) {
      throw new IllegalArgumentException("--http http://HOST:PORT is required");
    }
    IncidentHour hour = new IncidentHour(records, System.currentTimeMillis() * 1_000_000L, seed);
    long t0 = System.nanoTime();
    long sent = hour.send(http);
    hour.awaitVisible(http, java.time.Duration.ofSeconds(60));
    System.out.printf(Locale.ROOT, "sent %,d records (an hour, incident from minute 40) in %.1f s%n", sent,
        (System.nanoTime() - t0) / 1e9);

    Investigation agent = new Investigation(http);
    List<double[]> ms = new ArrayList<>();
    Investigation.Findings last = null;
    boolean right = true;
    for (int r = 0; r <= runs; r++) {
      Investigation.Findings f = agent.run(hour.start(), hour.end());
      boolean ok = f.since() == hour.incidentStart() && f.broken().equals(hour.brokenInTraces())
          && f.upstream().equals(hour.upstream()) && !f.errorLogs().isEmpty();
      right &= ok;
      if (r == 0) {
        System.out.println("first run (not counted):");
        for (Investigation.Call c : f.calls()) {
          System.out.printf(Locale.ROOT, "  %-14s %8.1f ms  %s%n", c.tool(), c.ms(), c.summary());
        }
      } else {
        for (int i = 0; i < f.calls().size(); i++) {
          if (ms.size() <= i) {
            ms.add(new double[runs]);
          }
          ms.get(i)[r - 1] = f.calls().get(i).ms();
        }
      }
      last = f;
    }
    System.out.printf(Locale.ROOT, "found: since %s (truth %s), broken %s (truth %s), upstream %s (truth %s), %d error logs%n",
        last.since(), hour.incidentStart(), last.broken(), hour.brokenInTraces(), last.upstream(), hour.upstream(),
        last.errorLogs().size());
    if (!last.errorLogs().isEmpty()) {
      String l = last.errorLogs().getFirst();
      System.out.println("  e.g. " + (l.length() > 160 ? l.substring(0, 160) + "…" : l));
    }
    for (int i = 0; i < ms.size(); i++) {
      double[] v = ms.get(i);
      Arrays.sort(v);
      System.out.printf(Locale.ROOT, "%-14s p50 %6.1f ms  max %6.1f ms  (%d runs)%n", last.calls().get(i).tool(),
          v[(v.length - 1) / 2], v[v.length - 1], v.length);
    }
    if (!right) {
      System.out.println("WRONG: a run did not find what the corpus holds");
      System.exit(1);
    }
  }
}
