package mira.query.series;

import mira.block.metrics.MetricsBatch;

/** Names of metrics.type values as responses spell them. */
final class MetricTypes {
  private MetricTypes() {}

  static String name(int type) {
    return switch (type) {
      case MetricsBatch.TYPE_GAUGE -> "gauge";
      case MetricsBatch.TYPE_SUM -> "sum";
      case MetricsBatch.TYPE_HISTOGRAM -> "histogram";
      case MetricsBatch.TYPE_EXPONENTIAL_HISTOGRAM -> "exponential_histogram";
      case MetricsBatch.TYPE_SUMMARY -> "summary";
      default -> "none";
    };
  }

  /** Histograms and summaries, which read as {@code <name>.count} and {@code <name>.sum}. */
  static boolean derived(int type) {
    return type == MetricsBatch.TYPE_HISTOGRAM || type == MetricsBatch.TYPE_EXPONENTIAL_HISTOGRAM
        || type == MetricsBatch.TYPE_SUMMARY;
  }
}
