package mira.proto.wire;

/**
 * An export that does not decode. The message names the field (as an OTLP path such as
 * {@code resource_logs[0].scope_logs[1].log_records[7].trace_id}) and what was wrong with it.
 */
public final class WireException extends Exception {
  public WireException(String message) {
    super(message, null, false, false);
  }

  /**
   * The same error one level out: {@code segment} (e.g. {@code log_records[7]}) is prefixed to the
   * path, joined by '.' if the message already starts with a path, else by ": ".
   */
  public static WireException at(String segment, WireException e) {
    String m = e.getMessage();
    return new WireException(segment + (startsWithPath(m) ? "." : ": ") + m);
  }

  private static boolean startsWithPath(String m) {
    int i = 0;
    while (i < m.length() && (Character.isLowerCase(m.charAt(i)) || m.charAt(i) == '_' || Character.isDigit(m.charAt(i)))) {
      i++;
    }
    return i > 0 && i < m.length() && (m.charAt(i) == '.' || m.charAt(i) == ':' || m.charAt(i) == '[');
  }
}
