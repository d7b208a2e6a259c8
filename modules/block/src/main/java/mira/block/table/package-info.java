/**
 * Tables of a block being built: named column sets, the attribute table every level shares, and
 * the rules for appending one table's rows to another (id rebasing, dictionary translation).
 *
 * <p>Invariant: every id column is dense and block-local; after an append, a row's foreign keys
 * point at rows of the same block.
 */
package mira.block.table;
