package mira.server.config;

import java.time.Duration;

/** Parsers for the value shapes config keys use: sizes ("16MiB") and durations ("168h"). */
final class Units {
  private Units() {}

  /**
   * Parses a byte size: digits followed by an optional unit, B, KiB, MiB, GiB (powers of 1024) or
   * KB, MB, GB (powers of 1000). No spaces, no fractions.
   */
  static long bytes(String where, String text) throws ConfigException {
    int i = 0;
    while (i < text.length() && Character.isDigit(text.charAt(i))) {
      i++;
    }
    if (i == 0) {
      throw new ConfigException(where + ": \"" + text + "\" is not a size; write e.g. \"16MiB\"");
    }
    long multiplier = switch (text.substring(i)) {
      case "", "B" -> 1L;
      case "KiB" -> 1L << 10;
      case "MiB" -> 1L << 20;
      case "GiB" -> 1L << 30;
      case "KB" -> 1_000L;
      case "MB" -> 1_000_000L;
      case "GB" -> 1_000_000_000L;
      default -> throw new ConfigException(where + ": \"" + text + "\" has an unknown unit \""
          + text.substring(i) + "\"; use B, KiB, MiB, GiB, KB, MB or GB");
    };
    long n;
    try {
      n = Long.parseLong(text.substring(0, i));
    } catch (NumberFormatException e) {
      throw new ConfigException(where + ": \"" + text + "\" is too large");
    }
    if (n > Long.MAX_VALUE / multiplier) {
      throw new ConfigException(where + ": \"" + text + "\" is too large");
    }
    return n * multiplier;
  }

  /**
   * Parses a duration written as one or more number-unit pairs: {@code d h m s ms}, e.g.
   * {@code "168h"}, {@code "1h30m"}, {@code "7d"}.
   */
  static Duration duration(String where, String text) throws ConfigException {
    if (text.isEmpty()) {
      throw new ConfigException(where + ": empty duration; write e.g. \"168h\"");
    }
    Duration total = Duration.ZERO;
    int i = 0;
    while (i < text.length()) {
      int start = i;
      while (i < text.length() && Character.isDigit(text.charAt(i))) {
        i++;
      }
      int unitStart = i;
      while (i < text.length() && Character.isLetter(text.charAt(i))) {
        i++;
      }
      if (start == unitStart || unitStart == i) {
        throw new ConfigException(where + ": \"" + text + "\" is not a duration; write e.g. \"168h\", \"30d\" or \"1h30m\"");
      }
      long n;
      try {
        n = Long.parseLong(text.substring(start, unitStart));
      } catch (NumberFormatException e) {
        throw new ConfigException(where + ": \"" + text + "\" is too large");
      }
      Duration part = switch (text.substring(unitStart, i)) {
        case "d" -> Duration.ofDays(n);
        case "h" -> Duration.ofHours(n);
        case "m" -> Duration.ofMinutes(n);
        case "s" -> Duration.ofSeconds(n);
        case "ms" -> Duration.ofMillis(n);
        default -> throw new ConfigException(where + ": \"" + text + "\" has an unknown unit \""
            + text.substring(unitStart, i) + "\"; use d, h, m, s or ms");
      };
      total = total.plus(part);
    }
    return total;
  }
}
