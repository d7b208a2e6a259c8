package mira.block.table;

/**
 * An export that can never fit a block, however empty (e.g. more distinct attribute keys than a
 * UInt16 dictionary holds). Retrying cannot help, so this is the one permanent refusal.
 */
public final class TooLargeException extends Exception {
  public TooLargeException(String message) {
    super(message, null, false, false);
  }
}
