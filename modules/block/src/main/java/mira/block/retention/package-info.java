/**
 * Retention: removing blocks whose newest record is older than the configured time to live.
 *
 * <p>Invariant: a block disappears from the catalogue atomically (renamed into the signal's
 * {@code .trash} directory, then deleted), so a crash mid-delete never leaves a block with some of
 * its tables missing. Readers holding a block's files keep reading them after the unlink.
 */
package mira.block.retention;
