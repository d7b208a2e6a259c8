package mira.block.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import mira.fs.Fs;

/**
 * {@code census.idx}: what each resource of a sealed block sent, counted over the whole block —
 * records, spans with status ERROR (traces), and the first and last record time — so that the
 * service and entity listings of a restarted node read a few numbers per resource instead of
 * every row of the block's root table.
 *
 * <p>Unlike the other sidecars it is not written at seal but the first time a census counts the
 * block whole (the counts live in the query module, which reads the tables): a block published
 * before this file existed gets it on its first census, and every later process reads it. It is
 * written beside the tables under a temporary name, fsynced, and renamed over any old one, so a
 * reader sees either no file or a whole one.
 *
 * <p>File (inside the {@link SidecarFile} frame, magic {@code "MCNS"}, version 1, no flags):
 * {@code u32 resources, u32 0, then per resource: u64 records, u64 errors, i64 first, i64 last}
 * (first is {@link Long#MAX_VALUE} and last {@link Long#MIN_VALUE} for a resource without records).
 *
 * <p>A missing, damaged or mismatched file (another number of resources than the block's resource
 * table) is {@linkplain #read ignored}: the census then counts the block from its rows, so the
 * file can make an answer faster but never different.
 */
public final class CensusIndex {
  public static final String FILE = "census.idx";
  static final byte[] MAGIC = {'M', 'C', 'N', 'S'};
  static final int VERSION = 1;

  private final long[] records;
  private final long[] errors;
  private final long[] first;
  private final long[] last;

  /** The counts of resource {@code i} at index {@code i} of each array; the arrays are kept, not copied. */
  public CensusIndex(long[] records, long[] errors, long[] first, long[] last) {
    int n = records.length;
    if (errors.length != n || first.length != n || last.length != n) {
      throw new IllegalArgumentException("arrays of different lengths");
    }
    this.records = records;
    this.errors = errors;
    this.first = first;
    this.last = last;
  }

  /** Resources counted. */
  public int resources() {
    return records.length;
  }

  public long records(int resource) {
    return records[resource];
  }

  public long errors(int resource) {
    return errors[resource];
  }

  public long first(int resource) {
    return first[resource];
  }

  public long last(int resource) {
    return last[resource];
  }

  /** The file's bytes. */
  public byte[] toBytes() {
    int n = records.length;
    ByteBuffer b = SidecarFile.start(MAGIC, VERSION, 0, 8 + 32L * n);
    b.putInt(n).putInt(0);
    for (int i = 0; i < n; i++) {
      b.putLong(records[i]).putLong(errors[i]).putLong(first[i]).putLong(last[i]);
    }
    return SidecarFile.finish(b);
  }

  /** Parses a file's bytes; null if they are damaged. */
  public static CensusIndex parse(byte[] file) {
    try {
      ByteBuffer p = SidecarFile.open(file, MAGIC, VERSION).payload();
      if (p.remaining() < 8) {
        return null;
      }
      int n = p.getInt();
      p.getInt();
      if (n < 0 || p.remaining() != 32L * n) {
        return null;
      }
      long[] r = new long[n];
      long[] e = new long[n];
      long[] f = new long[n];
      long[] l = new long[n];
      for (int i = 0; i < n; i++) {
        r[i] = p.getLong();
        e[i] = p.getLong();
        f[i] = p.getLong();
        l[i] = p.getLong();
        if (r[i] < 0 || e[i] < 0 || e[i] > r[i]) {
          return null;
        }
      }
      return new CensusIndex(r, e, f, l);
    } catch (SidecarFile.Damaged e) {
      return null;
    }
  }

  /**
   * Reads {@code blockDir/census.idx}: null if it is missing, unreadable, damaged, or counts
   * another number of resources than {@code resources}. Never throws.
   */
  public static CensusIndex read(Path blockDir, int resources) {
    byte[] bytes;
    try {
      bytes = SidecarFile.read(blockDir.resolve(FILE));
    } catch (IOException | RuntimeException e) {
      return null;
    }
    CensusIndex c = bytes == null ? null : parse(bytes);
    return c == null || c.resources() != resources ? null : c;
  }

  /**
   * Writes {@code blockDir/census.idx}, replacing any old one: a temporary file in the block's
   * directory, fsynced, renamed over the name, the directory fsynced. On failure (a read-only
   * directory, a block removed meanwhile) the temporary file is removed and the error thrown;
   * the caller may ignore it, as the file is only a shortcut.
   */
  public void write(Path blockDir, Fs fs) throws IOException {
    Path tmp = blockDir.resolve(FILE + ".tmp-" + Long.toHexString(ThreadLocalRandom.current().nextLong()));
    try {
      SidecarFile.write(tmp, toBytes(), fs);
      fs.replace(tmp, blockDir.resolve(FILE));
      fs.fsyncDir(blockDir);
    } catch (IOException | RuntimeException e) {
      try {
        java.nio.file.Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // The block's directory is gone or read-only; nothing was left, or nothing can be done.
      }
      throw e;
    }
  }
}
