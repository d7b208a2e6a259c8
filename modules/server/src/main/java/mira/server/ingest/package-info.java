/**
 * The ingest pipeline: admission into per-signal shard queues, the flushers that build blocks, and
 * the acknowledgement of exports.
 *
 * <p>Invariant: an export is acknowledged only once it is durable (in the write-ahead log, or in a
 * published block when the log is off); everything else is told to retry or why it was refused.
 */
package mira.server.ingest;
