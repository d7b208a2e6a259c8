package mira.alert;

/** A rules file that cannot be used; the message names the file position, the rule and the key. */
public final class RulesException extends Exception {
  public RulesException(String message) {
    super(message);
  }
}
