package mira.bench.load;

import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Relative weights of the signals, e.g. {@code logs=1,traces=1,metrics=0.1}: each export is of
 * signal {@code s} with probability {@code weight(s) / sum of weights}. Immutable.
 */
final class Mix {
  private final double[] weights = new double[Signal.values().length];
  private final double total;

  private Mix(Map<Signal, Double> w) {
    double sum = 0;
    for (Map.Entry<Signal, Double> e : w.entrySet()) {
      weights[e.getKey().ordinal()] = e.getValue();
      sum += e.getValue();
    }
    total = sum;
  }

  /**
   * Parses {@code name=weight,...}; names are logs, traces, metrics; a signal not named has weight
   * 0.
   *
   * @throws IllegalArgumentException naming the bad part, if a name is unknown or repeated, a weight
   *     is not a finite number ≥ 0, or every weight is 0
   */
  static Mix parse(String text) {
    Map<Signal, Double> w = new EnumMap<>(Signal.class);
    for (String part : text.split(",")) {
      String p = part.strip();
      if (p.isEmpty()) continue;
      int eq = p.indexOf('=');
      if (eq < 0) throw new IllegalArgumentException("--mix: expected name=weight, got '" + p + "'");
      String name = p.substring(0, eq).strip();
      Signal s = null;
      for (Signal c : Signal.values()) {
        if (c.label.equals(name)) s = c;
      }
      if (s == null) throw new IllegalArgumentException("--mix: unknown signal '" + name + "' (logs, traces, metrics)");
      double v;
      try {
        v = Double.parseDouble(p.substring(eq + 1).strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--mix: weight of " + name + " is not a number: '" + p.substring(eq + 1) + "'");
      }
      if (!(v >= 0) || Double.isInfinite(v)) throw new IllegalArgumentException("--mix: weight of " + name + " must be ≥ 0");
      if (w.put(s, v) != null) throw new IllegalArgumentException("--mix: " + name + " given twice");
    }
    Mix m = new Mix(w);
    if (!(m.total > 0)) throw new IllegalArgumentException("--mix: every weight is 0");
    return m;
  }

  /** The weight of {@code s} as given (not normalised). */
  double weight(Signal s) {
    return weights[s.ordinal()];
  }

  /** Draws a signal in proportion to the weights. */
  Signal pick(SplittableRandom rnd) {
    double x = rnd.nextDouble() * total;
    Signal last = null;
    for (Signal s : Signal.values()) {
      if (weights[s.ordinal()] == 0) continue;
      last = s;
      x -= weights[s.ordinal()];
      if (x < 0) return s;
    }
    return last;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (Signal s : Signal.values()) {
      if (b.length() > 0) b.append(',');
      double v = weights[s.ordinal()];
      b.append(s.label).append('=').append(v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v));
    }
    return b.toString();
  }
}
