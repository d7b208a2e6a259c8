package mira.wal;

import java.io.IOException;

/** An append that did not make it into the log (nothing of it is acknowledged or replayed). */
public final class WalException extends IOException {
  public WalException(String message, Throwable cause) {
    super(message, cause);
  }
}
