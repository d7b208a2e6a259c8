package mira.alert;

/**
 * One edge (or a repeat of one) as sent to a target.
 *
 * @param rule the rule
 * @param firing true: firing; false: resolved
 * @param outcome the evaluation that caused it
 * @param firingSince when the rule began firing, ns (for a resolve: when the incident began)
 * @param at when the evaluation ran, ns
 * @param filter the rule's terms in the filter-text grammar
 * @param link the UI view of those terms and the window, or null with no {@code link_base}
 * @param node the node that evaluated
 */
record Notice(Rule rule, boolean firing, Evaluation.Outcome outcome, long firingSince, long at, String filter,
    String link, String node) {

  String state() {
    return firing ? "firing" : "resolved";
  }

  /**
   * One line for humans: {@code checkout-errors is firing: 12 > 10 over 5m}, and when a node did not
   * answer {@code (PARTIAL: 2 of 3 nodes answered; ...)}, so every kind of target shows it.
   */
  String summary() {
    String v = Payloads.number(outcome.value());
    String line = (rule.above() ? " > " : " < ") + Payloads.number(rule.threshold());
    return rule.name() + (firing ? " is firing: " + v + line : " resolved: " + v + " (line" + line + ")")
        + " over " + RulesFile.spell(rule.over()) + (outcome.partial() == null ? "" : " (PARTIAL: " + outcome.partial() + ")");
  }
}
