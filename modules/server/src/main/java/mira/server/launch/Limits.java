package mira.server.launch;

import java.time.Duration;

/**
 * What one client may hold on either listener. Each listener serves a connection on its own
 * virtual thread, so a slow client costs a parked thread and a socket, not a worker; these bounds
 * keep even that finite.
 *
 * <ul>
 *   <li>A slowloris client (a request written a byte at a time) holds a parked virtual thread and
 *       a socket, never a worker, so it does not delay other clients (SlowlorisTest: 500 such
 *       connections), and {@code server.header_timeout} ({@link HeaderDeadline}) closes it once its
 *       headers are overdue, which Helidon 4.5.0 does not do itself.</li>
 *   <li>{@link #IDLE_TIMEOUT}: a kept-alive connection with no request for this long is closed
 *       (checked every {@link #IDLE_CHECK}).</li>
 *   <li>{@code server.max_connections} per listener, enforced by {@link ConnectionBound}: past it a
 *       new connection is answered 503 or GOAWAY and closed.</li>
 *   <li>{@link #MAX_HEADER_BYTES}, {@link #MAX_PROLOGUE_BYTES}, {@link #MAX_HEADERS}: the request
 *       line and the header block are bounded in bytes (HTTP/1.1: 431 or 414; HTTP/2: the stream is
 *       refused), and the header count by {@code HeaderBounds}.</li>
 * </ul>
 */
final class Limits {
  static final Duration IDLE_TIMEOUT = Duration.ofMinutes(5);
  static final Duration IDLE_CHECK = Duration.ofSeconds(30);
  static final int MAX_HEADER_BYTES = 16 * 1024;
  static final int MAX_PROLOGUE_BYTES = 8 * 1024;
  static final int MAX_HEADERS = 100;

  private Limits() {}
}
