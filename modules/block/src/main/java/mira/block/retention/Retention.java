package mira.block.retention;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.OptionalLong;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import mira.block.catalog.BlockName;
import mira.block.publish.Publisher;
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
    int blocks = 0;
    long bytes = 0;
    for (Signal s : Signal.values()) {
      Path signalDir = dataDir.resolve(s.dir());
      if (!Files.isDirectory(signalDir)) {
        continue;
      }
      Path trash = signalDir.resolve(TRASH);
      Files.createDirectories(trash);
      boolean moved = false;
      try (DirectoryStream<Path> parts = Files.newDirectoryStream(signalDir, "p=*")) {
        for (Path p : parts) {
          OptionalLong start = BlockName.partitionStart(p.getFileName().toString());
          // A partition's blocks start within its hour; none can be expired if the hour starts after the cutoff.
          if (start.isEmpty() || start.getAsLong() > cutoffNanos) {
            continue;
          }
          boolean empty = true;
          try (DirectoryStream<Path> bs = Files.newDirectoryStream(p)) {
            for (Path b : bs) {
              Optional<BlockName> n = BlockName.parse(b.getFileName().toString());
              if (n.isEmpty() || n.get().maxTime() >= cutoffNanos) {
                empty = false;
                continue;
              }
              long size = size(b);
              try {
                Files.move(b, trash.resolve(b.getFileName()), StandardCopyOption.ATOMIC_MOVE);
                blocks++;
                bytes += size;
                moved = true;
              } catch (NoSuchFileException | FileAlreadyExistsException e) {
                // Another node sharing the directory got there first.
              }
            }
          } catch (NoSuchFileException e) {
            continue;
          }
          if (empty) {
            try {
              Files.deleteIfExists(p);
            } catch (IOException e) {
              // Not empty after all (a block was published into it meanwhile): keep it.
            }
          }
        }
      }
      if (moved) {
        Publisher.fsyncDir(signalDir);
      }
      emptyTrash(trash);
    }
    return new Swept(blocks, bytes);
  }

  private static void emptyTrash(Path trash) throws IOException {
    try (DirectoryStream<Path> s = Files.newDirectoryStream(trash)) {
      for (Path b : s) {
        deleteTree(b);
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

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (NoSuchFileException e) {
      // Deleted by another node.
    }
  }
}
