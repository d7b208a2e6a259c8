package mira.block.table;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * The canonical text of a scalar attribute value: what identity hashing and the attribute filter
 * compare, so that {@code "200"} and {@code 200} meet. Strings are themselves; integers are
 * decimal; booleans are {@code true}/{@code false}; doubles that hold an integer below 2^53 are
 * written as that integer, other doubles as Java's shortest round-trip decimal; bytes are base64.
 * Arrays, kvlists and empty values have none (they select nothing).
 */
public final class CanonicalText {
  private CanonicalText() {}

  /** The canonical text of the value {@code v} just read from {@code buf}, or null. */
  public static byte[] of(AnyValueReader v, byte[] buf) {
    return switch (v.kind()) {
      case Attributes.TYPE_STR -> Arrays.copyOfRange(buf, v.start(), v.start() + v.length());
      case Attributes.TYPE_INT -> Long.toString(v.bits()).getBytes(StandardCharsets.US_ASCII);
      case Attributes.TYPE_BOOL -> (v.bits() != 0 ? "true" : "false").getBytes(StandardCharsets.US_ASCII);
      case Attributes.TYPE_DOUBLE -> ofDouble(Double.longBitsToDouble(v.bits())).getBytes(StandardCharsets.US_ASCII);
      case Attributes.TYPE_BYTES -> Base64.getEncoder()
          .encode(Arrays.copyOfRange(buf, v.start(), v.start() + v.length()));
      default -> null;
    };
  }

  /** Canonical text of a double. */
  public static String ofDouble(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 0x1p53) {
      return Long.toString((long) d);
    }
    return Double.toString(d);
  }
}
