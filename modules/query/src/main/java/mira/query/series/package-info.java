/**
 * Metrics: names in a window, and series of points grouped by resource and point attributes,
 * with histograms and summaries read as {@code .count} and {@code .sum}; step functions over them
 * (rate, increase, last, min, max, avg, including a histogram's sum / count, and quantiles of explicit and
 * exponential histograms and of summaries), grouping and aggregation. Results are
 * typed ({@code mira.query.result.SeriesResult}, {@code mira.query.result.MetricList}); JSON is written by
 * {@code mira.query.render.SeriesJson}.
 *
 * <p>Invariant: both caps (series, points per series) hold while scanning, so memory is bounded by
 * the caps and not by the store; with a function the scan holds at most the hard limits and the
 * caps apply to the function's output.
 */
package mira.query.series;
