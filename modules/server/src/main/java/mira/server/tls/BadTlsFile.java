package mira.server.tls;

/** A certificate, key or CA file that cannot be used; the message names the file and the reason. */
public final class BadTlsFile extends Exception {
  BadTlsFile(String message) {
    super(message);
  }
}
