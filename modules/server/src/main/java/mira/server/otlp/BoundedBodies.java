package mira.server.otlp;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/**
 * Reads and inflates request bodies under the size limit. A body is read into one array that grows
 * by doubling; the array never exceeds the limit, and reading stops at the first byte past it, so a
 * few kilobytes of gzip that would inflate to gigabytes cost at most {@code limit} bytes of heap.
 * An absolute limit is used rather than a ratio because real OTLP batches (the same keys over and
 * over) compress tens of times over, as well as many bombs do.
 *
 * <p>Arrays come from {@link RequestBuffers}; the caller hands a body's array back once the sink
 * has returned.
 */
final class BoundedBodies {
  private static final int MIN_GROWTH = 8 * 1024;
  /** First guess of the inflated size, as a multiple of the compressed size. */
  private static final int INFLATE_GUESS = 4;

  private BoundedBodies() {}

  /** Reads exactly {@code length} bytes (a declared Content-Length already checked against the limit). */
  static Body readExactly(InputStream in, int length) throws IOException {
    return readExactly(in, length, RequestBuffers.shared());
  }

  /** As {@link #readExactly(InputStream, int)}, into an array from {@code buffers}. */
  static Body readExactly(InputStream in, int length, RequestBuffers buffers) throws IOException {
    byte[] bytes = buffers.take(length);
    int n = in.readNBytes(bytes, 0, length);
    if (n < length) {
      buffers.give(bytes);
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
    return readAtMost(in, sizeHint, limit, RequestBuffers.shared());
  }

  /**
   * As {@link #readAtMost(InputStream, int, int)}, into arrays from {@code buffers}: an array
   * outgrown, or the one in hand when this throws, goes back to them.
   */
  static Body readAtMost(InputStream in, int sizeHint, int limit, RequestBuffers buffers) throws IOException, TooLarge {
    byte[] buf = buffers.take(sizeHint < 0 ? Math.min(limit, MIN_GROWTH) : Math.min(limit, sizeHint));
    int n = 0;
    boolean done = false;
    try {
      while (true) {
        // A pooled array may be longer than the limit: never read past it.
        int room = Math.min(buf.length, limit);
        if (n == room) {
          // Full: one byte decides between "done at exactly this size" and "grow", so a correct hint
          // never causes a copy.
          int b = in.read();
          if (b < 0) {
            break;
          }
          if (n >= limit) {
            throw new TooLarge();
          }
          if (n == buf.length) {
            byte[] bigger = buffers.take((int) Math.min(limit, Math.max(2L * n, MIN_GROWTH)));
            System.arraycopy(buf, 0, bigger, 0, n);
            buffers.give(buf);
            buf = bigger;
          }
          buf[n++] = (byte) b;
          continue;
        }
        int r = in.read(buf, n, room - n);
        if (r < 0) {
          break;
        }
        n += r;
      }
      done = true;
    } finally {
      if (!done) {
        buffers.give(buf);
      }
    }
    return new Body(buf, n);
  }

  /** Inflates a gzip body (one or more members). */
  static Body gunzip(Body wire, int limit) throws IOException, TooLarge {
    return gunzip(wire, limit, RequestBuffers.shared());
  }

  /** As {@link #gunzip(Body, int)}; the inflated body's array comes from {@code buffers}. */
  static Body gunzip(Body wire, int limit, RequestBuffers buffers) throws IOException, TooLarge {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(wire.bytes(), 0, wire.length()), 8192)) {
      return readAtMost(in, inflatedGuess(wire.length(), limit), limit, buffers);
    }
  }

  /** Inflates a zstd body (one or more frames). */
  static Body unzstd(Body wire, int limit) throws IOException, TooLarge {
    return unzstd(wire, limit, RequestBuffers.shared());
  }

  /** As {@link #unzstd(Body, int)}; the inflated body's array comes from {@code buffers}. */
  static Body unzstd(Body wire, int limit, RequestBuffers buffers) throws IOException, TooLarge {
    try (InputStream in = new ZstdInputStreamNoFinalizer(new ByteArrayInputStream(wire.bytes(), 0, wire.length()))) {
      return readAtMost(in, inflatedGuess(wire.length(), limit), limit, buffers);
    }
  }

  static int inflatedGuess(int compressed, int limit) {
    return (int) Math.min(limit, Math.max(MIN_GROWTH, (long) compressed * INFLATE_GUESS));
  }
}
