package mira.block.table;

/**
 * How an id column changes when its table's rows are appended to another block's table. Each
 * column carries a {@code ref} whose meaning depends on the rule.
 *
 * <p>{@link #ROWS} adds the row count of table {@code ref} (the table's own for a self id, the
 * parent's for a parent_id). {@link #RESOURCE} and {@link #SCOPE} translate through the resource /
 * scope de-duplication map (UInt16 ids). {@link #SEQUENCE} adds the open block's value of the
 * batch's id sequence {@code ref}: ids drawn from one space shared by several tables, such as the
 * metrics signal's point ids, which no single table's row count describes. {@link #INTERNED}
 * translates through the de-duplication map of the interned table {@code ref} (see
 * {@link Interner}), so a row appended to a block that already holds an equal interned row points
 * at that row.
 */
public enum Rebase {
  NONE,
  ROWS,
  RESOURCE,
  SCOPE,
  SEQUENCE,
  INTERNED
}
