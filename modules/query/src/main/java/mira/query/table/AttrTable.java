package mira.query.table;

import mira.block.layout.ColumnNames;
import mira.block.read.TableView;
import mira.block.table.Attributes;
import mira.query.doc.Op;
import mira.query.match.ValueMatcher;

/**
 * One attribute table (any level: they share {@link Attributes}' layout) opened for filtering and
 * rendering. A term over it is a semi-join: one pass over the rows whose key matches, marking the
 * parent ids whose value satisfies the term in a boolean array indexed by parent id. Parent ids
 * are dense and block-local, so no hash set is involved.
 */
public final class AttrTable {
  private final int rows;
  private final IntReader parent;
  private final DictReader key;
  private final IntReader type;
  private final VarReader str;
  private final IntReader i64;
  private final IntReader f64;
  private final BoolReader bool;
  private final VarReader bytes;
  private final VarReader ser;

  private AttrTable(TableView t) {
    this.rows = t == null ? 0 : t.rows();
    this.parent = IntReader.of(t == null ? null : t.column(ColumnNames.PARENT_ID));
    this.key = DictReader.of(t, ColumnNames.KEY);
    this.type = IntReader.of(t == null ? null : t.column(ColumnNames.TYPE));
    this.str = VarReader.of(t, ColumnNames.STR);
    this.i64 = IntReader.of(t == null ? null : t.column(ColumnNames.INT));
    this.f64 = IntReader.of(t == null ? null : t.column(ColumnNames.DOUBLE));
    this.bool = BoolReader.of(t == null ? null : t.column(ColumnNames.BOOL));
    this.bytes = VarReader.of(t == null ? null : t.column(ColumnNames.BYTES));
    this.ser = VarReader.of(t == null ? null : t.column(ColumnNames.SER));
  }

  /** The table, or an empty one for null (a block with no such file). */
  public static AttrTable of(TableView t) {
    return new AttrTable(t);
  }

  public int rows() {
    return rows;
  }

  public IntReader parent() {
    return parent;
  }

  public DictReader key() {
    return key;
  }

  public int type(int j) {
    return type.getInt(j);
  }

  public VarReader str() {
    return str;
  }

  public IntReader i64() {
    return i64;
  }

  public IntReader f64() {
    return f64;
  }

  public BoolReader bool() {
    return bool;
  }

  public VarReader bytes() {
    return bytes;
  }

  public VarReader ser() {
    return ser;
  }

  /**
   * Marks {@code marks[parent]} for every row whose key is {@code key} and whose value satisfies
   * {@code m} (for exists, any value). Parents outside {@code marks} are ignored.
   *
   * @return false if this table holds no such key at all (nothing was marked)
   */
  public boolean mark(byte[] keyUtf8, ValueMatcher m, boolean[] marks, Scratch s) {
    if (rows == 0) {
      return false;
    }
    boolean[] keys = key.entriesEqualTo(keyUtf8, s);
    if (keys == null) {
      return false;
    }
    // Equality on a stored string is byte equality with the query's text (ValueMatcher.str), which
    // is decided in place: most rows differ in the first byte or the length, and are not copied.
    byte[] eqText = m.op() == Op.EQ ? m.text() : null;
    for (int j = 0; j < rows; j++) {
      if (!keys[key.index(j)]) {
        continue;
      }
      int p = parent.getInt(j);
      if (p < 0 || p >= marks.length || marks[p]) {
        continue;
      }
      boolean hit = eqText != null && type.getInt(j) == Attributes.TYPE_STR ? str.equalsAt(j, eqText) : matches(j, m, s);
      if (hit) {
        marks[p] = true;
      }
    }
    return true;
  }

  /** Whether row {@code j}'s value satisfies {@code m}, dispatching on the stored type. */
  public boolean matches(int j, ValueMatcher m, Scratch s) {
    switch (type.getInt(j)) {
      case Attributes.TYPE_STR: {
        int len = str.copy(j, s);
        return m.str(s.buf(), 0, len);
      }
      case Attributes.TYPE_INT:
        return m.i64(i64.get(j));
      case Attributes.TYPE_DOUBLE:
        return m.f64(Double.longBitsToDouble(f64.get(j)));
      case Attributes.TYPE_BOOL:
        return m.bool(bool.get(j));
      case Attributes.TYPE_BYTES: {
        int len = bytes.copy(j, s);
        return m.bytes(s.buf(), 0, len);
      }
      default:
        return m.structured();
    }
  }
}
