package mira.block.layout;

/**
 * One column of a table as stored: its name, its physical type and whether it may hold nulls.
 *
 * @param width the byte width of a {@link Kind#FIXED_BINARY} column (0 for the others)
 * @param omittable whether a block may leave the column out of the file when no row has a value in
 *     it (readers read a missing column as all null)
 */
public record Col(String name, Kind kind, int width, boolean nullable, boolean omittable) {
  /** Physical types of the columns Mira writes. */
  public enum Kind {
    U8, U16, U32, U64, I32, I64, F64, BOOL, TIMESTAMP_NS, FIXED_BINARY, UTF8, BINARY, DICT_UTF8,
    /** A list of non-null UInt64 items named {@link ColumnNames#ITEM}. */
    LIST_U64,
    /** A list of non-null Float64 items named {@link ColumnNames#ITEM}. */
    LIST_F64
  }

  static Col of(String name, Kind kind, boolean nullable) {
    return new Col(name, kind, 0, nullable, false);
  }

  static Col id(String name, int width, boolean nullable) {
    return new Col(name, Kind.FIXED_BINARY, width, nullable, false);
  }

  /** A nullable column a block leaves out when it holds no value. */
  static Col omittable(String name, Kind kind) {
    return new Col(name, kind, 0, true, true);
  }
}
