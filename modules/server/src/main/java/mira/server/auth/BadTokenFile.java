package mira.server.auth;

/** A token file that cannot be used; the message names the file and line, never a token. */
public final class BadTokenFile extends Exception {
  BadTokenFile(String message) {
    super(message);
  }
}
