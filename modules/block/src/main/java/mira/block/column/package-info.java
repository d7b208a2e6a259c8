/**
 * Growable, truncatable columns on the Java heap, in Arrow's physical layout (little-endian values,
 * validity bits, int32 offsets), turned into Arrow buffers only when a block is sealed.
 *
 * <p>Why not Arrow's own vectors while accumulating: a request that fails half way must leave the
 * open block exactly as it was, and these columns roll back by truncation; appending a decoded
 * request is a bulk array copy; and a read-your-writes snapshot is a copy of arrays. Invariant:
 * after {@code truncate(n)} a column is indistinguishable from one that only ever had n values.
 */
package mira.block.column;
