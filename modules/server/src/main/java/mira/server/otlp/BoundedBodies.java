package mira.server.otlp;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * Reads and inflates request bodies under the size limit. A body is read into one array that grows
 * by doubling; the array never exceeds the limit, and reading stops at the first byte past it, so a
 * few kilobytes of gzip that would inflate to gigabytes cost at most {@code limit} bytes of heap.
 * An absolute limit is used rather than a ratio because real OTLP batches (the same keys over and
 * over) compress tens of times over, as well as many bombs do.
 */
final class BoundedBodies {
  private static final int MIN_GROWTH = 8 * 1024;
  /** First guess of the inflated size, as a multiple of the compressed size. */
  private static final int INFLATE_GUESS = 4;

  private BoundedBodies() {}

  /** Reads exactly {@code length} bytes (a declared Content-Length already checked against the limit). */
  static Body readExactly(InputStream in, int length) throws IOException {
    byte[] bytes = new byte[length];
    int n = in.readNBytes(bytes, 0, length);
    if (n < length) {
      throw new EOFException("request body ended after " + n + " of the " + length + " bytes its Content-Length declared");
    }
    return new Body(bytes, length);
  }

  /**
   * Reads {@code in} to its end.
   *
   * @param sizeHint the expected size, or -1 if unknown; the first array is this big (capped at the limit)
   * @throws TooLarge once more than {@code limit} bytes have been produced
   */
  static Body readAtMost(InputStream in, int sizeHint, int limit) throws IOException, TooLarge {
    byte[] buf = new byte[sizeHint < 0 ? Math.min(limit, MIN_GROWTH) : Math.min(limit, sizeHint)];
    int n = 0;
    while (true) {
      if (n == buf.length) {
        // Full: one byte decides between "done at exactly this size" and "grow", so a correct hint
        // never causes a copy.
        int b = in.read();
        if (b < 0) {
          break;
        }
        if (n >= limit) {
          throw new TooLarge();
        }
        buf = Arrays.copyOf(buf, (int) Math.min(limit, Math.max(2L * n, MIN_GROWTH)));
        buf[n++] = (byte) b;
        continue;
      }
      int r = in.read(buf, n, buf.length - n);
      if (r < 0) {
        break;
      }
      n += r;
    }
    return new Body(buf, n);
  }

  /** Inflates a gzip body (one or more members). */
  static Body gunzip(Body wire, int limit) throws IOException, TooLarge {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(wire.bytes(), 0, wire.length()), 8192)) {
      return readAtMost(in, inflatedGuess(wire.length(), limit), limit);
    }
  }

  /** Inflates a zstd body (one or more frames). */
  static Body unzstd(Body wire, int limit) throws IOException, TooLarge {
    try (InputStream in = new ZstdInputStreamNoFinalizer(new ByteArrayInputStream(wire.bytes(), 0, wire.length()))) {
      return readAtMost(in, inflatedGuess(wire.length(), limit), limit);
    }
  }

  static int inflatedGuess(int compressed, int limit) {
    return (int) Math.min(limit, Math.max(MIN_GROWTH, (long) compressed * INFLATE_GUESS));
  }
}
