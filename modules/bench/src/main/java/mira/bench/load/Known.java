package mira.bench.load;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Values the server has acknowledged, for readers to ask about: trace ids (lowercase hex) and
 * request ids. Writers offer one of each per accepted export; readers draw at random among the
 * most recent {@link #SIZE}. Thread-safe.
 */
final class Known {
  static final int SIZE = 256;

  private final AtomicReferenceArray<String> traceIds = new AtomicReferenceArray<>(SIZE);
  private final AtomicReferenceArray<String> requestIds = new AtomicReferenceArray<>(SIZE);
  private final AtomicLong traces = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();

  void traceId(String hex) {
    traceIds.set((int) (traces.getAndIncrement() % SIZE), hex);
  }

  void requestId(String id) {
    requestIds.set((int) (requests.getAndIncrement() % SIZE), id);
  }

  /** A recently acknowledged trace id, or null if none yet. */
  String traceId(SplittableRandom rnd) {
    return pick(traceIds, traces.get(), rnd);
  }

  /** A recently acknowledged request id (a log attribute), or null if none yet. */
  String requestId(SplittableRandom rnd) {
    return pick(requestIds, requests.get(), rnd);
  }

  private static String pick(AtomicReferenceArray<String> a, long count, SplittableRandom rnd) {
    if (count == 0) return null;
    String s = a.get(rnd.nextInt((int) Math.min(count, SIZE)));
    return s != null ? s : a.get(0);
  }
}
