package mira.block.read;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;

/**
 * One table of an opened block. Columns are found by name, so a block written before a column
 * existed still reads (the column is simply absent). Valid until the block is closed.
 */
public interface TableView {
  /** Rows in the table. */
  int rows();

  /** The column called {@code name}, or null if this block's table has none. */
  FieldVector column(String name);

  /**
   * For a dictionary-encoded column, the vector of its dictionary values (the column itself holds
   * the indices); null if the column is absent or not dictionary-encoded.
   */
  ValueVector dictionary(String name);
}
