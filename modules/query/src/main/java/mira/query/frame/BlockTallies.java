package mira.query.frame;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The census of whole sealed blocks, kept per process: a sealed block never changes, so what its
 * resources sent is counted once, and a census over a window that holds the block whole reads
 * these few rows instead of the block. Keyed by the block directory and its file key (inode), so
 * a directory replaced under the same name is counted afresh. At most {@link #MAX_BLOCKS} blocks,
 * least recently used dropped; an entry is a few dozen resources.
 */
final class BlockTallies {
  static final int MAX_BLOCKS = 16_384;

  private static final Map<Object, Map<Object, Census.Tally>> CACHE =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Object, Map<Object, Census.Tally>> eldest) {
          return size() > MAX_BLOCKS;
        }
      };

  private BlockTallies() {}

  /** The key of the block in {@code dir}, or null if it cannot be read (then it is not cached). */
  static Object key(Path dir) {
    try {
      Object inode = Files.readAttributes(dir, BasicFileAttributes.class).fileKey();
      return inode == null ? null : java.util.List.of(dir.toAbsolutePath().toString(), inode);
    } catch (IOException e) {
      return null;
    }
  }

  static Map<Object, Census.Tally> get(Object key) {
    if (key == null) {
      return null;
    }
    synchronized (CACHE) {
      return CACHE.get(key);
    }
  }

  static void put(Object key, Map<Object, Census.Tally> tallies) {
    synchronized (CACHE) {
      CACHE.put(key, Map.copyOf(tallies));
    }
  }

  /** Forgets every kept census, as a new process would start (for tests). */
  static void clear() {
    synchronized (CACHE) {
      CACHE.clear();
    }
  }
}
