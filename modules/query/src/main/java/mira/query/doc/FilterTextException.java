package mira.query.doc;

import mira.query.result.QueryException;

/** A filter text that does not parse; the message names the token, {@link #column} says where. */
public final class FilterTextException extends QueryException {
  private final int column;

  /** @param column 1-based, in UTF-16 units of the text */
  public FilterTextException(int column, String message) {
    super("q: column " + column + ": " + message);
    this.column = column;
  }

  /** Where the offending token starts, 1-based. */
  public int column() {
    return column;
  }
}
