/**
 * The catalogue of published blocks: which blocks exist, read from directory names alone
 * ({@link mira.block.catalog.BlockName}, {@link mira.block.catalog.Catalog}), and whether a block
 * is cold ({@link mira.block.catalog.ColdMarker}). Writers, readers, the compactor and retention
 * all use it; it uses none of them.
 *
 * <p>Invariant: the filesystem is the catalogue; a name, once published, describes the block's
 * contents (time range, node, sequence, log position) for as long as the block exists.
 */
package mira.block.catalog;
