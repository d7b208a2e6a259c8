package mira.query.scan;

import mira.block.catalog.ColdMarker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import mira.block.index.AttrIndex;
import mira.block.index.TraceIndex;
import mira.block.index.ZoneIndex;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.read.CorruptBlockException;
import mira.block.read.MappedBlockReader;
import mira.block.read.TableView;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The one place the query layer opens a published block, and where blocks stay open between
 * queries: a block's files are mapped, and each table verified (magics, footer, CRC32C) and loaded,
 * once, then shared by every query that reads the block while it stays open.
 *
 * <p>Why: a fresh mapping has to fault in every page the CRC pass reads, and on the benchmark
 * corpus that pass was most of a query's time — 15–20 MB of tables per block, re-mapped and
 * re-verified by every query that touched the block (docs/performance.md). Held open, a block costs a
 * map lookup, and a query touches only the pages of the columns it reads, which stay mapped.
 *
 * <p>What a block costs while open: address space for its files (no heap; the pages are the page
 * cache's, and only the ones read are resident), and its files on disk even once unlinked — a
 * mapping keeps an unlinked file. So blocks are closed: least recently used first beyond
 * {@code maxOpen}; a block of the cold tier (its tables are inflated into memory, not mapped) as
 * soon as no query holds it; and by {@link #sweep}, which the owner runs every few seconds, once
 * idle for {@code idle}, or as soon as no query holds them, when their directory is gone
 * (retention) or they have gone cold since they were opened (the compactor renamed new files over
 * the mapped ones). A block a query still holds closes when that query releases it.
 *
 * <p>Integrity: a table is verified when it is first loaded; while its block stays open, later
 * queries read the verified mapping without checking it again. Published files are never
 * rewritten in place (the compactor and retention replace and unlink), so the bytes under an open
 * mapping change only through damage from outside Mira, which the next open (after the block was
 * closed) detects.
 *
 * <p>Thread-safe. A reader handed out is one query's lease: close it when done (it does not close
 * the block). Its tables may be read from the query's helper threads.
 */
public final class OpenBlockCache implements AutoCloseable {
  /** Blocks held open at most, by default: two or three waves of the widest search. */
  public static final int DEFAULT_MAX_OPEN = 64;
  /** How long a block stays open without a query, by default. */
  public static final Duration DEFAULT_IDLE = Duration.ofSeconds(30);

  private final BufferAllocator allocator;
  private final int maxOpen;
  private final long idleNanos;
  /** Open blocks by directory, least recently used first. Guarded by this. */
  private final LinkedHashMap<Path, Shared> open = new LinkedHashMap<>(16, 0.75f, true);
  private boolean closed;
  private long opened;

  /**
   * @param allocator parent of each open block's allocator; must outlive this
   * @param maxOpen blocks held open at most (0: close every block when its query releases it)
   * @param idle how long a block no query uses stays open, as {@link #sweep} judges it
   */
  public OpenBlockCache(BufferAllocator allocator, int maxOpen, Duration idle) {
    if (maxOpen < 0 || idle.isNegative()) {
      throw new IllegalArgumentException("maxOpen " + maxOpen + ", idle " + idle);
    }
    this.allocator = allocator;
    this.maxOpen = maxOpen;
    this.idleNanos = idle.toNanos();
  }

  /** One open block, shared by the queries reading it. */
  private static final class Shared {
    final BlockRef ref;
    final MappedBlockReader reader;
    final boolean coldWhenOpened;
    /** Guarded by the OpenBlockCache. */
    int leases;
    long lastUsed;
    boolean evicted;
    boolean closed;

    Shared(BlockRef ref, MappedBlockReader reader, boolean cold) {
      this.ref = ref;
      this.reader = reader;
      this.coldWhenOpened = cold;
    }
  }

  /**
   * A reader of the published block {@code block}, already open if another query opened it
   * recently. Touches no file until a table is asked for (except, on first open, a stat for the
   * cold marker). The caller closes it.
   */
  public BlockReader open(BlockRef block) {
    Shared s;
    synchronized (this) {
      s = held(block);
    }
    if (s != null) {
      return new Lease(s);
    }
    // A miss: the marker's stat runs outside the lock, so a slow disk stalls only this query.
    boolean cold = ColdMarker.isCold(block.dir());
    List<Shared> toClose = new ArrayList<>(1);
    synchronized (this) {
      s = held(block);
      if (s == null) {
        s = new Shared(block, MappedBlockReader.open(block, allocator), cold);
        open.put(block.dir(), s);
        opened++;
        Iterator<Shared> lru = open.values().iterator();
        while (open.size() > Math.max(1, maxOpen) && lru.hasNext()) {
          Shared old = lru.next();
          if (old != s) {
            lru.remove();
            evict(old, toClose);
          }
        }
        s.leases++;
        s.lastUsed = System.nanoTime();
      }
    }
    closeAll(toClose);
    return new Lease(s);
  }

  /** The open block {@code block}, leased, or null. Called holding this. */
  private Shared held(BlockRef block) {
    if (closed) {
      throw new IllegalStateException("the block readers are closed");
    }
    Shared s = open.get(block.dir());
    if (s != null) {
      s.leases++;
      s.lastUsed = System.nanoTime();
    }
    return s;
  }

  /** Blocks open now. */
  public synchronized int openBlocks() {
    return open.size();
  }

  /** Blocks opened (mapped anew) since this was created: a measure of how well blocks are reused. */
  public synchronized long blocksOpened() {
    return opened;
  }

  /** Closes every block no query holds; the rest close when released. Opens nothing afterwards. */
  @Override
  public void close() {
    List<Shared> toClose = new ArrayList<>();
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      for (Shared s : open.values()) {
        evict(s, toClose);
      }
      open.clear();
    }
    closeAll(toClose);
  }

  /**
   * Closes the blocks that are idle, gone or gone cold (one stat or two per open block, outside the
   * lock). Meant to run every {@code idle / 2} or so on a housekeeping thread.
   */
  public void sweep() {
    List<Shared> candidates;
    synchronized (this) {
      candidates = new ArrayList<>(open.values());
    }
    long now = System.nanoTime();
    List<Shared> stale = new ArrayList<>();
    for (Shared s : candidates) {
      // The stats run outside the lock: a slow disk must not stall every query's open.
      Path dir = s.ref.dir();
      if (!Files.isDirectory(dir) || (!s.coldWhenOpened && ColdMarker.isCold(dir))) {
        stale.add(s);
      }
    }
    List<Shared> toClose = new ArrayList<>();
    synchronized (this) {
      for (Iterator<Map.Entry<Path, Shared>> it = open.entrySet().iterator(); it.hasNext(); ) {
        Shared s = it.next().getValue();
        boolean idle = s.leases == 0 && now - s.lastUsed >= idleNanos;
        if (idle || stale.contains(s)) {
          it.remove();
          evict(s, toClose);
        }
      }
    }
    closeAll(toClose);
  }

  /** Takes {@code s} out of use; it is closed now if no query holds it. Called holding this. */
  private void evict(Shared s, List<Shared> toClose) {
    s.evicted = true;
    if (s.leases == 0 && !s.closed) {
      s.closed = true;
      toClose.add(s);
    }
  }

  private void release(Shared s) {
    boolean close = false;
    synchronized (this) {
      s.leases--;
      s.lastUsed = System.nanoTime();
      if (s.evicted && s.leases == 0 && !s.closed) {
        s.closed = true;
        close = true;
      } else if ((maxOpen == 0 || s.coldWhenOpened) && s.leases == 0) {
        // A cold block's tables are inflated into memory on load: kept open, 64 of them could hold
        // gigabytes. It is read as before, opened for each query that needs it.
        open.remove(s.ref.dir(), s);
        s.evicted = true;
        s.closed = true;
        close = true;
      }
    }
    if (close) {
      s.reader.close();
    }
  }

  private static void closeAll(List<Shared> blocks) {
    for (Shared s : blocks) {
      s.reader.close();
    }
  }

  /** One query's use of an open block. Its tables are shared and read-only. */
  private final class Lease implements BlockReader {
    private final Shared s;
    private boolean released;

    Lease(Shared s) {
      this.s = s;
    }

    @Override
    public BlockRef ref() {
      return s.ref;
    }

    @Override
    public Optional<TableView> table(String file) throws CorruptBlockException {
      ensureHeld();
      // The first call maps the block and each table's first call verifies and loads it; the block
      // reader is not thread-safe, so queries sharing it take turns. Loaded tables are read-only.
      synchronized (s) {
        return s.reader.table(file);
      }
    }

    @Override
    public TraceIndex traceIndex() {
      ensureHeld();
      synchronized (s) {
        return s.reader.traceIndex();
      }
    }

    @Override
    public AttrIndex attrIndex() {
      ensureHeld();
      synchronized (s) {
        return s.reader.attrIndex();
      }
    }

    @Override
    public ZoneIndex zoneIndex() {
      ensureHeld();
      synchronized (s) {
        return s.reader.zoneIndex();
      }
    }

    private void ensureHeld() {
      if (released) {
        throw new IllegalStateException("block " + s.ref.dir() + " was released");
      }
    }

    @Override
    public void close() {
      if (!released) {
        released = true;
        release(s);
      }
    }
  }
}
