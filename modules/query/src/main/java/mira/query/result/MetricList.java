package mira.query.result;

import mira.query.result.Refused;
import mira.query.result.Stats;
import java.util.List;

/**
 * The answer of {@code GET /api/v1/metrics}, before rendering: the metrics with a data point in a
 * window.
 *
 * @param metrics one per distinct (name, type, unit, description), sorted by them in that order
 * @param stats what the scan cost (rows are data points; matched: points in the window)
 * @param refused damaged blocks that were skipped, by path
 */
public record MetricList(List<Metric> metrics, Stats stats, List<Refused> refused) {
  public MetricList {
    metrics = List.copyOf(metrics);
    refused = List.copyOf(refused);
  }


  /** A metric; {@code type} as responses spell it ("gauge", "sum", "histogram", ...). */
  public record Metric(String name, String type, String unit, String description) {}
}
