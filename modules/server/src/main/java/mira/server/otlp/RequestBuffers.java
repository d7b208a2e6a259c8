package mira.server.otlp;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Arrays that request bodies are read into, handed back once the sink has the export, so a
 * receiver reuses them instead of allocating a multi-megabyte array per export.
 *
 * <p>Why: an 8192-record export is about 3 MB, and its array lives from the end of the read through
 * decoding and the write-ahead log's append, long enough that young collections found it alive and
 * copied it (or promoted it) again and again; profiles of the load generator's closed loop had the
 * collector's copying among the largest consumers of server CPU (docs/performance.md, "Where a
 * record's CPU goes"). A pooled array is old once and then never copied again.
 *
 * <p>Arrays are kept in power-of-two classes from {@link #MIN_POOLED} to {@link #MAX_POOLED} bytes; a
 * smaller body gets an array of its own size, as before, because it dies young anyway, and a larger
 * one too, because keeping it would hold that much heap for good. All classes together keep at most
 * {@link #POOL_BYTES}; an array given back past that is dropped for the collector. Thread-safe.
 */
final class RequestBuffers {
  /** Bodies shorter than this are not pooled. */
  static final int MIN_POOLED = 64 * 1024;
  /** Bodies longer than this are not pooled (the default ingest.max_request_bytes). */
  static final int MAX_POOLED = 16 << 20;
  /** The bytes all classes together may keep: four connections' worth of 8 MiB bodies. */
  static final long POOL_BYTES = 32L << 20;
  private static final int MIN_SHIFT = Integer.numberOfTrailingZeros(MIN_POOLED);
  private static final int CLASSES = Integer.numberOfTrailingZeros(MAX_POOLED) - MIN_SHIFT + 1;

  private static final RequestBuffers SHARED = new RequestBuffers(POOL_BYTES);

  @SuppressWarnings("unchecked")
  private final ArrayBlockingQueue<byte[]>[] free = new ArrayBlockingQueue[CLASSES];
  private final long poolBytes;
  /** Bytes of the arrays in {@link #free}; may overshoot {@link #poolBytes} by one array for a moment. */
  private final AtomicLong heldBytes = new AtomicLong();

  RequestBuffers(long poolBytes) {
    this.poolBytes = poolBytes;
    for (int c = 0; c < CLASSES; c++) {
      long size = 1L << (MIN_SHIFT + c);
      free[c] = new ArrayBlockingQueue<>((int) Math.max(1, poolBytes / size));
    }
  }

  /** The pool the receivers share. */
  static RequestBuffers shared() {
    return SHARED;
  }

  /**
   * An array of at least {@code length} bytes, with unspecified contents: a pooled one when
   * {@code length} is at least {@link #MIN_POOLED}, else a new one of exactly {@code length}.
   */
  byte[] take(int length) {
    if (length < MIN_POOLED) {
      return new byte[length];
    }
    int c = classOf(length);
    if (c >= CLASSES) {
      return new byte[length];
    }
    byte[] b = free[c].poll();
    if (b == null) {
      return new byte[1 << (MIN_SHIFT + c)];
    }
    heldBytes.addAndGet(-b.length);
    return b;
  }

  /**
   * Hands back an array from {@link #take} (or any array) that nothing reads or writes any more.
   * Only arrays whose length is exactly a class size are kept.
   */
  void give(byte[] b) {
    if (b == null || b.length < MIN_POOLED || Integer.bitCount(b.length) != 1) {
      return;
    }
    int c = Integer.numberOfTrailingZeros(b.length) - MIN_SHIFT;
    if (c >= CLASSES || heldBytes.addAndGet(b.length) > poolBytes) {
      heldBytes.addAndGet(-b.length);
      return;
    }
    if (!free[c].offer(b)) {
      heldBytes.addAndGet(-b.length);
    }
  }

  /** Bytes held for reuse (tests). */
  long heldBytes() {
    return heldBytes.get();
  }

  /** Arrays held for reuse, in all classes (tests). */
  int held() {
    int n = 0;
    for (ArrayBlockingQueue<byte[]> q : free) {
      n += q.size();
    }
    return n;
  }

  /** The class whose arrays hold {@code length} bytes: the smallest power of two at least that. */
  private static int classOf(int length) {
    int shift = 32 - Integer.numberOfLeadingZeros(length - 1);
    return Math.max(0, shift - MIN_SHIFT);
  }
}
