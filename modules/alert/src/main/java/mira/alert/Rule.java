package mira.alert;

import java.util.List;
import java.util.Map;
import mira.proto.wire.Signal;
import mira.query.doc.Term;

/**
 * One alert rule, checked at load.
 *
 * @param name unique in the file; PagerDuty's dedup key and Alertmanager's alertname
 * @param kind what one evaluation computes
 * @param signal logs or traces for a count or ratio; metrics for a metric rule
 * @param where the query's terms (count and ratio: the numerator; metric: the series terms)
 * @param of the denominator's terms (ratio only; else null)
 * @param ofSignal the denominator's signal (ratio only; else null)
 * @param series a metric rule's series document without its window (a JSON object's members),
 *     e.g. {@code "name":"queue.depth","fn":"max"}; null otherwise
 * @param over the window each evaluation reads, ending at the evaluation, ns
 * @param every how often the rule is evaluated, ns
 * @param hold {@code for}: how long a breach must be sustained before firing, ns (0: first breach)
 * @param repeat while firing, how often the targets are told again, ns
 * @param above true: a value above {@code threshold} breaches; false: below
 * @param threshold the line
 * @param labels attached to every delivery (Alertmanager labels, PagerDuty severity)
 * @param targets names of the targets told of each edge
 */
public record Rule(String name, Kind kind, Signal signal, List<Term> where, List<Term> of, Signal ofSignal,
    String series, long over, long every, long hold, long repeat, boolean above, double threshold,
    Map<String, String> labels, List<String> targets) {

  public Rule {
    where = List.copyOf(where);
    of = of == null ? null : List.copyOf(of);
    labels = Map.copyOf(labels);
    targets = List.copyOf(targets);
  }

  /** What an evaluation computes. */
  public enum Kind {
    /** The number of matching records in the window. */
    COUNT,
    /** matching(query) / matching(of), in the window. */
    RATIO,
    /** A series function over the window, one step. */
    METRIC
  }

  /** True if {@code value} is on the wrong side of the line. */
  public boolean breached(double value) {
    return above ? value > threshold : value < threshold;
  }
}
