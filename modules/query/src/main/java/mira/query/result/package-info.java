/**
 * What the read operations answer, as records: rows (log records and spans with their resource and
 * scope), search pages, traces, stats, refused blocks, and the two errors a query can end in.
 * Rendering them as JSON is the job of {@code mira.query.render}; reading them back from JSON is
 * {@code mira.client}'s.
 *
 * <p>Invariant: a leaf; these types depend on nothing else in Mira, so every surface (HTTP, MCP,
 * the terminal UI, fan-out across replicas, alert evaluation) can hold them.
 */
package mira.query.result;
