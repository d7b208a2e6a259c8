package mira.block.table;

import java.util.HashMap;
import java.util.Map;
import mira.block.column.Columns;
import mira.block.layout.Col;
import mira.block.layout.ColumnNames;
import mira.block.layout.TableLayout;

/**
 * Builds a write-side {@link Table} from its {@link TableLayout}: every column's name, type and
 * nullability come from the layout; the writer adds only how id columns change when batches are
 * appended ({@link Role}).
 */
public final class LayoutTables {
  private LayoutTables() {}

  /** How one column's values are rebased on append (see {@link Rebase}); columns without a role have none. */
  public record Role(String column, Rebase rebase, int ref) {
    /** Ids offset by the row count of table {@code table}. */
    public static Role rows(String column, int table) {
      return new Role(column, Rebase.ROWS, table);
    }

    /** Ids drawn from the batch's id sequence {@code sequence}. */
    public static Role sequence(String column, int sequence) {
      return new Role(column, Rebase.SEQUENCE, sequence);
    }

    /** Ids of rows of the interned table {@code table}. */
    public static Role interned(String column, int table) {
      return new Role(column, Rebase.INTERNED, table);
    }

    /** A resource or scope id, mapped onto the shared table. */
    public static Role shared(String column, Rebase rebase) {
      return new Role(column, rebase, -1);
    }
  }

  public static Table build(TableLayout layout, Role... roles) {
    Map<String, Role> byColumn = new HashMap<>();
    for (Role r : roles) {
      layout.column(r.column()); // refuses a role for a column the layout does not have
      if (byColumn.put(r.column(), r) != null) {
        throw new IllegalArgumentException(layout.file() + ": two roles for " + r.column());
      }
    }
    Table.Builder b = Table.builder(layout.file());
    if (layout.attributes()) {
      b.attributeLayout();
    }
    for (Col c : layout.columns()) {
      Role r = byColumn.get(c.name());
      b.add(Columns.of(c), r == null ? Rebase.NONE : r.rebase(), r == null ? -1 : r.ref());
    }
    return b.build();
  }

  /** A logs or spans table: ids number its own rows, resource and scope ids point into the shared tables. */
  public static Table root(TableLayout layout, int table) {
    return build(layout, Role.rows(ColumnNames.ID, table), Role.shared(ColumnNames.RESOURCE_ID, Rebase.RESOURCE),
        Role.shared(ColumnNames.SCOPE_ID, Rebase.SCOPE));
  }
}
