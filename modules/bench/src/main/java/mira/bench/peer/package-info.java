/**
 * Mira and an embedded DuckDB measured side by side on the same corpus: {@link
 * mira.bench.peer.PeerCompare} copies a Mira data directory's logs and spans into flat DuckDB
 * tables through Mira's own block reader, then asks both the same query classes in alternation.
 *
 * <p>Invariant: the Mira data directory is only ever read (mapped read-only by the block reader,
 * queried through {@link mira.query.LocalQueries}); DuckDB's files live elsewhere. A class whose
 * two answers differ in row count, times or ids is reported as a mismatch, never as a timing.
 */
package mira.bench.peer;
