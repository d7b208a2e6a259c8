package mira.fs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Every filesystem call a write path makes: the write-ahead log, a publish (and the table and
 * sidecar files it writes), the cold sweep and retention. Production uses {@link #REAL}, which is
 * the JDK call and nothing else; a test passes {@link mira.fs.testing.FaultyFs}, which can fail
 * the n-th call of a kind and can lose power.
 *
 * <p>The interface is narrow on purpose: what a write path may assume about durability is exactly
 * what these calls promise. A file's bytes are durable once {@link FileChannel#force} on a channel
 * from {@link #create} or {@link #openWrite} returns; a name (created, renamed, deleted) is durable
 * once {@link #fsyncDir} of its directory returns — for a rename, the destination's directory.
 * Reads (the log's replay, the mapped block reader) are not behind the seam: a read cannot make
 * anything less durable.
 */
public interface Fs {
  /** The real filesystem. */
  Fs REAL = new Fs() { };

  /** Creates {@code file}, which must not exist, and opens it for writing. */
  default FileChannel create(Path file) throws IOException {
    return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  }

  /** Opens {@code file} for writing, creating it if missing and cutting it to 0 bytes if present. */
  default FileChannel openWrite(Path file) throws IOException {
    return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING);
  }

  /** Creates the directory {@code dir}; fails if it exists. */
  default void createDirectory(Path dir) throws IOException {
    Files.createDirectory(dir);
  }

  /** Creates {@code dir} and its missing parents. */
  default void createDirectories(Path dir) throws IOException {
    Files.createDirectories(dir);
  }

  /**
   * Creates {@code dir} and its missing parents, and makes each new name durable (an fsync of the
   * directory above every directory it created), so a power cut cannot take away a directory that
   * durable files are later written into.
   */
  default void createDirectoriesDurably(Path dir) throws IOException {
    java.util.ArrayDeque<Path> missing = new java.util.ArrayDeque<>();
    for (Path p = dir.toAbsolutePath(); p != null && !Files.isDirectory(p); p = p.getParent()) {
      missing.push(p);
    }
    for (Path p : missing) {
      try {
        createDirectory(p);
      } catch (java.nio.file.FileAlreadyExistsException e) {
        // Made meanwhile by another writer: its name may not be durable yet, so sync it regardless.
      }
      fsyncDir(p.getParent());
    }
  }

  /** Atomically renames {@code from} to {@code to}, which must not exist. */
  default void rename(Path from, Path to) throws IOException {
    Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Atomically renames the file {@code from} over the file {@code to} (which may exist). */
  default void replace(Path from, Path to) throws IOException {
    Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** fsync of a directory: makes the names in it durable (Linux allows it on a read-only descriptor). */
  default void fsyncDir(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }

  /** The entries of {@code dir} matching {@code glob} (as {@link Files#newDirectoryStream(Path, String)}). */
  default List<Path> list(Path dir, String glob) throws IOException {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, glob)) {
      for (Path p : s) {
        out.add(p);
      }
    }
    return out;
  }

  /** Deletes a file or an empty directory; false if it did not exist. */
  default boolean delete(Path p) throws IOException {
    return Files.deleteIfExists(p);
  }

  /** Deletes {@code root} and everything under it, children first; missing entries are skipped. */
  default void deleteTree(Path root) throws IOException {
    if (Files.isDirectory(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      List<Path> children;
      try {
        children = list(root, "*");
      } catch (NoSuchFileException e) {
        return;
      }
      for (Path c : children) {
        deleteTree(c);
      }
    }
    delete(root);
  }
}
