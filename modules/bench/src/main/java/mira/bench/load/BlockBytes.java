package mira.bench.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Bytes on disk under a data directory: the files of published blocks ({@code
 * <signal>/p=<hour>/<block>/...}), and every regular file for comparison. Staging directories
 * ({@code .staging}) are a publish in progress and are not blocks yet. Files that vanish while the
 * tree is walked (a staging directory renamed) are skipped.
 */
final class BlockBytes {
  private BlockBytes() {}

  /** Sizes in bytes: of block files, and of all regular files. */
  record Usage(long blocks, long all) {}

  static Usage of(Path dataDir) {
    long[] sums = new long[2];
    try {
      Files.walkFileTree(dataDir, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
          if (!attrs.isRegularFile()) return FileVisitResult.CONTINUE;
          sums[1] += attrs.size();
          if (isBlockFile(dataDir.relativize(file))) sums[0] += attrs.size();
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
          if (e instanceof NoSuchFileException) return FileVisitResult.CONTINUE;
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Usage(sums[0], sums[1]);
  }

  /** Whether a path relative to the data directory is a file of a published block. */
  static boolean isBlockFile(Path rel) {
    if (rel.getNameCount() < 4) return false;
    boolean partition = false;
    for (int i = 0; i < rel.getNameCount() - 1; i++) {
      String part = rel.getName(i).toString();
      if (part.equals(".staging")) return false;
      if (part.startsWith("p=")) partition = true;
    }
    return partition;
  }
}
