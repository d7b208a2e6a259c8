package mira.block.table;

/**
 * How an id column changes when its table's rows are appended to another block's table.
 *
 * <p>{@link #ROWS} adds the row count of the table named by the column's {@code refTable} (the
 * table's own for a self id, the parent's for a parent_id). {@link #RESOURCE} and {@link #SCOPE}
 * translate through the resource / scope de-duplication map (UInt16 ids).
 */
public enum Rebase {
  NONE,
  ROWS,
  RESOURCE,
  SCOPE
}
