package mira.query.entity;

import java.util.Arrays;
import java.util.Set;
import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.query.table.IntReader;
import mira.query.table.Tables;

/**
 * The entity keys of one block's resources table ({@code key}, one per resource id). The table
 * holds tens of rows, so each use reads all of it.
 */
public final class ResourceKeys {
  private ResourceKeys() {}

  /**
   * Marks, by resource id, the resources whose key is in {@code keys}; null if the block has no
   * resources table (then no row has an entity).
   */
  public static boolean[] marks(BlockReader r, Set<Long> keys) throws CorruptBlockException {
    TableView res = Tables.get(r, TableFiles.RESOURCES);
    if (res == null) {
      return null;
    }
    IntReader key = IntReader.of(res.column(ColumnNames.KEY));
    boolean[] out = new boolean[res.rows()];
    for (int i = 0; i < out.length; i++) {
      out[i] = !key.isNull(i) && key.get(i) != 0 && keys.contains(key.get(i));
    }
    return out;
  }

  /** The distinct non-zero keys of the block's resources, sorted (signed order); empty if none. */
  public static long[] of(BlockReader r) throws CorruptBlockException {
    TableView res = Tables.get(r, TableFiles.RESOURCES);
    if (res == null) {
      return new long[0];
    }
    IntReader key = IntReader.of(res.column(ColumnNames.KEY));
    long[] out = new long[res.rows()];
    int n = 0;
    for (int i = 0; i < out.length; i++) {
      if (!key.isNull(i) && key.get(i) != 0) {
        out[n++] = key.get(i);
      }
    }
    long[] keys = Arrays.copyOf(out, n);
    Arrays.sort(keys);
    int d = 0;
    for (int i = 0; i < keys.length; i++) {
      if (d == 0 || keys[i] != keys[d - 1]) {
        keys[d++] = keys[i];
      }
    }
    return Arrays.copyOf(keys, d);
  }

  /** Whether the sorted key set {@code present} holds any of {@code wanted}. */
  public static boolean anyOf(long[] present, Set<Long> wanted) {
    if (present.length < wanted.size()) {
      for (long k : present) {
        if (wanted.contains(k)) {
          return true;
        }
      }
      return false;
    }
    for (long k : wanted) {
      if (Arrays.binarySearch(present, k) >= 0) {
        return true;
      }
    }
    return false;
  }
}
