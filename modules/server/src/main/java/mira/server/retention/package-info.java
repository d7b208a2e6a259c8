/**
 * The node's retention thread: removes blocks past {@code retention.ttl}, moves old blocks into the
 * cold tier, and reports a sweep that has stalled (to the log and to {@code /api/v1/stats}).
 *
 * <p>Invariant: one sweep at a time per node; a failed sweep is logged and the next interval tries
 * again, so retention never stops silently.
 */
package mira.server.retention;
