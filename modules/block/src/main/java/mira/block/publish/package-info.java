/**
 * Writing a sealed block: each table as an Arrow IPC file with a CRC32C of its body in the footer,
 * into a staging directory unique to the block's content, then one atomic rename into place.
 *
 * <p>Invariant: a block directory is either absent or complete and durable. The fsync chain is
 * files, staging directory, rename, partition directory, signal directory; a publish that fails
 * anywhere leaves no visible block.
 */
package mira.block.publish;
