package mira.server.api;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import mira.server.ui.UiRoutes;

/**
 * Gzip for JSON answers, when the client says it takes gzip and the answer is big enough to gain.
 *
 * <p>A 2,000-span trace renders to about 1.5 MB of JSON; a browser behind a VPN, or even Chromium on
 * loopback with its devtools attached, spends longer receiving it than the server spends finding
 * it. At the fastest level zlib shrinks such an answer about 17 times in about 5 ms (1.6 MB to 91
 * KB), which pays on any link slower than a few hundred megabytes a second; the better levels
 * save a few more percent for twice the time. Answers under {@link #MIN_BYTES} go as they are,
 * since the gzip header and the call cost more than they save. A client that sends no
 * Accept-Encoding (curl, the JDK's HttpClient, the cluster's hops) gets identity, byte for byte
 * what it got before.
 */
public final class Compression {
  /** Below this many bytes an answer is sent as it is. */
  public static final int MIN_BYTES = 4096;

  private Compression() {}

  /** Sends {@code body} (already typed by the caller), gzip-encoded if the request allows it. */
  public static void send(ServerRequest req, ServerResponse res, byte[] body) {
    res.header(HeaderNames.VARY, "Accept-Encoding");
    if (body.length < MIN_BYTES || !UiRoutes.acceptsGzip(req)) {
      res.send(body);
      return;
    }
    res.header(HeaderNames.CONTENT_ENCODING, "gzip");
    res.send(gzip(body));
  }

  /** {@code body} as one gzip member at the fastest level. */
  public static byte[] gzip(byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 8 + 64);
    try (Fastest z = new Fastest(out)) {
      z.write(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return out.toByteArray();
  }

  private static final class Fastest extends GZIPOutputStream {
    Fastest(OutputStream out) throws IOException {
      super(out, 64 * 1024);
      def.setLevel(Deflater.BEST_SPEED);
    }
  }
}
