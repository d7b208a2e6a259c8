package mira.query.doc;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import mira.query.result.QueryException;

/**
 * Times in query documents and parameters, all resolved to nanoseconds since the Unix epoch:
 * integer nanoseconds ({@code "1767225600000000000"}), RFC 3339 with any fraction up to
 * nanoseconds and an offset ({@code "2026-01-01T00:00:00.5Z"}, {@code "...+02:00"}), or relative
 * to now ({@code "now"}, {@code "-15m"}; units ns, us, ms, s, m, h, d, w).
 */
public final class Times {
  /** The default window start. */
  public static final String DEFAULT_FROM = "-1h";
  /** The default window end. */
  public static final String DEFAULT_TO = "now";

  private Times() {}

  /**
   * Resolves {@code spec} against {@code now} (ns).
   *
   * @param what the key being parsed, for the message ({@code "from"})
   * @throws QueryException naming {@code what} and the accepted forms
   */
  public static long parse(String spec, String what, long now) throws QueryException {
    String s = spec.strip();
    if (s.equals("now")) {
      return now;
    }
    if (isInteger(s)) {
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException e) {
        throw new QueryException(what + ": " + s + " is out of range for nanoseconds since the epoch");
      }
    }
    if (s.length() >= 3 && s.charAt(0) == '-' && Character.isDigit(s.charAt(1))) {
      return relative(s, what, now);
    }
    if (s.length() >= 20 && s.charAt(4) == '-') {
      return rfc3339(s, what);
    }
    throw bad(what, spec);
  }

  /**
   * A positive duration in ns, written as digits then {@code ms}, {@code s}, {@code m}, {@code h}
   * or {@code d} ({@code "30s"}, {@code "5m"}); 0 if {@code s} is not one (or overflows).
   */
  public static long duration(String s) {
    int i = 0;
    while (i < s.length() && Character.isDigit(s.charAt(i))) {
      i++;
    }
    long unit = switch (s.substring(i)) {
      case "ms" -> 1_000_000L;
      case "s" -> 1_000_000_000L;
      case "m" -> 60_000_000_000L;
      case "h" -> 3_600_000_000_000L;
      case "d" -> 86_400_000_000_000L;
      default -> 0;
    };
    if (unit == 0 || i == 0 || i > 12) {
      return 0;
    }
    long n = Long.parseLong(s.substring(0, i));
    try {
      return n <= 0 ? 0 : Math.multiplyExact(n, unit);
    } catch (ArithmeticException e) {
      return 0;
    }
  }

  private static boolean isInteger(String s) {
    int i = s.startsWith("-") ? 1 : 0;
    if (i == s.length()) {
      return false;
    }
    for (; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static long relative(String s, String what, long now) throws QueryException {
    int i = 1;
    while (i < s.length() && Character.isDigit(s.charAt(i))) {
      i++;
    }
    long unit = switch (s.substring(i)) {
      case "ns" -> 1L;
      case "us", "µs" -> 1_000L;
      case "ms" -> 1_000_000L;
      case "s" -> 1_000_000_000L;
      case "m" -> 60_000_000_000L;
      case "h" -> 3_600_000_000_000L;
      case "d" -> 86_400_000_000_000L;
      case "w" -> 604_800_000_000_000L;
      default -> throw bad(what, s);
    };
    try {
      long n = Long.parseLong(s.substring(1, i));
      return Math.subtractExact(now, Math.multiplyExact(n, unit));
    } catch (NumberFormatException | ArithmeticException e) {
      throw new QueryException(what + ": " + s + " reaches outside the range of nanosecond times");
    }
  }

  private static long rfc3339(String s, String what) throws QueryException {
    // RFC 3339 allows a lowercase t and z, and a space between date and time.
    StringBuilder b = new StringBuilder(s);
    if (b.charAt(10) == 't' || b.charAt(10) == ' ') {
      b.setCharAt(10, 'T');
    }
    if (b.charAt(b.length() - 1) == 'z') {
      b.setCharAt(b.length() - 1, 'Z');
    }
    try {
      OffsetDateTime t = OffsetDateTime.parse(b, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
      return Math.addExact(Math.multiplyExact(t.toEpochSecond(), 1_000_000_000L), t.getNano());
    } catch (DateTimeParseException e) {
      throw new QueryException(what + ": \"" + Cursor.abbreviate(s) + "\" is not an RFC 3339 time ("
          + e.getMessage().replaceFirst("^Text '.*' ", "") + ")");
    } catch (ArithmeticException e) {
      throw new QueryException(what + ": " + s + " is outside the range of nanosecond times");
    }
  }

  private static QueryException bad(String what, String spec) {
    return new QueryException(what + ": \"" + Cursor.abbreviate(spec) + "\" is not a time; use integer nanoseconds"
        + " (\"1767225600000000000\"), RFC 3339 (\"2026-01-01T00:00:00Z\") or a relative time (\"now\", \"-15m\","
        + " \"-1h\", \"-7d\"; units ns us ms s m h d w)");
  }
}
