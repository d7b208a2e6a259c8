package mira.bench.load;

/**
 * One OTLP connection. {@link #send} blocks until the server answers or the export's deadline
 * passes. One thread per exporter; not thread-safe.
 */
interface Exporter extends AutoCloseable {
  /** The longest one attempt may take before it counts as failed. */
  long DEADLINE_SECONDS = 30;

  /**
   * Sends one export.
   *
   * @param body the request body as the protocol carries it: protobuf for gRPC and
   *     http-protobuf, OTLP/JSON for http-json; already gzipped for HTTP when {@code --gzip}
   * @return what the server answered; transport failures (refused connection, deadline) are
   *     {@link Outcome.Kind#FAILED}, never thrown
   */
  Outcome send(Signal signal, byte[] body);

  @Override
  void close();
}
