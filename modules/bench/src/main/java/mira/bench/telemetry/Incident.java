package mira.bench.telemetry;

/**
 * What changes while an incident is on: the services it hits fail more often and answer more
 * slowly, so errors, durations, error logs and 5xx counters all move together in one time slice.
 *
 * <p>Which services are hit is fixed for the catalogue (the payment path and its database users),
 * so a query for "errors of payment during the incident" has something to find whatever the seed.
 */
public final class Incident {
  private Incident() {}

  /** Probability that an operation (a database call, a model call) fails outside an incident. */
  public static final double BASE_ERROR = 0.004;
  /** The same probability in a service the incident hits, while it is on. */
  public static final double INCIDENT_ERROR = 0.25;
  /** How much slower a service the incident hits answers while it is on. */
  public static final double LATENCY_FACTOR = 6.0;

  /** The services an incident hits, by name. */
  public static final String[] SERVICES = {"payment", "checkout", "ledger"};

  private static final boolean[] HIT = new boolean[Fleet.NAMES.length];

  static {
    for (String s : SERVICES) {
      for (int i = 0; i < Fleet.NAMES.length; i++) {
        if (Fleet.NAMES[i].equals(s)) HIT[i] = true;
      }
    }
  }

  /** Whether service {@code s} is one the incident hits. */
  static boolean hits(int s) {
    return HIT[s];
  }

  static double errorRate(int service, boolean incident) {
    return incident && HIT[service] ? INCIDENT_ERROR : BASE_ERROR;
  }

  static double latencyFactor(int service, boolean incident) {
    return incident && HIT[service] ? LATENCY_FACTOR : 1.0;
  }
}
