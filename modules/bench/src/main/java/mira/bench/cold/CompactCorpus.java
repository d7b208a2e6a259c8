package mira.bench.cold;

import mira.block.catalog.ColdFormat;
import mira.block.catalog.ColdMarker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import mira.block.cold.Compactor;
import mira.block.catalog.BlockRef;
import mira.block.catalog.Catalog;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Compacts every hot block of a data directory into the cold tier, whatever its age, and reports
 * per signal the bytes before and after and how fast the rewrite went. It rewrites in place, so it
 * is meant for a copy of a load-generator corpus, never a live node's directory.
 *
 * <pre>compact-corpus DATA_DIR [--wire-bytes N] [--format mira|arrow]</pre>
 *
 * With {@code --wire-bytes} (the uncompressed protobuf bytes the load generator reported for the run
 * that made the corpus) it also prints bytes on disk per wire byte, hot and cold.
 */
public final class CompactCorpus {
  private CompactCorpus() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1 || args[0].startsWith("--")) {
      System.err.println("usage: compact-corpus DATA_DIR [--wire-bytes N] [--format mira|arrow]   (rewrites DATA_DIR in place: use a copy)");
      System.exit(2);
    }
    Path data = Path.of(args[0]);
    long wire = 0;
    ColdFormat format = ColdFormat.MIRA;
    for (int i = 1; i < args.length; i++) {
      if (args[i].equals("--wire-bytes") && i + 1 < args.length) {
        wire = Long.parseLong(args[++i]);
      } else if (args[i].equals("--format") && i + 1 < args.length) {
        format = ColdFormat.valueOf(args[++i].toUpperCase(Locale.ROOT));
      } else {
        System.err.println("compact-corpus: unknown argument " + args[i]);
        System.exit(2);
      }
    }
    long hotAll = 0;
    long coldAll = 0;
    double secondsAll = 0;
    System.out.printf(Locale.ROOT, "%-8s %7s %14s %14s %7s %9s %9s%n",
        "signal", "blocks", "hot bytes", "cold bytes", "ratio", "seconds", "hot MB/s");
    try (BufferAllocator allocator = new RootAllocator()) {
      for (Signal s : Signal.values()) {
        List<BlockRef> blocks = Catalog.list(data, s, Long.MIN_VALUE, Long.MAX_VALUE);
        long hot = 0;
        long cold = 0;
        int n = 0;
        long t0 = System.nanoTime();
        for (BlockRef b : blocks) {
          if (ColdMarker.isCold(b.dir())) {
            continue;
          }
          hot += bytes(b.dir());
          Compactor.compact(b.dir(), "00000000", format, allocator);
          cold += bytes(b.dir());
          n++;
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        hotAll += hot;
        coldAll += cold;
        secondsAll += secs;
        System.out.printf(Locale.ROOT, "%-8s %7d %14d %14d %7.3f %9.1f %9.1f%n",
            s.name().toLowerCase(Locale.ROOT), n, hot, cold, hot == 0 ? 0 : (double) cold / hot, secs, hot / 1e6 / Math.max(secs, 1e-9));
      }
    }
    System.out.printf(Locale.ROOT, "%-8s %7s %14d %14d %7.3f %9.1f %9.1f%n",
        "all", "", hotAll, coldAll, hotAll == 0 ? 0 : (double) coldAll / hotAll, secondsAll, hotAll / 1e6 / Math.max(secondsAll, 1e-9));
    if (wire > 0) {
      System.out.printf(Locale.ROOT, "per wire byte: hot %.3f, cold %.3f (%d wire bytes)%n",
          (double) hotAll / wire, (double) coldAll / wire, wire);
    }
  }

  /** Bytes of every regular file in a block directory (tables, sidecars, marker). */
  private static long bytes(Path dir) throws IOException {
    long sum = 0;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(p)) {
          sum += Files.size(p);
        }
      }
    }
    return sum;
  }
}
