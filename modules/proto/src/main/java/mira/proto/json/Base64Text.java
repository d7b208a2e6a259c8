package mira.proto.json;

import java.util.Base64;

/**
 * Bytes fields other than ids. Proto3 JSON writes standard base64 with padding but tells readers
 * to accept the URL-safe alphabet and missing padding too; clients in the wild use all four.
 */
final class Base64Text {
  private Base64Text() {}

  /**
   * Decodes standard or URL-safe base64, padded or not (Java's decoders treat padding as optional).
   * The alphabet is chosen by the first character only one of them has; mixing both is refused.
   *
   * @throws IllegalArgumentException if {@code text} is not base64
   */
  static byte[] decode(String text) {
    boolean urlSafe = text.indexOf('-') >= 0 || text.indexOf('_') >= 0;
    try {
      return (urlSafe ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          NumberText.quote(text) + " is not base64 (" + e.getMessage() + ")");
    }
  }

  /** Standard base64 with padding, the canonical proto3 JSON spelling. */
  static String encode(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }
}
