package mira.block.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import mira.block.column.FixedColumn;
import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import mira.block.table.Batch;
import mira.block.table.Table;
import mira.fs.Fs;

/**
 * {@code census.idx}: what each resource of a sealed block sent, counted over the whole block —
 * records, spans with status ERROR (traces), and the first and last record time — so that the
 * service and entity listings of a restarted node read a few numbers per resource instead of
 * every row of the block's root table.
 *
 * <p>Written at seal with the other sidecars ({@link #build}, from the batch being published), so
 * a fresh block's first census reads it too. A block published before that (or whose file was
 * lost or damaged) gets it the first time a census counts the block whole, in the query module,
 * which reads the tables: {@link #write} puts it beside the tables under a temporary name, fsynced,
 * and renamed over any old one, so a reader sees either no file or a whole one. Both counts follow
 * one rule, tested against each other: a log record at its {@code time_unix_nano}; a span at its
 * start, else its end, else the block's newest time, an error when its status code is 2 (ERROR);
 * a data point of any point table at its {@code time_unix_nano}, under its metric's resource.
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

  /**
   * Counts the resources of a sealed batch as the query module's census counts the block it
   * becomes: null if the batch has no resources.
   */
  public static CensusIndex build(Batch batch) {
    int n = batch.table(Batch.RESOURCES).rows();
    if (n == 0) {
      return null;
    }
    long[] records = new long[n];
    long[] errors = new long[n];
    long[] first = new long[n];
    long[] last = new long[n];
    Arrays.fill(first, Long.MAX_VALUE);
    Arrays.fill(last, Long.MIN_VALUE);
    CensusIndex c = new CensusIndex(records, errors, first, last);
    switch (batch.signal()) {
      case LOGS -> {
        Table t = batch.table(Batch.ROOT);
        FixedColumn rid = fixed(t, ColumnNames.RESOURCE_ID);
        FixedColumn time = fixed(t, ColumnNames.TIME_UNIX_NANO);
        for (int i = 0, rows = t.rows(); i < rows; i++) {
          c.count(rid.getUnsignedShort(i), time.getLong(i));
        }
      }
      case TRACES -> {
        Table t = batch.table(Batch.ROOT);
        FixedColumn rid = fixed(t, ColumnNames.RESOURCE_ID);
        FixedColumn start = fixed(t, ColumnNames.START_TIME_UNIX_NANO);
        FixedColumn end = fixed(t, ColumnNames.END_TIME_UNIX_NANO);
        FixedColumn status = fixed(t, ColumnNames.STATUS_CODE);
        long fallback = batch.maxTime();
        for (int i = 0, rows = t.rows(); i < rows; i++) {
          long s = start.isSet(i) ? start.getLong(i) : 0;
          if (s == 0) {
            s = end.isSet(i) ? end.getLong(i) : 0;
          }
          int id = rid.getUnsignedShort(i);
          if (c.count(id, s != 0 ? s : fallback) && status.isSet(i) && status.getInt(i) == 2) {
            errors[id]++;
          }
        }
      }
      case METRICS -> {
        Table metrics = batch.table(Batch.ROOT);
        FixedColumn mres = fixed(metrics, ColumnNames.RESOURCE_ID);
        int nm = metrics.rows();
        for (Table t : batch.tables()) {
          if (!isPointTable(t.file())) {
            continue;
          }
          FixedColumn parent = fixed(t, ColumnNames.PARENT_ID);
          FixedColumn time = fixed(t, ColumnNames.TIME_UNIX_NANO);
          for (int i = 0, rows = t.rows(); i < rows; i++) {
            int p = parent.getInt(i);
            if (p >= 0 && p < nm) {
              c.count(mres.getUnsignedShort(p), time.getLong(i));
            }
          }
        }
      }
    }
    return c;
  }

  /** The point tables a census counts (every kind of data point). */
  private static boolean isPointTable(String file) {
    return file.equals(TableFiles.NUMBER_DP) || file.equals(TableFiles.HIST_DP) || file.equals(TableFiles.EXP_HIST_DP)
        || file.equals(TableFiles.SUMMARY_DP);
  }

  private static FixedColumn fixed(Table t, String column) {
    return (FixedColumn) t.column(column);
  }

  /** Counts one record of resource {@code id} at {@code time}; false for an id outside the table. */
  private boolean count(int id, long time) {
    if (id < 0 || id >= records.length) {
      return false;
    }
    records[id]++;
    if (time < first[id]) {
      first[id] = time;
    }
    if (time > last[id]) {
      last[id] = time;
    }
    return true;
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
