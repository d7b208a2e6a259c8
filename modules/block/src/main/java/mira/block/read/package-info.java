/**
 * Reading published blocks (found through {@code mira.block.catalog}): opened blocks, whose tables are memory-mapped and read as Arrow vectors pointing into the
 * mapping ({@link mira.block.read.MappedBlockReader}), each verified by its CRC32C before any
 * vector is handed out.
 *
 * <p>Invariant: a published block is never modified, so readers need no lock; a reader that has a
 * block open keeps reading correct data even if retention unlinks the directory meanwhile.
 */
package mira.block.read;
