package mira.query.scan;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.catalog.Catalog;
import mira.block.read.MemoryBlockReader;
import mira.block.read.OpenBlocks;
import mira.block.read.Snapshot;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The blocks a read covers: the published ones from the catalogue and, for read-your-writes,
 * snapshots of the blocks still open. Snapshots are taken first and the catalogue listed after, so
 * a block published in between is seen as published and its snapshot dropped (same node and
 * sequence): a row is never read twice and never missed.
 */
public record Sources(List<BlockRef> refs, Map<Path, Snapshot> open) {
  /** Lists {@code signal}'s blocks overlapping {@code [from, to]}, newest first. */
  public static Sources list(Path dataDir, OpenBlocks openBlocks, Signal signal, long from, long to) throws IOException {
    List<Snapshot> snapshots = openBlocks.snapshot(signal);
    List<BlockRef> listed = Catalog.list(dataDir, signal, from, to);
    if (snapshots.isEmpty()) {
      return new Sources(listed, Map.of());
    }
    Set<BlockKey> published = new HashSet<>();
    for (BlockRef r : listed) {
      published.add(key(r));
    }
    List<BlockRef> all = new ArrayList<>(listed);
    Map<Path, Snapshot> open = new HashMap<>();
    for (Snapshot s : snapshots) {
      BlockRef r = s.ref();
      if (!published.contains(key(r)) && r.name().maxTime() >= from && r.name().minTime() <= to) {
        all.add(r);
        open.put(r.dir(), s);
      }
    }
    all.sort(Catalog.NEWEST_FIRST);
    return new Sources(all, open);
  }

  private static BlockKey key(BlockRef r) {
    return new BlockKey(r.name().node(), r.name().seq());
  }

  /** A block's identity across nodes sharing a directory: both fields whole, so keys never collide. */
  private record BlockKey(int node, long seq) {}

  /** True if {@code block} is a snapshot of an open block (it has no files, so no sidecars). */
  public boolean isSnapshot(BlockRef block) {
    return !open.isEmpty() && open.containsKey(block.dir());
  }

  /**
   * Opens {@code block}: a snapshot into {@code allocator}, a published block through
   * {@code readers}. The caller closes the reader.
   */
  public BlockReader open(BlockRef block, BufferAllocator allocator, OpenBlockCache readers) {
    Snapshot s = open.get(block.dir());
    return s != null ? new MemoryBlockReader(s, allocator) : readers.open(block);
  }
}
