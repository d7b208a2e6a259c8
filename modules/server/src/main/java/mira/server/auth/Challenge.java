package mira.server.auth;

/** The {@code WWW-Authenticate} value of a 401 (RFC 6750 3): why, but never the token. */
public final class Challenge {
  private Challenge() {}

  /**
   * @param authorization the request's Authorization header value, or null
   * @return {@code Bearer realm="mira"}, with {@code error="invalid_token"} when a token was sent
   */
  public static String of(String authorization) {
    return authorization == null ? "Bearer realm=\"mira\"" : "Bearer realm=\"mira\", error=\"invalid_token\"";
  }

  /** The message of a refusal, for the body. */
  public static String message(String what, String authorization) {
    return authorization == null
        ? what + " needs a token: Authorization: Bearer <token>"
        : what + ": the bearer token is not accepted";
  }
}
