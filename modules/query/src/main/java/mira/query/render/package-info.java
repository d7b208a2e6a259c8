/**
 * Writing results as JSON at the edge: the one renderer of search pages, traces, rows, values,
 * stats and refused blocks ({@link mira.query.render.ResponseJson}).
 *
 * <p>Invariant: a rendered row is a shape a client can post back to the OTLP/JSON receiver, and
 * {@code mira.client} reads every rendered document back into the same records.
 */
package mira.query.render;
