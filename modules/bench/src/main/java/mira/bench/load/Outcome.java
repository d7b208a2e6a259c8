package mira.bench.load;

/**
 * What the server answered to one attempt at an export.
 *
 * @param kind accepted, told to retry (HTTP 503 / gRPC UNAVAILABLE) or failed for good
 * @param retryAfterMillis for {@link Kind#RETRY}, the delay the server asked for (0 if it named none)
 * @param detail for anything but {@link Kind#ACCEPTED}, the status and message, for the report
 */
record Outcome(Kind kind, long retryAfterMillis, String detail) {
  enum Kind { ACCEPTED, RETRY, FAILED }

  static final Outcome ACCEPTED = new Outcome(Kind.ACCEPTED, 0, null);

  static Outcome retry(long millis, String detail) {
    return new Outcome(Kind.RETRY, millis, detail);
  }

  static Outcome failed(String detail) {
    return new Outcome(Kind.FAILED, 0, detail);
  }
}
