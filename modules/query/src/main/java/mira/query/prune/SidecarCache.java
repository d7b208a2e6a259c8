package mira.query.prune;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import mira.block.index.AttrIndex;
import mira.block.index.TextIndex;
import mira.block.index.TraceIndex;
import mira.block.index.ZoneIndex;
import mira.block.catalog.BlockRef;
import mira.block.catalog.Catalog;
import mira.block.layout.TableFiles;
import mira.block.read.CorruptBlockException;
import mira.block.read.MappedBlockReader;
import mira.proto.wire.Signal;
import mira.query.entity.ResourceKeys;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The sidecar indexes of published blocks, each file read from disk the first time a query needs
 * it and then kept in memory, so pruning a block costs a hash lookup and a few Bloom probes instead
 * of an open, a read and a CRC pass per query.
 *
 * <p>Keyed by the block's directory. That is safe because nothing rewrites a published block's
 * sidecars: publish renames a complete directory into place, the cold-tier compactor replaces only
 * the {@code .arrow} files, and retention removes the whole directory. A sidecar that is missing
 * from a block that exists is cached as unknown (a block published before sidecars, past a cap, or
 * a logs block with no trace id); one whose block directory is gone, or that cannot be read for any
 * other reason, is answered unknown and not cached.
 *
 * <p>Bounded two ways: by bytes ({@code budget}; the least recently used blocks go first once it is
 * exceeded), and by the catalogue — a listing of a signal over a window tells which cached blocks in
 * that window no longer exist, and those are dropped: the listing each query makes anyway, for its
 * window ({@link #retain}), and a listing of everything, which the owner runs every minute or so
 * ({@link #sweep}) so that blocks no query lists any more leave too.
 *
 * <p>Thread-safe. Indexes are immutable, so a query keeps using one it was handed even if its block
 * is evicted meanwhile.
 */
public final class SidecarCache {
  /** The most bytes the cache holds by default: enough for every block of a large store. */
  public static final long DEFAULT_MAX_BYTES = 256L << 20;
  /** A retention sweep of the cache runs at most this often per signal. */
  static final long RETAIN_EVERY_NS = 1_000_000_000L;
  /** What an entry costs besides its files: the map node, the entry, its path. */
  private static final long ENTRY_OVERHEAD = 256;
  /** A parsed zone.idx (hash maps of names and boxed zones) is several times its file. */
  private static final int ZONE_EXPANSION = 4;

  private enum Kind {
    TRACE(TraceIndex.FILE), ATTR(AttrIndex.FILE), TEXT(TextIndex.FILE), ZONE(ZoneIndex.FILE), ENTITIES(TableFiles.RESOURCES);

    final String file;

    Kind(String file) {
      this.file = file;
    }
  }

  private final ConcurrentHashMap<Path, Entry> entries = new ConcurrentHashMap<>();
  private final long budget;
  private final long retainEveryNs;
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong ticks = new AtomicLong();
  private final LongAdder filesRead = new LongAdder();
  private final AtomicLong[] lastRetain = new AtomicLong[Signal.values().length];
  private final Object evicting = new Object();
  /** Reads resources tables for {@link #entities}; made on first use (a block reader needs one). */
  private volatile BufferAllocator allocator;

  /** A cache holding at most about {@code budget} bytes. */
  public SidecarCache(long budget) {
    this(budget, RETAIN_EVERY_NS);
  }

  /** As {@link #SidecarCache(long)}, sweeping removed blocks at most every {@code retainEveryNs}. */
  SidecarCache(long budget, long retainEveryNs) {
    if (budget <= 0) {
      throw new IllegalArgumentException("budget " + budget);
    }
    this.budget = budget;
    this.retainEveryNs = retainEveryNs;
    long start = System.nanoTime() - retainEveryNs;
    for (int i = 0; i < lastRetain.length; i++) {
      lastRetain[i] = new AtomicLong(start);
    }
  }

  /** A cache of {@link #DEFAULT_MAX_BYTES}, or an eighth of the maximum heap if that is less. */
  public static SidecarCache forThisHeap() {
    return new SidecarCache(Math.min(DEFAULT_MAX_BYTES, Math.max(1 << 20, Runtime.getRuntime().maxMemory() / 8)));
  }

  /** The block's {@code trace.idx}; never null ("maybe" to everything when unusable). */
  public TraceIndex trace(BlockRef block) {
    Entry e = entry(block);
    TraceIndex t = e.trace;
    return t != null ? t : (TraceIndex) load(e, Kind.TRACE);
  }

  /** The block's {@code attr.idx}; never null ("maybe" to everything when unusable). */
  public AttrIndex attr(BlockRef block) {
    Entry e = entry(block);
    AttrIndex a = e.attr;
    return a != null ? a : (AttrIndex) load(e, Kind.ATTR);
  }

  /** The block's {@code text.idx}; never null ("maybe" to everything when unusable). */
  public TextIndex text(BlockRef block) {
    Entry e = entry(block);
    TextIndex t = e.text;
    return t != null ? t : (TextIndex) load(e, Kind.TEXT);
  }

  /** The block's {@code zone.idx}; never null ("maybe" to everything when unusable). */
  public ZoneIndex zone(BlockRef block) {
    Entry e = entry(block);
    ZoneIndex z = e.zone;
    return z != null ? z : (ZoneIndex) load(e, Kind.ZONE);
  }

  /**
   * The block's entity keys (its resources table's {@code key} column, distinct, sorted, without
   * 0), read once and then kept with the block's other indexes; null when they cannot be read
   * (then the block may hold any entity).
   */
  public long[] entities(BlockRef block) {
    Entry e = entry(block);
    long[] k = e.entities;
    return k != null ? k : (long[]) load(e, Kind.ENTITIES);
  }

  /**
   * Drops the cached blocks of {@code signal} overlapping {@code [from, to]} that a complete listing
   * of that window no longer holds: retention removed them. Runs at most once a second per signal
   * (a listing is made by every query, a sweep is needed only as often as retention runs).
   *
   * @param listed every published block of {@code signal} whose name overlaps the window (snapshots
   *     of open blocks may be among them; they are never cached)
   */
  public void retain(Signal signal, long from, long to, List<BlockRef> listed) {
    if (entries.isEmpty()) {
      return;
    }
    AtomicLong last = lastRetain[signal.ordinal()];
    long now = System.nanoTime();
    long then = last.get();
    if (now - then < retainEveryNs || !last.compareAndSet(then, now)) {
      return;
    }
    dropUnlisted(signal, from, to, listed);
  }

  private void dropUnlisted(Signal signal, long from, long to, List<BlockRef> listed) {
    Set<Path> present = new HashSet<>(listed.size() * 2);
    for (BlockRef b : listed) {
      present.add(b.dir());
    }
    for (Entry e : entries.values()) {
      BlockRef r = e.ref;
      if (r.signal() == signal && r.name().maxTime() >= from && r.name().minTime() <= to
          && !present.contains(r.dir())) {
        drop(e);
      }
    }
  }

  /**
   * Lists every signal's whole catalogue under {@code dataDir} and drops the cached blocks that are
   * not in it. A readdir per partition; meant for a housekeeping thread, about once a minute.
   */
  public void sweep(Path dataDir) throws IOException {
    for (Signal s : Signal.values()) {
      if (entries.isEmpty()) {
        return;
      }
      List<BlockRef> listed = Catalog.list(dataDir, s, Long.MIN_VALUE, Long.MAX_VALUE);
      dropUnlisted(s, Long.MIN_VALUE, Long.MAX_VALUE, listed);
    }
  }

  /** Sidecar files read from disk so far (each block's file is read once while it stays cached). */
  public long filesRead() {
    return filesRead.sum();
  }

  /** Blocks with an entry. */
  public int blocks() {
    return entries.size();
  }

  /** Bytes accounted to the cached indexes (an estimate of their heap, above the files' sizes). */
  public long bytes() {
    return bytes.get();
  }

  /** Whether {@code dir} has an entry (for tests of eviction). */
  boolean holds(Path dir) {
    return entries.containsKey(dir);
  }

  // ---- entries -------------------------------------------------------------------------------

  private static final class Entry {
    final BlockRef ref;
    /** The tick of the last query that used the entry: least recently used goes first. */
    volatile long used;
    volatile TraceIndex trace;
    volatile AttrIndex attr;
    volatile TextIndex text;
    volatile ZoneIndex zone;
    volatile long[] entities;
    /** Guarded by this: bytes accounted for the entry, and whether it has left the cache. */
    long bytes = ENTRY_OVERHEAD;
    boolean evicted;

    Entry(BlockRef ref, long used) {
      this.ref = ref;
      this.used = used;
    }
  }

  private Entry entry(BlockRef block) {
    long tick = ticks.incrementAndGet();
    Entry e = entries.get(block.dir());
    if (e == null) {
      Entry fresh = new Entry(block, tick);
      e = entries.putIfAbsent(block.dir(), fresh);
      if (e == null) {
        if (bytes.addAndGet(ENTRY_OVERHEAD) > budget) {
          evict();
        }
        return fresh;
      }
    }
    e.used = tick;
    return e;
  }

  /** Reads one sidecar of {@code e} unless another thread just did; caches it if it may. */
  private Object load(Entry e, Kind kind) {
    boolean over = false;
    Object index;
    synchronized (e) {
      index = slot(e, kind);
      if (index != null) {
        return index;
      }
      Read r = kind == Kind.ENTITIES ? readEntities(e.ref) : read(e.ref.dir(), kind);
      index = r.index;
      if (!r.cacheable) {
        return index;
      }
      switch (kind) {
        case TRACE -> e.trace = (TraceIndex) index;
        case ATTR -> e.attr = (AttrIndex) index;
        case TEXT -> e.text = (TextIndex) index;
        case ZONE -> e.zone = (ZoneIndex) index;
        case ENTITIES -> e.entities = (long[]) index;
      }
      e.bytes += r.size;
      if (!e.evicted) {
        over = bytes.addAndGet(r.size) > budget;
      }
    }
    if (over) {
      evict();
    }
    return index;
  }

  private static Object slot(Entry e, Kind kind) {
    return switch (kind) {
      case TRACE -> e.trace;
      case ATTR -> e.attr;
      case TEXT -> e.text;
      case ZONE -> e.zone;
      case ENTITIES -> e.entities;
    };
  }

  private record Read(Object index, boolean cacheable, long size) {}

  private Read read(Path dir, Kind kind) {
    byte[] file;
    try {
      file = Files.readAllBytes(dir.resolve(kind.file));
    } catch (NoSuchFileException x) {
      // A block that exists and has no such file will never have one; a block that is gone (or a
      // directory that never existed) must not leave an answer behind.
      boolean exists = Files.isDirectory(dir);
      return new Read(unknown(kind, "no " + kind.file), exists, 0);
    } catch (IOException | RuntimeException x) {
      return new Read(unknown(kind, kind.file + " unreadable: " + x), false, 0);
    }
    filesRead.increment();
    return switch (kind) {
      case TRACE -> new Read(TraceIndex.parse(file), true, file.length);
      case ATTR -> new Read(AttrIndex.parse(file), true, file.length);
      case TEXT -> new Read(TextIndex.parse(file), true, file.length);
      case ZONE -> new Read(ZoneIndex.parse(file), true, (long) file.length * ZONE_EXPANSION);
      case ENTITIES -> throw new IllegalStateException("entities are read by readEntities");
    };
  }

  /**
   * Reads the resources table of a published block for its keys. Nothing is cached when it
   * cannot be read (the block answers "may hold" and the scan reports it if it is damaged).
   */
  private Read readEntities(BlockRef ref) {
    try (MappedBlockReader r = MappedBlockReader.open(ref, allocator())) {
      long[] keys = ResourceKeys.of(r);
      filesRead.increment();
      return new Read(keys, true, 16 + 8L * keys.length);
    } catch (CorruptBlockException | RuntimeException x) {
      return new Read(null, false, 0);
    }
  }

  private BufferAllocator allocator() {
    BufferAllocator a = allocator;
    if (a == null) {
      synchronized (this) {
        if (allocator == null) {
          allocator = new RootAllocator();
        }
        a = allocator;
      }
    }
    return a;
  }

  private static Object unknown(Kind kind, String reason) {
    return switch (kind) {
      case TRACE -> TraceIndex.unknown(reason);
      case ATTR -> AttrIndex.unknown(reason);
      case TEXT -> TextIndex.unknown(reason);
      case ZONE -> ZoneIndex.unknown(reason);
      case ENTITIES -> null;
    };
  }

  private void drop(Entry e) {
    if (entries.remove(e.ref.dir(), e)) {
      synchronized (e) {
        e.evicted = true;
        bytes.addAndGet(-e.bytes);
      }
    }
  }

  /** Drops least recently used entries until the cache is at three quarters of its budget. */
  private void evict() {
    synchronized (evicting) {
      if (bytes.get() <= budget) {
        return;
      }
      List<Entry> all = new ArrayList<>(entries.values());
      all.sort(Comparator.comparingLong(x -> x.used));
      long target = budget - budget / 4;
      for (Entry e : all) {
        if (bytes.get() <= target) {
          break;
        }
        drop(e);
      }
    }
  }
}
