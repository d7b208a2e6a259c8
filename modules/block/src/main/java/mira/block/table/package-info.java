/**
 * Tables of a block being built: named column sets, the attribute table every level shares,
 * interned tables, and the rules for appending one table's rows to another (id rebasing by row
 * count or by an id sequence several tables share, translation through resource, scope and
 * interned-row de-duplication, dictionary translation).
 *
 * <p>Invariant: every id column is dense and block-local; after an append, a row's foreign keys
 * point at rows of the same block.
 */
package mira.block.table;
