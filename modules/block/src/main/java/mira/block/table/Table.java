package mira.block.table;

import java.util.ArrayList;
import java.util.List;
import mira.block.column.Column;
import mira.block.column.DictColumn;
import mira.block.column.FixedColumn;

/**
 * A named set of equally long columns, written as one Arrow IPC file ({@link #file()}).
 *
 * <p>Columns that hold ids carry a {@link Rebase} rule and the {@code ref} it needs (for
 * {@link Rebase#ROWS} the index of the table whose row count they are offset by), so appending a
 * batch is generic over signals.
 */
public final class Table {
  private final String file;
  private final Column[] columns;
  private final Rebase[] rebase;
  /** Per column: the table, sequence or interned table its {@link Rebase} rule refers to. */
  private final int[] ref;
  /** True if the table has the shared attribute layout ({@link Attributes}). */
  private final boolean attributes;

  private Table(String file, Column[] columns, Rebase[] rebase, int[] ref, boolean attributes) {
    this.file = file;
    this.columns = columns;
    this.rebase = rebase;
    this.ref = ref;
    this.attributes = attributes;
  }

  /** Starts a table definition. */
  public static Builder builder(String file) {
    return new Builder(file);
  }

  /** Collects columns in file order. */
  public static final class Builder {
    private final String file;
    private final List<Column> columns = new ArrayList<>();
    private final List<Rebase> rebase = new ArrayList<>();
    private final List<Integer> ref = new ArrayList<>();
    private boolean attributes;

    private Builder(String file) {
      this.file = file;
    }

    /**
     * Marks the table as having the shared attribute layout. Only {@link Attributes#table} calls
     * it; the sidecar indexes find every attribute level of a block by this mark.
     */
    Builder attributeLayout() {
      this.attributes = true;
      return this;
    }

    public Builder add(Column c) {
      return add(c, Rebase.NONE, -1);
    }

    /** Adds a UInt32 id column offset by the row count of table {@code refTable} on append. */
    public Builder addRows(FixedColumn c, int refTable) {
      return add(c, Rebase.ROWS, refTable);
    }

    /** Adds a UInt32 id drawn from the batch's id sequence {@code sequence} (see {@link Rebase#SEQUENCE}). */
    public Builder addSequence(FixedColumn c, int sequence) {
      return add(c, Rebase.SEQUENCE, sequence);
    }

    /** Adds a UInt32 id of a row of the interned table {@code internedTable} (see {@link Rebase#INTERNED}). */
    public Builder addInterned(FixedColumn c, int internedTable) {
      return add(c, Rebase.INTERNED, internedTable);
    }

    /** Adds a column with rebase rule {@code r}; {@code ref} is what the rule refers to (see {@link Rebase}). */
    public Builder add(Column c, Rebase r, int ref) {
      columns.add(c);
      rebase.add(r);
      this.ref.add(ref);
      return this;
    }

    public Table build() {
      int[] refs = new int[ref.size()];
      for (int i = 0; i < refs.length; i++) {
        refs[i] = ref.get(i);
      }
      return new Table(file, columns.toArray(Column[]::new), rebase.toArray(Rebase[]::new), refs, attributes);
    }
  }

  /** The file name inside a block directory, e.g. {@code logs.arrow}. */
  public String file() {
    return file;
  }

  /**
   * True if this table has the shared attribute layout ({@link Attributes}): one key-value pair
   * per row, whatever level it belongs to.
   */
  public boolean isAttributes() {
    return attributes;
  }

  public int rows() {
    return columns.length == 0 ? 0 : columns[0].size();
  }

  public Column[] columns() {
    return columns;
  }

  public Column column(int i) {
    return columns[i];
  }

  /** The column called {@code name}; throws if absent (a programming error). */
  public Column column(String name) {
    for (Column c : columns) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException("no column " + name + " in " + file);
  }

  public long byteSize() {
    long n = 0;
    for (Column c : columns) {
      n += c.byteSize();
    }
    return n;
  }

  /** Heap bytes held by this table's columns, used or not. */
  void capacities(mira.block.column.Capacities out) {
    for (Column c : columns) {
      c.capacities(out);
    }
  }

  void reserve(mira.block.column.Capacities in) {
    for (Column c : columns) {
      c.reserve(in);
    }
  }

  public long capacityBytes() {
    long n = 0;
    for (Column c : columns) {
      n += c.capacityBytes();
    }
    return n;
  }

  /** Every row holds the same number of values in each column (checked after decoding). */
  public void checkRectangular() {
    int r = rows();
    for (Column c : columns) {
      if (c.size() != r) {
        throw new IllegalStateException(file + "." + c.name() + " has " + c.size() + " values, table has " + r);
      }
    }
  }

  /** Dictionary values this table lacks from {@code other}, worst column first. */
  int dictionaryOverflow(Table other) {
    int worst = 0;
    for (int i = 0; i < columns.length; i++) {
      if (columns[i] instanceof DictColumn d) {
        DictColumn od = (DictColumn) other.columns[i];
        int over = d.entries() + d.missing(od) - DictColumn.CAPACITY;
        worst = Math.max(worst, over);
      }
    }
    return worst;
  }

  /** Appends rows {@code [from, to)} of {@code other} (same layout), rebasing id columns by {@code plan}. */
  void appendRange(Table other, int from, int to, AppendPlan plan) {
    for (int i = 0; i < columns.length; i++) {
      Column c = columns[i];
      int at = c.size();
      c.appendRange(other.columns[i], from, to);
      switch (rebase[i]) {
        case NONE -> { }
        case ROWS -> offset((FixedColumn) c, at, plan.rowsBefore()[ref[i]]);
        case SEQUENCE -> offset((FixedColumn) c, at, plan.sequencesBefore()[ref[i]]);
        case RESOURCE -> ((FixedColumn) c).remap(at, plan.resourceMap());
        case SCOPE -> ((FixedColumn) c).remap(at, plan.scopeMap());
        case INTERNED -> ((FixedColumn) c).remap(at, plan.internMaps()[ref[i]]);
      }
    }
  }

  private static void offset(FixedColumn c, int at, int delta) {
    if (delta != 0) {
      c.addToInts(at, delta);
    }
  }

  void truncate(int rows, int[] dictEntries) {
    int d = 0;
    for (Column c : columns) {
      if (c instanceof DictColumn dc) {
        dc.truncate(rows, dictEntries[d++]);
      } else {
        c.truncate(rows);
      }
    }
  }

  int[] dictionaryEntries() {
    int n = 0;
    for (Column c : columns) {
      if (c instanceof DictColumn) {
        n++;
      }
    }
    int[] out = new int[n];
    int d = 0;
    for (Column c : columns) {
      if (c instanceof DictColumn dc) {
        out[d++] = dc.entries();
      }
    }
    return out;
  }

  /** Drops every row and dictionary value, keeping capacity. */
  void clear() {
    for (Column c : columns) {
      if (c instanceof DictColumn dc) {
        dc.truncate(0, 0);
      } else {
        c.truncate(0);
      }
    }
  }

  /** An empty table with the same layout. */
  Table emptyLike() {
    Column[] cs = new Column[columns.length];
    for (int i = 0; i < cs.length; i++) {
      cs[i] = columns[i].emptyLike();
    }
    return new Table(file, cs, rebase, ref, attributes);
  }

  /** A deep copy of the current rows. */
  Table copy() {
    Column[] cs = new Column[columns.length];
    int r = rows();
    for (int i = 0; i < cs.length; i++) {
      cs[i] = columns[i].copy(r);
    }
    return new Table(file, cs, rebase, ref, attributes);
  }
}
