package mira.server.auth;

/** The token of an {@code Authorization: Bearer <token>} header value (RFC 6750 2.1). */
final class Bearer {
  private static final String SCHEME = "bearer";

  private Bearer() {}

  /** The token, or null if the value is absent or is not the Bearer scheme with one token. */
  static String token(String authorization) {
    if (authorization == null || authorization.length() <= SCHEME.length() + 1) {
      return null;
    }
    // The scheme is case-insensitive (RFC 9110 11.1); one or more spaces follow it.
    if (!authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length()) || authorization.charAt(SCHEME.length()) != ' ') {
      return null;
    }
    String t = authorization.substring(SCHEME.length() + 1).strip();
    return t.isEmpty() || t.indexOf(' ') >= 0 ? null : t;
  }
}
