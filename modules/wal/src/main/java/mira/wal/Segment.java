package mira.wal;

import java.nio.file.Path;

/**
 * One segment file, {@code <first seq, 20 digits>.wal}. {@code lastSeq} is the highest sequence
 * written to it (-1 while empty); {@code bytes} the bytes of the whole frames in it, which is what
 * {@link Wal#bytes()} sums (a torn tail is not counted).
 */
final class Segment {
  final Path path;
  final long firstSeq;
  long lastSeq = -1;
  long bytes;

  Segment(Path path, long firstSeq) {
    this.path = path;
    this.firstSeq = firstSeq;
  }

  static String name(long firstSeq) {
    return String.format("%020d.wal", firstSeq);
  }

  static long parse(String name) {
    if (!name.endsWith(".wal") || name.length() != 24) {
      return -1;
    }
    try {
      return Long.parseLong(name.substring(0, 20));
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
