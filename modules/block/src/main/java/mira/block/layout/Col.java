package mira.block.layout;

/**
 * One column of a table as stored: its name, its physical type and whether it may hold nulls.
 *
 * @param width the byte width of a {@link Kind#FIXED_BINARY} column (0 for the others)
 */
public record Col(String name, Kind kind, int width, boolean nullable) {
  /** Physical types of the columns Mira writes. */
  public enum Kind { U16, U32, I32, I64, TIMESTAMP_NS, FIXED_BINARY, UTF8, BINARY, DICT_UTF8 }

  static Col of(String name, Kind kind, boolean nullable) {
    return new Col(name, kind, 0, nullable);
  }

  static Col id(String name, int width, boolean nullable) {
    return new Col(name, Kind.FIXED_BINARY, width, nullable);
  }
}
