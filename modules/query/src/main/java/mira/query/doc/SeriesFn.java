package mira.query.doc;

import java.util.List;

/**
 * The functions part of a series document: align to a step, apply a function per step, group.
 *
 * @param step bucket width in ns (&gt; 0)
 * @param fn {@code "rate"}, {@code "increase"}, {@code "last"}, {@code "min"}, {@code "max"},
 *     {@code "avg"} or {@code "quantile"}
 * @param quantile the quantile asked for with {@code fn: "quantile"}, in [0, 1]; NaN otherwise
 * @param groupBy attribute keys (resource or point) to group by; null: no grouping (one output per
 *     stored series); empty: everything into one group
 * @param agg how the series of a group combine: {@code "sum"}, {@code "avg"}, {@code "min"},
 *     {@code "max"}, {@code "count"}
 * @param fromWindow true: the buckets start at the window's {@code from} instead of a multiple of
 *     the step (an alert rule's window is one step ending now); not reachable from a document
 */
public record SeriesFn(long step, String fn, double quantile, List<String> groupBy, String agg, boolean fromWindow) {
  public static final List<String> FNS = List.of("rate", "increase", "last", "min", "max", "avg", "quantile");
  public static final List<String> AGGS = List.of("sum", "avg", "min", "max", "count");

  public SeriesFn {
    groupBy = groupBy == null ? null : List.copyOf(groupBy);
  }

  /** Buckets on the grid of multiples of the step since the epoch. */
  public SeriesFn(long step, String fn, double quantile, List<String> groupBy, String agg) {
    this(step, fn, quantile, groupBy, agg, false);
  }

  /** This function with its buckets starting at the window's start. */
  public SeriesFn startingAtWindow() {
    return new SeriesFn(step, fn, quantile, groupBy, agg, true);
  }
}
