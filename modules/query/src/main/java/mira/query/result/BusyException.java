package mira.query.result;

/**
 * Every query slot of the process stayed taken for the admission wait. Nothing was read; the
 * caller should retry later (an HTTP 503 with Retry-After). Carries no stack trace.
 */
public final class BusyException extends Exception {
  public BusyException(String message) {
    super(message, null, false, false);
  }
}
