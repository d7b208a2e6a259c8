package mira.query.frame;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The service-map pieces of whole sealed blocks, kept per process: a sealed block never changes,
 * so its piece is read once and a map over a window that holds the block whole combines the
 * piece instead of reading the block. Keyed as {@link BlockTallies} (directory and inode), so a
 * directory replaced under the same name (the compactor) is read afresh.
 *
 * <p>Bounded by bytes (the pieces' own estimate): least recently used dropped past
 * {@link #maxBytes}, {@link #DEFAULT_MAX_BYTES} by default or an eighth of the heap if that is
 * less. A piece costs about 35 bytes per span (two sorted key arrays over every span, the
 * durations per service and per edge), so the default holds some seven million spans.
 * {@link #sweep} drops the pieces of blocks whose directory is gone (retention) or was replaced;
 * the query housekeeping runs it with the open-block sweep.
 *
 * <p>For a block a window cuts (its piece counts only the rows in the window, so it is made per
 * request), the rows the piece is counted from — ids as keys, service, kind, status, duration,
 * time, order by duration; about 67 bytes a span — are kept too, within their own budget
 * ({@link #DEFAULT_MAX_ROW_BYTES}, 64 MiB: the few blocks at the ends of the windows asked for), so
 * such a piece is counted from memory rather than the block's columns.
 */
final class MapPieces {
  static final long DEFAULT_MAX_BYTES = 256L << 20;

  /** The process's pieces. */
  static final MapPieces SHARED = new MapPieces(Math.min(DEFAULT_MAX_BYTES, Runtime.getRuntime().maxMemory() / 8));

  /** The budget of the rows kept for blocks a window cut, by default. */
  static final long DEFAULT_MAX_ROW_BYTES = 64L << 20;

  private final long maxBytes;
  private final Map<Object, MapPiece> cache = new LinkedHashMap<>(256, 0.75f, true);
  private long bytes;
  private final long maxRowBytes;
  private final Map<Object, MapPiece.Rows> rows = new LinkedHashMap<>(16, 0.75f, true);
  private long rowBytes;

  MapPieces(long maxBytes) {
    this(maxBytes, Math.min(DEFAULT_MAX_ROW_BYTES, maxBytes / 4));
  }

  MapPieces(long maxBytes, long maxRowBytes) {
    this.maxBytes = maxBytes;
    this.maxRowBytes = maxRowBytes;
  }

  /** The rows kept for a block that windows cut, or null. */
  synchronized MapPiece.Rows rows(Object key) {
    return key == null ? null : rows.get(key);
  }

  /** Keeps the rows of a block a window cut, least recently used dropped past their own budget. */
  synchronized void putRows(Object key, MapPiece.Rows r) {
    long b = r.bytes();
    if (key == null || b > maxRowBytes) {
      return;
    }
    MapPiece.Rows old = rows.put(key, r);
    rowBytes += b - (old == null ? 0 : old.bytes());
    Iterator<MapPiece.Rows> it = rows.values().iterator();
    while (rowBytes > maxRowBytes && it.hasNext()) {
      rowBytes -= it.next().bytes();
      it.remove();
    }
  }

  synchronized MapPiece get(Object key) {
    return key == null ? null : cache.get(key);
  }

  /** Keeps {@code piece} under {@code key}; drops the least recently used past the budget (a piece larger than it is not kept). */
  synchronized void put(Object key, MapPiece piece) {
    if (key == null) {
      return;
    }
    long b = piece.bytes();
    if (b > maxBytes) {
      return;
    }
    MapPiece old = cache.put(key, piece);
    if (old != null) {
      bytes -= old.bytes();
    }
    bytes += b;
    Iterator<MapPiece> it = cache.values().iterator();
    while (bytes > maxBytes && it.hasNext()) {
      MapPiece eldest = it.next();
      bytes -= eldest.bytes();
      it.remove();
    }
  }

  /** Drops the pieces of blocks whose directory no longer exists or is no longer the one read. */
  void sweep() {
    List<Object> keys;
    synchronized (this) {
      keys = new ArrayList<>(cache.keySet());
      keys.addAll(rows.keySet());
    }
    for (Object k : keys) {
      Path dir = Path.of((String) ((List<?>) k).get(0));
      if (!Files.isDirectory(dir) || !k.equals(BlockTallies.key(dir))) {
        synchronized (this) {
          MapPiece p = cache.remove(k);
          if (p != null) {
            bytes -= p.bytes();
          }
          MapPiece.Rows r = rows.remove(k);
          if (r != null) {
            rowBytes -= r.bytes();
          }
        }
      }
    }
  }

  synchronized int size() {
    return cache.size();
  }

  synchronized int rowsKept() {
    return rows.size();
  }

  synchronized long bytes() {
    return bytes;
  }
}
