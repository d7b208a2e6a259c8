package mira.query.doc;

/**
 * One condition of a document's {@code where} list; a row must satisfy all of them.
 */
public sealed interface Term {
  /**
   * An attribute at any level: the record or span, its resource, its scope, and for spans also
   * its events and links (a match on a child selects the span). {@code value} is the query scalar;
   * for {@link Op#EXISTS} it is a boolean saying whether the key must be present or absent.
   */
  record Attr(String key, Op op, Scalar value) implements Term {}

  /** A root column of the signal's table; for {@link Op#EXISTS}, whether the field is set. */
  record Field(RootField field, Op op, Scalar value) implements Term {}

  /** A substring of a log body, or of a span's name or status message. Case-sensitive. */
  record Text(String text) implements Term {}
}
