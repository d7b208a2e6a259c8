package mira.query.table;

import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;

/** Tables of an open block by file name ({@link mira.block.layout.TableFiles}), null when absent. */
public final class Tables {

  private Tables() {}

  /** The table, or null if the block has none (empty tables are not written). */
  public static TableView get(BlockReader r, String file) throws CorruptBlockException {
    return r.table(file).orElse(null);
  }

  /** Rows of the table, 0 if absent. */
  public static int rows(BlockReader r, String file) throws CorruptBlockException {
    TableView t = get(r, file);
    return t == null ? 0 : t.rows();
  }
}
