package mira.block.layout;

/**
 * One column of a table as stored: its name, its physical type and whether it may hold nulls.
 *
 * @param width the byte width of a {@link Kind#FIXED_BINARY} column (0 for the others)
 * @param deduplicated whether a block may store the column's distinct values once, with a per-row
 *     index into them (a {@code Dictionary<Int32, Utf8>} field, since layout version 2), where that
 *     saves bytes; readers take the field as they find it
 * @param omittable whether a block may leave the column out of the file when no row has a value in
 *     it (readers read a missing column as all null)
 */
public record Col(String name, Kind kind, int width, boolean nullable, boolean omittable, boolean deduplicated) {
  /** Physical types of the columns Mira writes. */
  public enum Kind {
    U8, U16, U32, U64, I32, I64, F64, BOOL, TIMESTAMP_NS, FIXED_BINARY, UTF8, BINARY, DICT_UTF8,
    /** A list of non-null UInt64 items named {@link ColumnNames#ITEM}. */
    LIST_U64,
    /** A list of non-null Float64 items named {@link ColumnNames#ITEM}. */
    LIST_F64
  }

  static Col of(String name, Kind kind, boolean nullable) {
    return new Col(name, kind, 0, nullable, false, false);
  }

  static Col id(String name, int width, boolean nullable) {
    return new Col(name, Kind.FIXED_BINARY, width, nullable, false, false);
  }

  /** A nullable column a block leaves out when it holds no value. */
  static Col omittable(String name, Kind kind) {
    return new Col(name, kind, 0, true, true, false);
  }

  /** A nullable Utf8 column a block may store as a dictionary of its distinct values. */
  static Col text(String name) {
    return new Col(name, Kind.UTF8, 0, true, false, true);
  }
}
