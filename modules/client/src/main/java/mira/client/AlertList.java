package mira.client;

import java.util.List;

/**
 * The answer of {@code GET /api/v1/alerts} (docs/alerting.md), as far as a reader of the rules
 * needs it: each rule's state, its last value against its line, and the filter and window that
 * return the rows it counted.
 *
 * @param enabled false when the node runs no rules (then {@code alerts} is empty)
 * @param reloadError why the last reload failed, or null
 */
public record AlertList(boolean enabled, String reloadError, List<Alert> alerts) {
  public AlertList {
    alerts = List.copyOf(alerts);
  }

  /**
   * One rule.
   *
   * @param kind {@code count}, {@code ratio} or {@code metric}
   * @param signal {@code logs}, {@code traces} or {@code metrics}
   * @param state {@code ok}, {@code pending}, {@code firing} or {@code error}
   * @param since when the state began (RFC 3339), or null before the first evaluation
   * @param value the last successful evaluation's value, or null
   * @param above whether the rule fires above {@code threshold} (else below it)
   * @param over the rule's window length as written ({@code "5m"})
   * @param filter the rule's terms in the filter-text grammar
   * @param ofFilter a ratio's denominator terms, or null
   * @param windowFrom the last evaluated window's start (RFC 3339), or null before one
   * @param windowTo its end, inclusive, or null
   * @param error why the last evaluation failed, or null
   */
  public record Alert(String name, String kind, String signal, String state, String since, Double value, boolean above,
      double threshold, String over, String filter, String ofFilter, String windowFrom, String windowTo, String error) {}
}
