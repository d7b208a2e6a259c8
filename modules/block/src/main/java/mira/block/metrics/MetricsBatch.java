package mira.block.metrics;

import mira.block.layout.ColumnNames;
import mira.block.layout.Layouts;
import mira.block.layout.TableLayout;
import mira.block.table.LayoutTables;
import mira.block.table.LayoutTables.Role;
import mira.block.layout.TableFiles;
import mira.block.table.Attributes;
import mira.block.table.Batch;
import mira.block.table.ResourceScopeWriter;
import mira.block.table.Interner;
import mira.block.table.Rebase;
import mira.block.table.Table;
import mira.proto.wire.Signal;

/**
 * The metrics signal's tables. {@code metrics.arrow} (the root) has one row per metric:
 *
 * <pre>
 * id                       UInt32     dense, block-local
 * name                     Utf8
 * description, unit        Utf8?      null when empty
 * type                     UInt8      0 none, 1 gauge, 2 sum, 3 histogram, 4 exponential histogram, 5 summary
 * aggregation_temporality  Int32?     set for sum, histogram and exponential histogram (0 included)
 * is_monotonic             Boolean?   set for sum
 * resource_id, scope_id    UInt16
 * </pre>
 *
 * Data points go to four tables by kind — {@code number_dp} (gauge and sum), {@code hist_dp},
 * {@code exp_hist_dp}, {@code summary_dp} — whose {@code parent_id} is the metric's id and whose
 * {@code id} is a point id. Point ids are one dense space across the four tables (the k-th point of
 * the block has id k, whichever table holds it), so {@code dp_attrs} and {@code exemplars} refer to
 * a point by id alone. They come from the batch's {@link #POINTS} sequence and are rebased by it on
 * append.
 *
 * <p>Every point table starts {@code id, parent_id, start_time_unix_nano} (Timestamp, null when 0),
 * {@code time_unix_nano} (Timestamp; the receive time when 0) and holds {@code flags} (UInt32, null
 * when 0). Then:
 *
 * <pre>
 * number_dp    int Int64?, double Float64? — whichever of the value oneof was sent, both null if neither
 * hist_dp      count UInt64, sum Float64?, bucket_counts List&lt;UInt64&gt;, bounds_id UInt32, min Float64?, max Float64?
 * hist_bounds  id UInt32, bounds List&lt;Float64&gt; — interned: one row per distinct explicit_bounds array
 * exp_hist_dp  count UInt64, sum Float64?, scale Int32, zero_count UInt64,
 *              positive_offset Int32, positive_bucket_counts List&lt;UInt64&gt;,
 *              negative_offset Int32, negative_bucket_counts List&lt;UInt64&gt;, min Float64?, max Float64?,
 *              zero_threshold Float64
 * summary_dp   count UInt64, sum Float64, quantiles List&lt;Float64&gt;, values List&lt;Float64&gt;
 * exemplars    id UInt32, parent_id UInt32 (point id), time_unix_nano Timestamp, int Int64?, double Float64?,
 *              span_id FixedSizeBinary(8)?, trace_id FixedSizeBinary(16)?
 * </pre>
 *
 * An exponential histogram's absent {@code positive} / {@code negative} buckets are stored as
 * offset 0 and an empty list, the same as a present but empty Buckets message: both describe no
 * buckets. {@code metric_attrs} (Metric.metadata, parent = metric id), {@code dp_attrs} (parent =
 * point id) and {@code exemplar_attrs} (parent = exemplar id) have the shared attribute layout.
 */
public final class MetricsBatch extends Batch {
  /** The id sequence of data points, shared by the four point tables. */
  public static final int POINTS = 0;

  public static final int METRICS = ROOT;
  public static final int METRIC_ATTRS = ROOT + 1;
  public static final int NUMBER_DP = ROOT + 2;
  public static final int HIST_DP = ROOT + 3;
  public static final int HIST_BOUNDS = ROOT + 4;
  public static final int EXP_HIST_DP = ROOT + 5;
  public static final int SUMMARY_DP = ROOT + 6;
  public static final int DP_ATTRS = ROOT + 7;
  public static final int EXEMPLARS = ROOT + 8;
  public static final int EXEMPLAR_ATTRS = ROOT + 9;

  /** Values of metrics.type. */
  public static final int TYPE_NONE = 0;
  public static final int TYPE_GAUGE = 1;
  public static final int TYPE_SUM = 2;
  public static final int TYPE_HISTOGRAM = 3;
  public static final int TYPE_EXPONENTIAL_HISTOGRAM = 4;
  public static final int TYPE_SUMMARY = 5;

  // metrics.arrow
  static final int M_ID = 0;
  static final int M_NAME = 1;
  static final int M_DESCRIPTION = 2;
  static final int M_UNIT = 3;
  static final int M_TYPE = 4;
  static final int M_TEMPORALITY = 5;
  static final int M_MONOTONIC = 6;
  static final int M_RESOURCE_ID = 7;
  static final int M_SCOPE_ID = 8;

  // The four columns every point table starts with.
  static final int P_ID = 0;
  static final int P_PARENT = 1;
  static final int P_START = 2;
  static final int P_TIME = 3;

  // number_dp.arrow
  static final int N_INT = 4;
  static final int N_DOUBLE = 5;
  static final int N_FLAGS = 6;

  // hist_dp.arrow
  static final int H_COUNT = 4;
  static final int H_SUM = 5;
  static final int H_BUCKETS = 6;
  static final int H_BOUNDS_ID = 7;
  static final int H_MIN = 8;
  static final int H_MAX = 9;
  static final int H_FLAGS = 10;

  // exp_hist_dp.arrow
  static final int E_COUNT = 4;
  static final int E_SUM = 5;
  static final int E_SCALE = 6;
  static final int E_ZERO_COUNT = 7;
  static final int E_POS_OFFSET = 8;
  static final int E_POS_BUCKETS = 9;
  static final int E_NEG_OFFSET = 10;
  static final int E_NEG_BUCKETS = 11;
  static final int E_FLAGS = 12;
  static final int E_MIN = 13;
  static final int E_MAX = 14;
  static final int E_ZERO_THRESHOLD = 15;

  // summary_dp.arrow
  static final int S_COUNT = 4;
  static final int S_SUM = 5;
  static final int S_QUANTILES = 6;
  static final int S_VALUES = 7;
  static final int S_FLAGS = 8;

  // exemplars.arrow
  static final int X_ID = 0;
  static final int X_PARENT = 1;
  static final int X_TIME = 2;
  static final int X_INT = 3;
  static final int X_DOUBLE = 4;
  static final int X_SPAN_ID = 5;
  static final int X_TRACE_ID = 6;

  public MetricsBatch() {
    super(layout(), 1, HIST_BOUNDS);
  }

  private static Table[] layout() {
    Table[] shared = ResourceScopeWriter.sharedTables();
    Table metrics = LayoutTables.build(Layouts.METRICS, Role.rows(ColumnNames.ID, METRICS),
        Role.shared(ColumnNames.RESOURCE_ID, Rebase.RESOURCE), Role.shared(ColumnNames.SCOPE_ID, Rebase.SCOPE));
    Table metricAttrs = Attributes.table(TableFiles.METRIC_ATTRS, Rebase.ROWS, METRICS);
    Table number = point(Layouts.NUMBER_DP);
    Table hist = point(Layouts.HIST_DP, Role.interned(ColumnNames.BOUNDS_ID, HIST_BOUNDS));
    Table bounds = LayoutTables.build(Layouts.HIST_BOUNDS, Role.interned(ColumnNames.ID, HIST_BOUNDS));
    Table expHist = point(Layouts.EXP_HIST_DP);
    Table summary = point(Layouts.SUMMARY_DP);
    Table dpAttrs = Attributes.table(TableFiles.DP_ATTRS, Rebase.SEQUENCE, POINTS);
    Table exemplars = LayoutTables.build(Layouts.EXEMPLARS, Role.rows(ColumnNames.ID, EXEMPLARS),
        Role.sequence(ColumnNames.PARENT_ID, POINTS));
    Table exemplarAttrs = Attributes.table(TableFiles.EXEMPLAR_ATTRS, Rebase.ROWS, EXEMPLARS);
    return new Table[] {
      shared[0], shared[1], shared[2], shared[3],
      metrics, metricAttrs, number, hist, bounds, expHist, summary, dpAttrs, exemplars, exemplarAttrs
    };
  }

  /** A point table: ids from the point sequence, parents in the metrics table, and {@code more} roles. */
  private static Table point(TableLayout layout, Role... more) {
    Role[] roles = new Role[more.length + 2];
    roles[0] = Role.sequence(ColumnNames.ID, POINTS);
    roles[1] = Role.rows(ColumnNames.PARENT_ID, METRICS);
    System.arraycopy(more, 0, roles, 2, more.length);
    return LayoutTables.build(layout, roles);
  }

  @Override
  public Signal signal() {
    return Signal.METRICS;
  }

  @Override
  public Batch newEmpty() {
    return new MetricsBatch();
  }

  /** Data points, over all four point tables. */
  @Override
  public long records() {
    return points();
  }

  /** Data points so far; the next point's id. */
  public int points() {
    return sequence(POINTS);
  }

  int nextPoint() {
    return nextId(POINTS);
  }

  /** The hist_bounds interner: explicit bounds (little-endian doubles) → bounds_id. */
  Interner bounds() {
    return interner(HIST_BOUNDS);
  }
}
