package mira.query.series;

import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.query.table.IntReader;
import mira.query.table.Tables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;

/**
 * Explicit-bucket histogram buckets of one block: a point's bucket counts (hist_dp.bucket_counts)
 * and its bounds (hist_bounds, interned by bounds_id), read straight from the Arrow buffers.
 */
final class Buckets {
  private final ListVector counts;
  private final IntReader boundsId;
  private final ListVector bounds;
  /** hist_bounds row of each bounds id, -1 if absent. */
  private final int[] rowOfId;
  private final double[][] boundsCache;

  Buckets(TableView hist, TableView boundsTable) {
    counts = hist == null ? null : (ListVector) (FieldVector) hist.column(ColumnNames.BUCKET_COUNTS);
    boundsId = IntReader.of(hist == null ? null : hist.column(ColumnNames.BOUNDS_ID));
    bounds = boundsTable == null ? null : (ListVector) (FieldVector) boundsTable.column(ColumnNames.BOUNDS);
    int rows = boundsTable == null ? 0 : boundsTable.rows();
    IntReader id = IntReader.of(boundsTable == null ? null : boundsTable.column(ColumnNames.ID));
    int max = -1;
    for (int r = 0; r < rows; r++) {
      max = Math.max(max, id.getInt(r));
    }
    rowOfId = new int[max + 1];
    java.util.Arrays.fill(rowOfId, -1);
    for (int r = 0; r < rows; r++) {
      rowOfId[id.getInt(r)] = r;
    }
    boundsCache = new double[rows][];
  }

  static Buckets of(mira.block.read.BlockReader r) throws CorruptBlockException {
    return new Buckets(Tables.get(r, TableFiles.HIST_DP), Tables.get(r, "hist_bounds.arrow"));
  }

  /** The bucket counts of hist_dp row {@code j} (bounds().length + 1 of them, the last the +Inf bucket). */
  long[] counts(int j) {
    return Shapes.longs(counts, j);
  }

  /** The explicit bounds of hist_dp row {@code j}, shared between points with the same bounds. */
  double[] bounds(int j) throws CorruptBlockException {
    int id = boundsId.getInt(j);
    int row = id >= 0 && id < rowOfId.length ? rowOfId[id] : -1;
    if (row < 0 || bounds == null) {
      return new double[0];
    }
    double[] c = boundsCache[row];
    if (c == null) {
      c = Shapes.doubles(bounds, row);
      boundsCache[row] = c;
    }
    return c;
  }
}
