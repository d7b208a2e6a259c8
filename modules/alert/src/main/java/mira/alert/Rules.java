package mira.alert;

import java.util.List;
import java.util.Map;

/**
 * A loaded rules file: every rule checked, every target a rule names defined.
 *
 * @param rules in file order
 * @param targets by name, in file order
 * @param source the file they were read from (for messages), or a label
 */
public record Rules(List<Rule> rules, Map<String, Target> targets, String source) {
  public Rules {
    rules = List.copyOf(rules);
    targets = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(targets));
  }

  /** No rules: alerting off. */
  public static final Rules NONE = new Rules(List.of(), Map.of(), "");

  @Override
  public String toString() {
    return rules.size() + " rules, " + targets.size() + " targets from " + source;
  }
}
