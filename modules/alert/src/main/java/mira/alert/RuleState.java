package mira.alert;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the evaluator knows of one rule between evaluations. Guarded by its own monitor: the rule's
 * evaluation thread writes, {@code GET /api/v1/alerts} reads.
 *
 * <p>The phases go {@code ok → pending → firing → ok}. {@code for} is a sustained breach: every
 * evaluation that does not breach sets the hold back to nothing, so a value that flaps across the
 * line never adds up to {@code for}. An evaluation that fails is not a quiet one: the rule shows
 * {@code error} with the reason, a pending hold is dropped (nothing showed it sustained), and a
 * firing rule stays firing (nothing showed it resolved) until an evaluation succeeds.
 */
final class RuleState {
  enum Phase { OK, PENDING, FIRING }

  /** What an evaluation changed at the receivers' end. */
  enum Edge { NONE, FIRED, RESOLVED }

  Phase phase = Phase.OK;
  /** When {@link #phase} began, ns; 0 before the first evaluation. */
  long since;
  /** When the rule last began firing, ns (a resolve reports the incident's start); 0 if never. */
  long firingStartedAt;
  /** Start of the breach being held, ns, or -1. */
  long breachSince = -1;
  /** Why the last evaluation failed, or null. */
  String error;
  long errorSince;

  /** The last successful evaluation's outcome, or null. */
  Evaluation.Outcome last;
  /** When the last evaluation (successful or not) ran, ns, and how long it took. */
  long evaluatedAt;
  long tookNs;
  long evaluations;

  /** Per target, in the rule's order. */
  final Map<String, Told> targets = new LinkedHashMap<>();

  /** What one target has been told. */
  static final class Told {
    /** True once the receiver acknowledged a firing notice, until it acknowledges a resolve. */
    boolean firing;
    /** When the receiver last acknowledged a notice, ns. */
    long toldAt;
    /** The last attempt: when, which state it carried, and how it went. */
    long attemptAt;
    String attemptState;
    boolean attemptOk;
    int attemptStatus;
    String attemptError;
  }

  /** A successful evaluation whose value breached the line or not, at {@code now}. */
  synchronized Edge advance(boolean breach, long now, long hold) {
    error = null;
    if (!breach) {
      breachSince = -1;
      Phase was = phase;
      if (was != Phase.OK) {
        phase = Phase.OK;
        since = now;
      } else if (since == 0) {
        since = now;
      }
      return was == Phase.FIRING ? Edge.RESOLVED : Edge.NONE;
    }
    if (breachSince < 0) {
      breachSince = now;
    }
    if (phase == Phase.FIRING) {
      return Edge.NONE;
    }
    if (now - breachSince >= hold) {
      phase = Phase.FIRING;
      since = now;
      firingStartedAt = now;
      return Edge.FIRED;
    }
    if (phase == Phase.OK) {
      phase = Phase.PENDING;
      since = now;
    }
    return Edge.NONE;
  }

  /** An evaluation that could not be done. */
  synchronized void failed(String reason, long now) {
    if (error == null) {
      errorSince = now;
    }
    error = reason;
    breachSince = -1;
    if (phase == Phase.PENDING) {
      phase = Phase.OK;
      since = now;
    }
  }

  /** The state as surfaces show it: ok, pending, firing or error. */
  synchronized String shown() {
    return error != null ? "error" : phase.name().toLowerCase(java.util.Locale.ROOT);
  }
}
