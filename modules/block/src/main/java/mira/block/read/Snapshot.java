package mira.block.read;

import mira.block.catalog.BlockRef;
import mira.block.table.Batch;

/**
 * A copy of an open (not yet published) block, for read-your-writes: {@code ref} names it as the
 * block it will be published as (same node and sequence, so a cursor into it stays valid after the
 * seal), under a directory that does not exist.
 *
 * @param batch a private deep copy; readers may keep it while they read
 */
public record Snapshot(BlockRef ref, Batch batch) {}
