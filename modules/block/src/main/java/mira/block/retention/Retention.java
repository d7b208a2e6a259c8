package mira.block.retention;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.Optional;
import java.util.stream.Stream;
import mira.block.catalog.BlockName;
import mira.fs.Fs;
import mira.proto.wire.Signal;

/**
 * Removes expired blocks. Stateless: every sweep decides from directory names alone, so several
 * nodes sharing a data directory may sweep at once (losing a race to delete a block is not an
 * error).
 */
public final class Retention {
  /** Where a block goes between leaving the catalogue and being deleted. */
  public static final String TRASH = ".trash";

  private Retention() {}

  /** What a sweep did. */
  public record Swept(int blocks, long bytes) {}

  /**
   * Removes every block of every signal whose max time is before {@code cutoffNanos}, then every
   * partition directory left empty, and empties the trash (including what a crash left there).
   */
  public static Swept sweep(Path dataDir, long cutoffNanos) throws IOException {
    return sweep(dataDir, cutoffNanos, Fs.REAL);
  }

  /** As {@link #sweep(Path, long)}, through {@code files} (tests inject faults). */
  public static Swept sweep(Path dataDir, long cutoffNanos, Fs files) throws IOException {
    int blocks = 0;
    long bytes = 0;
    for (Signal s : Signal.values()) {
      Path signalDir = dataDir.resolve(s.dir());
      if (!Files.isDirectory(signalDir)) {
        continue;
      }
      Path trash = signalDir.resolve(TRASH);
      files.createDirectories(trash);
      boolean moved = false;
      boolean removed = false;
      for (Path p : files.list(signalDir, "p=*")) {
        OptionalLong start = BlockName.partitionStart(p.getFileName().toString());
        // A partition's blocks start within its hour; none can be expired if the hour starts after the cutoff.
        if (start.isEmpty() || start.getAsLong() > cutoffNanos) {
          continue;
        }
        boolean empty = true;
        boolean movedHere = false;
        try {
          for (Path b : files.list(p, "*")) {
            Optional<BlockName> n = BlockName.parse(b.getFileName().toString());
            if (n.isEmpty() || n.get().maxTime() >= cutoffNanos) {
              empty = false;
              continue;
            }
            long size = size(b);
            try {
              files.rename(b, trash.resolve(b.getFileName()));
              blocks++;
              bytes += size;
              moved = true;
              movedHere = true;
            } catch (NoSuchFileException | FileAlreadyExistsException e) {
              // Another node sharing the directory got there first.
            }
          }
        } catch (NoSuchFileException e) {
          continue;
        }
        if (movedHere) {
          // The blocks' names leave the catalogue durably (the rename's source directory).
          files.fsyncDir(p);
        }
        if (empty) {
          try {
            removed |= files.delete(p);
          } catch (IOException e) {
            // Not empty after all (a block was published into it meanwhile): keep it.
          }
        }
      }
      if (moved) {
        files.fsyncDir(trash);
      }
      if (removed) {
        files.fsyncDir(signalDir);
      }
      emptyTrash(trash, files);
    }
    return new Swept(blocks, bytes);
  }

  private static void emptyTrash(Path trash, Fs files) throws IOException {
    for (Path b : files.list(trash, "*")) {
      try {
        files.deleteTree(b);
      } catch (NoSuchFileException e) {
        // Deleted by another node.
      }
    }
  }

  private static long size(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      long n = 0;
      for (Path p : s.toList()) {
        if (Files.isRegularFile(p)) {
          n += Files.size(p);
        }
      }
      return n;
    } catch (NoSuchFileException e) {
      return 0;
    }
  }
}
