package mira.proto.json;

/**
 * An OTLP/JSON body that does not decode.
 *
 * <p>The message is {@code path: problem}, where the path names the field as the client spelled it
 * ({@code resourceLogs[0].scopeLogs[1].logRecords[7].traceId}) and is omitted for problems with the
 * document as a whole (empty body, not an object, trailing content). Decoding stops at the first
 * problem, so one request costs at most one exception; like {@link mira.proto.wire.WireException}
 * it carries no stack trace, because a bad body is an expected answer to give a client, not a
 * fault in Mira.
 */
public final class OtlpJsonException extends Exception {
  private final String path;
  private final String problem;

  /**
   * @param path the field path, {@code ""} for the document itself; never null
   * @param problem what was wrong, in words a client can act on; never null
   */
  public OtlpJsonException(String path, String problem) {
    super(path.isEmpty() ? problem : path + ": " + problem, null, false, false);
    this.path = path;
    this.problem = problem;
  }

  /** The field path as the client spelled it, {@code ""} when the document as a whole is wrong. */
  public String path() {
    return path;
  }

  /** What was wrong, without the path. */
  public String problem() {
    return problem;
  }
}
