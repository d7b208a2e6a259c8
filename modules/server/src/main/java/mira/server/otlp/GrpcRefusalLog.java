package mira.server.otlp;

import java.util.logging.Filter;
import java.util.logging.Logger;

/**
 * Keeps one expected stack trace out of the log. When Helidon cannot read a gRPC message (too large
 * as sent), it logs the exception at ERROR on the stream's thread right after cancelling the
 * listener; {@link GrpcExport} has by then answered the client, so the refusal is an expected
 * outcome and the trace is noise, one per oversized export. The listener marks its thread, and this
 * filter drops the next record with a throwable on that thread from Helidon's gRPC handler logger.
 * Everything else from that logger is kept.
 */
final class GrpcRefusalLog {
  private static final String HELIDON_GRPC_HANDLER = "io.helidon.webserver.grpc.GrpcProtocolHandler";
  private static final ThreadLocal<Boolean> EXPECTED = new ThreadLocal<>();
  /** Held so the JUL logger (weakly referenced by its manager) keeps its filter. */
  private static Logger helidon;

  private GrpcRefusalLog() {}

  /** Installs the filter once per JVM, in front of any filter already there. */
  static synchronized void install() {
    if (helidon != null) {
      return;
    }
    helidon = Logger.getLogger(HELIDON_GRPC_HANDLER);
    Filter previous = helidon.getFilter();
    helidon.setFilter(r -> {
      if (r.getThrown() != null && EXPECTED.get() != null) {
        EXPECTED.remove();
        return false;
      }
      return previous == null || previous.isLoggable(r);
    });
  }

  /** The current thread is about to see Helidon log the failure it just answered. */
  static void expectHelidonError() {
    EXPECTED.set(Boolean.TRUE);
  }
}
