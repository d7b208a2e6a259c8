package mira.proto.json;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Numbers spelled as JSON strings, and numbers whose JSON spelling is a fraction or an exponent.
 * Failures are {@link IllegalArgumentException}s whose message is ready for a client.
 */
final class NumberText {
  /** More than any double or 64-bit integer needs; longer strings are refused unparsed. */
  private static final int MAX_CHARS = 64;

  /** Quoted client text is cut here, so an error message never grows with the body. */
  private static final int MAX_QUOTED_CHARS = 64;

  private NumberText() {}

  /**
   * Parses an integer written as a string: plain decimal on the fast path; otherwise any decimal
   * number with an integral value ("1e3", "5.0"), as protobuf's own JSON parser accepts.
   */
  static long parseInteger(String text, IntegerType type) {
    if (text.length() > MAX_CHARS) {
      throw new IllegalArgumentException(quote(text) + " is not " + type.article());
    }
    try {
      return type.check(Long.parseLong(text));
    } catch (NumberFormatException e) {
      // Beyond the long range or not plain digits; BigDecimal decides which.
    }
    if (!isDecimal(text)) {
      throw new IllegalArgumentException(quote(text) + " is not " + type.article());
    }
    BigDecimal d;
    try {
      d = new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(quote(text) + " is not " + type.article());
    }
    return type.check(integral(d));
  }

  /**
   * The integer a decimal number equals, or {@link IllegalArgumentException} for a fraction. The
   * checks run on scale and precision before any BigInteger is built, because "1e999999999" is
   * twelve characters that would otherwise expand into a billion digits.
   */
  static BigInteger integral(BigDecimal d) {
    if (d.signum() == 0) return BigInteger.ZERO;
    BigDecimal s = d.stripTrailingZeros();
    if (s.scale() > 0) {
      throw new IllegalArgumentException(clip(d.toString()) + " is not an integer");
    }
    // precision - scale is the number of integer digits; 2^64 has 20.
    if ((long) s.precision() - s.scale() > 20) {
      throw new IllegalArgumentException(
          clip(d.toString()) + " is out of range for a 64-bit integer");
    }
    return s.toBigIntegerExact();
  }

  /** Parses a double written as a string: a JSON-style number, "NaN", "Infinity" or "-Infinity". */
  static double parseDouble(String text) {
    switch (text) {
      case "NaN" -> {
        return Double.NaN;
      }
      case "Infinity" -> {
        return Double.POSITIVE_INFINITY;
      }
      case "-Infinity" -> {
        return Double.NEGATIVE_INFINITY;
      }
      default -> {}
    }
    // Double.parseDouble alone would also take " 1", "1d", "0x1p3" and "Infinity" spelled other
    // ways; none of those is a JSON number, and accepting them here would make them valid OTLP.
    if (text.length() <= MAX_CHARS && isDecimal(text)) {
      try {
        return Double.parseDouble(text);
      } catch (NumberFormatException e) {
        // Right characters, wrong order ("1e", "--1"): refused below.
      }
    }
    throw new IllegalArgumentException(quote(text) + " is not a number");
  }

  /** True if every character could belong to a decimal number: digits, sign, point, exponent. */
  static boolean isDecimal(String text) {
    if (text.isEmpty()) return false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')) {
        return false;
      }
    }
    return true;
  }

  /** Client text in quotes, cut to a bounded length. */
  static String quote(String text) {
    return '"' + clip(text) + '"';
  }

  static String clip(String text) {
    return text.length() <= MAX_QUOTED_CHARS ? text : text.substring(0, MAX_QUOTED_CHARS) + "...";
  }
}
