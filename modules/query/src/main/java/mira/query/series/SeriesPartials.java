package mira.query.series;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link BlockPartial}s of whole sealed blocks, kept per process: a sealed block never
 * changes, so what it gives a stepped query is worked out once, and the same query shape (metric,
 * terms, function family, step) over any window that holds the block whole combines the partial
 * instead of reading the block. Keyed by the block's directory and file key (inode), so a
 * directory replaced under the same name (the compactor) is read afresh, and by the query shape.
 *
 * <p>Bounded by bytes (the partials' own estimate): least recently used dropped past the budget,
 * {@link #DEFAULT_MAX_BYTES} or a sixteenth of the heap if that is less. A partial holds a few
 * numbers per series and step of its block, so a dashboard's hour of blocks costs a few MiB.
 * {@link #sweep} drops the partials of blocks whose directory is gone or was replaced.
 *
 * <p>Beside the partial of each block it keeps the partials that join consecutive blocks of one
 * {@link #runSlot() slot} of time ({@link BlockPartial#merge}), under the list of blocks joined
 * ({@link Run}): a query whose window holds the same blocks whole combines one partial for them.
 * A block replaced or gone drops every run that holds it.
 */
public final class SeriesPartials {
  static final long DEFAULT_MAX_BYTES = 64L << 20;

  /** The process's partials. */
  static final SeriesPartials SHARED = new SeriesPartials(Math.min(DEFAULT_MAX_BYTES,
      Runtime.getRuntime().maxMemory() / 16));

  /** The length of time whose blocks a stepped query joins into one partial (by their oldest point). */
  static final long DEFAULT_RUN_SLOT = 10 * 60 * 1_000_000_000L;

  /** The key of the partial joining several blocks' partials: their identities, oldest first. */
  record Run(List<Object> blocks) {}

  private final long maxBytes;
  private final long runSlot;
  private final Map<List<Object>, BlockPartial> cache = new LinkedHashMap<>(256, 0.75f, true);
  private long bytes;

  SeriesPartials(long maxBytes) {
    this(maxBytes, DEFAULT_RUN_SLOT);
  }

  SeriesPartials(long maxBytes, long runSlot) {
    this.maxBytes = maxBytes;
    this.runSlot = runSlot;
  }

  /** See {@link #DEFAULT_RUN_SLOT}. */
  long runSlot() {
    return runSlot;
  }

  /** The identity of the block in {@code dir} (directory and inode), or null if it cannot be read. */
  static Object block(Path dir) {
    try {
      Object inode = Files.readAttributes(dir, BasicFileAttributes.class).fileKey();
      return inode == null ? null : List.of(dir.toAbsolutePath().toString(), inode);
    } catch (IOException e) {
      return null;
    }
  }

  synchronized BlockPartial get(List<Object> key) {
    return key == null ? null : cache.get(key);
  }

  /** Keeps {@code p} under {@code key}; drops the least recently used past the budget. */
  synchronized void put(List<Object> key, BlockPartial p) {
    long b = p.bytes();
    if (key == null || b > maxBytes) {
      return;
    }
    BlockPartial old = cache.put(key, p);
    bytes += b - (old == null ? 0 : old.bytes());
    Iterator<BlockPartial> it = cache.values().iterator();
    while (bytes > maxBytes && it.hasNext()) {
      bytes -= it.next().bytes();
      it.remove();
    }
  }

  /** Drops the partials of blocks whose directory no longer exists or is no longer the one read. */
  public static void sweep() {
    SHARED.sweepOwn();
  }

  void sweepOwn() {
    for (List<Object> k : keys()) {
      if (!(k.get(0) instanceof Run run ? run.blocks().stream().allMatch(SeriesPartials::current) : current(k.get(0)))) {
        synchronized (this) {
          BlockPartial p = cache.remove(k);
          if (p != null) {
            bytes -= p.bytes();
          }
        }
      }
    }
  }

  /** Whether the block identified by {@code id} ({@link #block}) is still the one in its directory. */
  private static boolean current(Object id) {
    Path dir = Path.of((String) ((List<?>) id).get(0));
    return Files.isDirectory(dir) && id.equals(block(dir));
  }

  synchronized List<List<Object>> keys() {
    return new ArrayList<>(cache.keySet());
  }

  synchronized int size() {
    return cache.size();
  }

  synchronized long bytes() {
    return bytes;
  }
}
