package mira.server.config;

/**
 * A configuration the process refuses to start with. The message is written for the operator:
 * it names the key (or flag) and says what to do about it, and is printed as one line.
 */
public final class ConfigException extends Exception {
  public ConfigException(String message) {
    super(message);
  }
}
