/**
 * Columns of an opened block read straight from their Arrow buffers (integers, strings, ids,
 * booleans, dictionaries), attribute tables as semi-joins, and child rows grouped by parent.
 *
 * <p>Invariant: ids are dense and block-local, so every join is an array index, never a hash.
 */
package mira.query.table;
