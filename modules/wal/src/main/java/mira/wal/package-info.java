/**
 * The write-ahead log: it lets an export be acknowledged once its bytes are in the log (one
 * write, no fsync on that path) instead of once its block is published.
 *
 * <p>Invariants: a frame is believed only if its magic, version, length and CRC32C (over header and
 * body) all check; a frame's sequence stays pending until the block holding it is durably published;
 * a segment is deleted only when every frame in it is published; the log never appends after a torn
 * or damaged tail (a new segment starts at every open).
 */
package mira.wal;
