package mira.server.launch;

/** A reason the process will not start, written for the operator as one line. */
public final class StartupException extends Exception {
  public StartupException(String message) {
    super(message);
  }

  public StartupException(String message, Throwable cause) {
    super(message, cause);
  }
}
