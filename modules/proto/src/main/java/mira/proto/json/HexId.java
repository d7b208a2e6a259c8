package mira.proto.json;

/**
 * Trace and span ids as OTLP/JSON writes them: hex, in either case, exactly two digits per byte.
 * OTLP/JSON makes these the one exception to base64 for bytes fields (OTLP specification, "JSON
 * Protobuf Encoding"); a 32-digit hex string is also valid base64, so confusing the two would not
 * fail, it would store 24 bytes of nonsense per id.
 */
final class HexId {
  private static final char[] DIGITS = "0123456789abcdef".toCharArray();

  private HexId() {}

  /**
   * Decodes {@code len} chars from {@code buf[off..]} into {@code bytes} bytes.
   *
   * @throws IllegalArgumentException naming the length found or the first character that is not a
   *     hex digit, with its position
   */
  static byte[] decode(char[] buf, int off, int len, int bytes) {
    if (len != 2 * bytes) {
      throw new IllegalArgumentException(
          "expected " + 2 * bytes + " hex digits (" + bytes + " bytes), got " + len
              + " characters");
    }
    byte[] out = new byte[bytes];
    for (int i = 0; i < bytes; i++) {
      int hi = nibble(buf, off, 2 * i);
      int lo = nibble(buf, off, 2 * i + 1);
      out[i] = (byte) (hi << 4 | lo);
    }
    return out;
  }

  private static int nibble(char[] buf, int off, int pos) {
    char c = buf[off + pos];
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw new IllegalArgumentException(
        "character " + printable(c) + " at position " + pos + " is not a hex digit");
  }

  private static String printable(char c) {
    return c >= 0x20 && c < 0x7f ? "'" + c + "'" : String.format("U+%04X", (int) c);
  }

  /** Lowercase hex of {@code bytes}, the spelling Mira writes. */
  static String encode(byte[] bytes) {
    char[] out = new char[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xF];
      out[2 * i + 1] = DIGITS[bytes[i] & 0xF];
    }
    return new String(out);
  }
}
