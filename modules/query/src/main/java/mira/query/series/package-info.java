/**
 * Metrics: names in a window, and series of points grouped by resource and point attributes,
 * with histograms and summaries read as {@code .count} and {@code .sum}.
 *
 * <p>Invariant: both caps (series, points per series) hold while scanning, so memory is bounded by
 * the caps and not by the store.
 */
package mira.query.series;
