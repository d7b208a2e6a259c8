package mira.bench.telemetry;

import java.util.SplittableRandom;

/**
 * The most recent spans a stream generated, kept so that logs and exemplars can point at real
 * traces: ids, pod, timing and whether the span failed. Fixed capacity; the oldest entry is
 * overwritten. Also holds trace heads that logs referred to before any trace was generated: the
 * trace generator uses those ids first, so every trace id a log carries belongs to some trace of
 * the same stream once traces are exported.
 */
final class SpanRing {
  static final int CAPACITY = 16_384;
  private static final int PENDING_CAPACITY = 4_096;

  final long[] traceHi = new long[CAPACITY];
  final long[] traceLo = new long[CAPACITY];
  final long[] spanId = new long[CAPACITY];
  final int[] pod = new int[CAPACITY];
  final long[] start = new long[CAPACITY];
  final long[] duration = new long[CAPACITY];
  final boolean[] error = new boolean[CAPACITY];
  private long added;

  // Trace heads a log used before the trace existed: trace id, root span id, root pod.
  private final long[] pendingHi = new long[PENDING_CAPACITY];
  private final long[] pendingLo = new long[PENDING_CAPACITY];
  private final long[] pendingRoot = new long[PENDING_CAPACITY];
  private final int[] pendingPod = new int[PENDING_CAPACITY];
  private int pendingHead;
  private int pendingCount;

  void add(long hi, long lo, long span, int podIndex, long startNanos, long durationNanos, boolean failed) {
    int i = (int) (added++ % CAPACITY);
    traceHi[i] = hi;
    traceLo[i] = lo;
    spanId[i] = span;
    pod[i] = podIndex;
    start[i] = startNanos;
    duration[i] = durationNanos;
    error[i] = failed;
  }

  boolean isEmpty() {
    return added == 0;
  }

  /** A uniformly chosen entry among those held; the ring must not be empty. */
  int pick(SplittableRandom rnd) {
    return rnd.nextInt((int) Math.min(added, CAPACITY));
  }

  int pendingCount() {
    return pendingCount;
  }

  /**
   * A trace head for a log to use before any trace exists: a new one while there is room, else one
   * of those already promised (so a logs-only run cannot grow this without bound). Returns its slot.
   */
  int promise(SplittableRandom rnd, int entryPod) {
    if (pendingCount == PENDING_CAPACITY) {
      return (pendingHead + rnd.nextInt(pendingCount)) % PENDING_CAPACITY;
    }
    int slot = (pendingHead + pendingCount++) % PENDING_CAPACITY;
    pendingHi[slot] = rnd.nextLong();
    pendingLo[slot] = rnd.nextLong();
    pendingRoot[slot] = rnd.nextLong();
    pendingPod[slot] = entryPod;
    return slot;
  }

  long pendingHi(int slot) {
    return pendingHi[slot];
  }

  long pendingLo(int slot) {
    return pendingLo[slot];
  }

  long pendingRoot(int slot) {
    return pendingRoot[slot];
  }

  int pendingPod(int slot) {
    return pendingPod[slot];
  }

  /** Removes and returns the slot of the oldest promised head; {@link #pendingCount()} must be > 0. */
  int takePending() {
    int slot = pendingHead;
    pendingHead = (pendingHead + 1) % PENDING_CAPACITY;
    pendingCount--;
    return slot;
  }
}
