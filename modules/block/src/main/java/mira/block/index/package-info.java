/**
 * Sidecar indexes of a block — {@code trace.idx}, {@code attr.idx}, {@code zone.idx} — built from
 * the batch at seal, published inside the block's atomic rename, and read on demand (never at
 * boot).
 *
 * <p>Invariant: an index may only err towards more work. Every answer is "no" (the block cannot
 * hold a match; skip it) or "maybe" (scan it); a block holding a match is never answered "no". A
 * file that is missing, short, foreign, of a newer version or fails its CRC is unknown, and unknown
 * answers "maybe" to everything.
 */
package mira.block.index;
