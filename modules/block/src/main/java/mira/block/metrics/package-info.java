/**
 * Metrics: the block layout of the metrics signal — metrics, four point tables sharing one point id
 * space, interned histogram bounds, exemplars — and the decoder from OTLP wire bytes into it.
 *
 * <p>Invariant: a decoded batch holds every field of every metric, data point and exemplar exactly
 * once, and point ids 0..records()-1 in decode order; a malformed export raises an exception naming
 * the field and leaves no batch behind.
 */
package mira.block.metrics;
