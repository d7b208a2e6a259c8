package mira.block.layout;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One table as stored: its file name inside a block directory and its columns in file order.
 * The writers build their tables from it and the readers learn nullability from it, so the two
 * sides cannot drift apart.
 *
 * @param attributes whether the table has the shared attribute layout ({@link Layouts#attributes})
 */
public record TableLayout(String file, List<Col> columns, boolean attributes) {
  public TableLayout {
    columns = List.copyOf(columns);
    Set<String> seen = new HashSet<>();
    for (Col c : columns) {
      if (!seen.add(c.name())) {
        throw new IllegalArgumentException(file + " names column " + c.name() + " twice");
      }
    }
  }

  /** The column called {@code name}. */
  public Col column(String name) {
    for (Col c : columns) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException(file + " has no column " + name);
  }

  /** The names of the columns that never hold a null. */
  public Set<String> neverNull() {
    Set<String> out = new HashSet<>();
    for (Col c : columns) {
      if (!c.nullable()) {
        out.add(c.name());
      }
    }
    return Set.copyOf(out);
  }
}
