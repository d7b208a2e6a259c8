package mira.query.rows;

import mira.block.layout.ColumnNames;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.query.table.IntReader;

/**
 * The rows of a root table that are being read, and what they share: which rows are selected, the
 * resource and scope id columns, and the resources and scopes of just those rows.
 */
final class Selected {
  /** Indexed by row of the root table: true for the rows being read. */
  final boolean[] rows;
  final IntReader resourceId;
  final IntReader scopeId;
  final ResourceScopes envelopes;

  Selected(BlockReader r, TableView root, int[] rows, int n) throws CorruptBlockException {
    this.rows = new boolean[root.rows()];
    this.resourceId = IntReader.of(root.column(ColumnNames.RESOURCE_ID));
    this.scopeId = IntReader.of(root.column(ColumnNames.SCOPE_ID));
    boolean[] usedRes = new boolean[1 << 16];
    boolean[] usedScope = new boolean[1 << 16];
    for (int k = 0; k < n; k++) {
      this.rows[rows[k]] = true;
      usedRes[resourceId.getInt(rows[k])] = true;
      usedScope[scopeId.getInt(rows[k])] = true;
    }
    this.envelopes = new ResourceScopes(r, usedRes, usedScope);
  }
}
