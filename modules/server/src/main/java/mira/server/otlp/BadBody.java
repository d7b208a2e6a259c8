package mira.server.otlp;

/** A body that cannot become an export: the HTTP status to answer and a message naming what was wrong. */
final class BadBody extends Exception {
  private final int httpStatus;

  BadBody(int httpStatus, String message) {
    super(message, null, false, false);
    this.httpStatus = httpStatus;
  }

  int httpStatus() {
    return httpStatus;
  }
}
