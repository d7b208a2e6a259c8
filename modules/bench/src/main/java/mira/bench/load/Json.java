package mira.bench.load;

/**
 * A minimal JSON writer for the report line: objects, strings and numbers, written in the order
 * given. Non-finite numbers and negative "unknown" markers are written by the caller as null.
 */
final class Json {
  private final StringBuilder b = new StringBuilder(2048);
  private boolean first = true;

  Json open() {
    comma();
    b.append('{');
    first = true;
    return this;
  }

  Json open(String key) {
    key(key);
    b.append('{');
    first = true;
    return this;
  }

  Json close() {
    b.append('}');
    first = false;
    return this;
  }

  Json field(String key, String value) {
    key(key);
    if (value == null) b.append("null");
    else string(value);
    return this;
  }

  Json field(String key, long value) {
    key(key);
    b.append(value);
    return this;
  }

  Json field(String key, boolean value) {
    key(key);
    b.append(value);
    return this;
  }

  /** A number rounded to {@code decimals} places; null if it is not finite. */
  Json field(String key, double value, int decimals) {
    key(key);
    if (!Double.isFinite(value)) {
      b.append("null");
    } else {
      b.append(new java.math.BigDecimal(value).setScale(decimals, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros()
          .toPlainString());
    }
    return this;
  }

  /** A count that is unknown when negative (written as null). */
  Json count(String key, long value) {
    key(key);
    if (value < 0) b.append("null");
    else b.append(value);
    return this;
  }

  private void key(String key) {
    comma();
    string(key);
    b.append(':');
  }

  private void comma() {
    if (!first) b.append(',');
    first = false;
  }

  private void string(String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
          else b.append(c);
        }
      }
    }
    b.append('"');
  }

  @Override
  public String toString() {
    return b.toString();
  }
}
