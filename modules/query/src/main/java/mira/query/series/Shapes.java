package mira.query.series;

import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.query.table.IntReader;
import mira.query.table.Tables;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;

/**
 * The bucket columns of exp_hist_dp (scale, zero_count, positive and negative offsets and counts)
 * and the quantile columns of summary_dp (quantiles, values) of one block, read straight from the
 * Arrow buffers for the quantile functions.
 */
final class Shapes {
  /** A summary point's (quantile, value) pairs, in the order sent. */
  record Summary(double[] quantiles, double[] values) {}

  private final IntReader scale;
  private final IntReader zero;
  private final IntReader posOffset;
  private final IntReader negOffset;
  private final ListVector pos;
  private final ListVector neg;
  private final ListVector quantiles;
  private final ListVector values;

  private Shapes(TableView exp, TableView summary) {
    scale = IntReader.of(exp == null ? null : exp.column(ColumnNames.SCALE));
    zero = IntReader.of(exp == null ? null : exp.column(ColumnNames.ZERO_COUNT));
    posOffset = IntReader.of(exp == null ? null : exp.column(ColumnNames.POSITIVE_OFFSET));
    negOffset = IntReader.of(exp == null ? null : exp.column(ColumnNames.NEGATIVE_OFFSET));
    pos = list(exp, ColumnNames.POSITIVE_BUCKET_COUNTS);
    neg = list(exp, ColumnNames.NEGATIVE_BUCKET_COUNTS);
    quantiles = list(summary, ColumnNames.QUANTILES);
    values = list(summary, ColumnNames.VALUES);
  }

  static Shapes of(BlockReader r) throws CorruptBlockException {
    return new Shapes(Tables.get(r, TableFiles.EXP_HIST_DP), Tables.get(r, TableFiles.SUMMARY_DP));
  }

  private static ListVector list(TableView t, String column) {
    return t == null ? null : (ListVector) (FieldVector) t.column(column);
  }

  /** The buckets of exp_hist_dp row {@code j}. */
  ExpHist exp(int j) {
    return ExpHist.of(scale.getInt(j), zero.getOr(j, 0), posOffset.getInt(j), longs(pos, j), negOffset.getInt(j),
        longs(neg, j));
  }

  /** The (quantile, value) pairs of summary_dp row {@code j}. */
  Summary summary(int j) {
    double[] q = doubles(quantiles, j);
    double[] v = doubles(values, j);
    // Lists of different lengths cannot be paired: the point carries no quantile rather than wrong ones.
    return v.length == q.length ? new Summary(q, v) : new Summary(new double[0], new double[0]);
  }

  /** Row {@code j} of a list-of-int64 column (empty when the column is absent or the row null). */
  static long[] longs(ListVector l, int j) {
    if (l == null || l.isNull(j)) {
      return new long[0];
    }
    ArrowBuf off = l.getOffsetBuffer();
    int a = off.getInt(4L * j);
    int b = off.getInt(4L * (j + 1));
    ArrowBuf data = l.getDataVector().getDataBuffer();
    long[] out = new long[b - a];
    for (int k = a; k < b; k++) {
      out[k - a] = data.getLong(8L * k);
    }
    return out;
  }

  /** Row {@code j} of a list-of-float64 column (empty when the column is absent or the row null). */
  static double[] doubles(ListVector l, int j) {
    long[] bits = longs(l, j);
    double[] out = new double[bits.length];
    for (int k = 0; k < bits.length; k++) {
      out[k] = Double.longBitsToDouble(bits[k]);
    }
    return out;
  }
}
