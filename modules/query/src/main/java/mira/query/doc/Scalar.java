package mira.query.doc;

import java.nio.charset.StandardCharsets;
import mira.block.table.CanonicalText;

/**
 * A scalar from a query document, keeping the JSON type it was written with: a quoted value is a
 * {@link Kind#STRING} even when it reads as a number, because the comparison rules treat the two
 * differently for ordering (docs/api.md, "How values compare").
 *
 * @param kind the JSON type
 * @param text the canonical text: the string itself, an integer in decimal, a double as
 *     {@link CanonicalText#ofDouble}, {@code true}/{@code false}
 * @param longValue the value of an {@link Kind#INT}
 * @param doubleValue the value of a {@link Kind#DOUBLE} (also set for INT)
 * @param bool the value of a {@link Kind#BOOL}
 */
public record Scalar(Kind kind, String text, long longValue, double doubleValue, boolean bool) {
  /** The JSON type of a scalar. */
  public enum Kind { STRING, INT, DOUBLE, BOOL }

  public static Scalar string(String s) {
    return new Scalar(Kind.STRING, s, 0, 0, false);
  }

  public static Scalar integer(long v) {
    return new Scalar(Kind.INT, Long.toString(v), v, v, false);
  }

  public static Scalar dbl(double v) {
    return new Scalar(Kind.DOUBLE, CanonicalText.ofDouble(v), 0, v, false);
  }

  public static Scalar bool(boolean v) {
    return new Scalar(Kind.BOOL, Boolean.toString(v), 0, 0, v);
  }

  /** True for INT and DOUBLE (an unquoted number). */
  public boolean isNumber() {
    return kind == Kind.INT || kind == Kind.DOUBLE;
  }

  /** The canonical text as UTF-8. */
  public byte[] utf8() {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** As the document would spell it, for messages. */
  @Override
  public String toString() {
    return kind == Kind.STRING ? '"' + text + '"' : text;
  }
}
