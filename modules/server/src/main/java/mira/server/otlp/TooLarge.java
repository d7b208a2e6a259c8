package mira.server.otlp;

/** A body passed {@code ingest.max_request_bytes}; reading stopped at the first byte past it. */
final class TooLarge extends Exception {
  TooLarge() {
    super(null, null, false, false);
  }
}
