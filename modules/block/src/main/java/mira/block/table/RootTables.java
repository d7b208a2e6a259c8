package mira.block.table;

import java.util.List;
import mira.block.column.Columns;
import mira.block.column.FixedColumn;
import mira.block.layout.Col;

/**
 * Builds a root table (logs, spans) from its layout: {@code id} numbers the rows of table
 * {@code rows}, {@code resource_id} and {@code scope_id} are rebased onto the shared tables.
 */
public final class RootTables {
  private RootTables() {}

  public static Table build(String file, List<Col> layout, int rows) {
    Table.Builder b = Table.builder(file);
    for (Col c : layout) {
      switch (c.name()) {
        case "id" -> b.addRows((FixedColumn) Columns.of(c), rows);
        case "resource_id" -> b.add(Columns.of(c), Rebase.RESOURCE, -1);
        case "scope_id" -> b.add(Columns.of(c), Rebase.SCOPE, -1);
        default -> b.add(Columns.of(c));
      }
    }
    return b.build();
  }
}
