package mira.block.publish;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The directory operations a publish makes, as a seam: production uses {@link #REAL}, a test an
 * implementation that fails a chosen call. Called a handful of times per block, never per row, so
 * the seam costs nothing measurable. (The table files themselves are written by
 * {@link TableWriter} and fsynced there; they do not go through this seam yet.)
 */
public interface PublishFiles {
  /** The real filesystem. */
  PublishFiles REAL = new PublishFiles() { };

  /** Creates {@code dir}; fails if it exists (a staging directory is never shared). */
  default void createDirectory(Path dir) throws IOException {
    Files.createDirectory(dir);
  }

  /** Creates {@code dir} and its parents if missing. */
  default void createDirectories(Path dir) throws IOException {
    Files.createDirectories(dir);
  }

  /** Atomically renames {@code from} to {@code to}; once it returns the block is visible. */
  default void rename(Path from, Path to) throws IOException {
    Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
  }

  /** fsync of a directory: persists its entries (Linux allows it on a read-only descriptor). */
  default void fsyncDir(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }
}
