package mira.block.table;

/**
 * What appending one batch to an open block changes about ids, worked out before any row moves.
 *
 * @param rowsBefore the block's row count of every table, by table index
 * @param sequencesBefore the block's value of every id sequence, by sequence index
 * @param resourceMap the batch's resource id → the block's
 * @param scopeMap the batch's scope id → the block's
 * @param internMaps by table index: for an interned table, the batch's row id → the block's;
 *     null for every other table
 */
record AppendPlan(int[] rowsBefore, int[] sequencesBefore, int[] resourceMap, int[] scopeMap, int[][] internMaps) {}
