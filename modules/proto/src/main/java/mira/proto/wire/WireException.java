package mira.proto.wire;

/**
 * An export that does not decode. The message names the field (as an OTLP path such as
 * {@code resource_logs[0].scope_logs[1].log_records[7].trace_id}) and what was wrong with it.
 */
public final class WireException extends Exception {
  public WireException(String message) {
    super(message, null, false, false);
  }
}
