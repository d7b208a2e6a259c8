package mira.block.catalog;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import mira.proto.wire.Signal;

/**
 * The catalogue is the filesystem: a signal's blocks are the directories under
 * {@code <data>/<signal>/p=<hour>/} whose names parse as block names. Listing opens no file.
 */
public final class Catalog {
  private Catalog() {}

  /**
   * Every published block of {@code signal} whose time range overlaps {@code [from, to]} (ns,
   * inclusive), newest first: by max time, then node, then sequence, all descending.
   */
  public static List<BlockRef> list(Path dataDir, Signal signal, long from, long to) throws IOException {
    Path dir = dataDir.resolve(signal.dir());
    List<BlockRef> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (DirectoryStream<Path> parts = Files.newDirectoryStream(dir, "p=*")) {
      for (Path p : parts) {
        OptionalLong start = BlockName.partitionStart(p.getFileName().toString());
        // Blocks' max time can be later than their partition's hour: only partitions starting after `to` are skipped.
        if (start.isEmpty() || start.getAsLong() > to) {
          continue;
        }
        try (DirectoryStream<Path> blocks = Files.newDirectoryStream(p)) {
          for (Path b : blocks) {
            Optional<BlockName> n = BlockName.parse(b.getFileName().toString());
            if (n.isPresent() && n.get().maxTime() >= from && n.get().minTime() <= to) {
              out.add(new BlockRef(signal, n.get(), b));
            }
          }
        } catch (NoSuchFileException e) {
          // The partition was removed by retention while we listed; it held nothing we can read.
        }
      }
    }
    out.sort(NEWEST_FIRST);
    return out;
  }

  /** Newest first: max time, then node, then sequence, all descending. */
  public static final Comparator<BlockRef> NEWEST_FIRST = Comparator
      .comparingLong((BlockRef r) -> r.name().maxTime())
      .thenComparingInt(r -> r.name().node())
      .thenComparingLong(r -> r.name().seq())
      .reversed();
}
