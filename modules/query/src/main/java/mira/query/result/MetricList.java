package mira.query.result;

import mira.query.result.Refused;
import mira.query.result.Stats;
import java.util.List;

/**
 * The answer of {@code GET /api/v1/metrics}, before rendering: the metrics with a data point in a
 * window.
 *
 * @param metrics one per distinct (name, type, unit, description, temporality, monotonic), sorted by
 *     them in that order (null temporality and monotonic first)
 * @param stats what the scan cost (rows are data points; matched: points in the window)
 * @param refused damaged blocks that were skipped, by path
 */
public record MetricList(List<Metric> metrics, Stats stats, List<Refused> refused) {
  public MetricList {
    metrics = List.copyOf(metrics);
    refused = List.copyOf(refused);
  }


  /**
   * A metric.
   *
   * @param type as responses spell it ("gauge", "sum", "histogram", ...)
   * @param temporality "delta", "cumulative" or "unspecified" for sums and both kinds of
   *     histogram; null for gauges and summaries, which have none
   * @param monotonic whether a sum is monotonic; null for every other type
   * @param attributeKeys the data point attribute keys seen on its points in the window, sorted
   * @param bounds for an explicit-bucket histogram, each distinct array of bucket bounds its points
   *     in the window carried, sorted element by element; empty otherwise
   */
  public record Metric(String name, String type, String unit, String description, String temporality,
      Boolean monotonic, List<String> attributeKeys, List<List<Double>> bounds) {
    public Metric {
      attributeKeys = List.copyOf(attributeKeys);
      bounds = bounds.stream().map(List::copyOf).toList();
    }

    /** A metric with no temporality, monotonicity, attribute keys or bounds. */
    public Metric(String name, String type, String unit, String description) {
      this(name, type, unit, description, null, null, List.of(), List.of());
    }
  }
}
