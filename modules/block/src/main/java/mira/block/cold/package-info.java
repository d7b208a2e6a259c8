/**
 * The cold tier: blocks whose newest record is over an hour old are rewritten table by table with
 * ZSTD body compression. Compression and zero-copy reads are exclusive per file (a compressed body
 * is inflated into the heap on read), so hot blocks stay uncompressed and mapped.
 *
 * <p>Invariant: a table is replaced by renaming a complete, fsynced, checksummed file over it, never
 * by truncating or writing in place (a reader may have the old file mapped); the block's
 * {@code cold} marker is written last, so an interrupted block is finished by the next sweep.
 */
package mira.block.cold;
