package mira.block.layout;

import static mira.block.layout.Col.Kind.BINARY;
import static mira.block.layout.Col.Kind.BOOL;
import static mira.block.layout.Col.Kind.DICT_UTF8;
import static mira.block.layout.Col.Kind.F64;
import static mira.block.layout.Col.Kind.I32;
import static mira.block.layout.Col.Kind.I64;
import static mira.block.layout.Col.Kind.LIST_F64;
import static mira.block.layout.Col.Kind.LIST_U64;
import static mira.block.layout.Col.Kind.TIMESTAMP_NS;
import static mira.block.layout.Col.Kind.U16;
import static mira.block.layout.Col.Kind.U32;
import static mira.block.layout.Col.Kind.U64;
import static mira.block.layout.Col.Kind.U8;
import static mira.block.layout.Col.Kind.UTF8;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every table Mira writes, column by column, in file order: name, physical type, nullability.
 * This is the one definition of the block layout (version {@link LayoutVersion#CURRENT}); a change
 * here that old readers cannot read must bump the version.
 */
public final class Layouts {
  private Layouts() {}

  /** The columns of every attribute table (one row per attribute; see the attribute writer). */
  private static final List<Col> ATTRIBUTE_COLUMNS = List.of(
      Col.of(ColumnNames.PARENT_ID, U32, false),
      Col.of(ColumnNames.KEY, DICT_UTF8, false),
      Col.of(ColumnNames.TYPE, U8, false),
      Col.text(ColumnNames.STR),
      Col.omittable(ColumnNames.INT, I64),
      Col.omittable(ColumnNames.DOUBLE, F64),
      Col.of(ColumnNames.BOOL, BOOL, true),
      Col.omittable(ColumnNames.BYTES, BINARY),
      Col.omittable(ColumnNames.SER, BINARY));

  /** An attribute table stored as {@code file}. */
  public static TableLayout attributes(String file) {
    return new TableLayout(file, ATTRIBUTE_COLUMNS, true);
  }

  public static final TableLayout RESOURCES = table(TableFiles.RESOURCES,
      Col.of(ColumnNames.ID, U16, false),
      Col.of(ColumnNames.KEY, U64, false),
      Col.of(ColumnNames.DROPPED_ATTRIBUTES_COUNT, U32, false),
      Col.of(ColumnNames.SCHEMA_URL, UTF8, true),
      Col.of(ColumnNames.ENTITY_REFS, BINARY, true));

  public static final TableLayout SCOPES = table(TableFiles.SCOPES,
      Col.of(ColumnNames.ID, U16, false),
      Col.of(ColumnNames.NAME, UTF8, true),
      Col.of(ColumnNames.VERSION, UTF8, true),
      Col.of(ColumnNames.DROPPED_ATTRIBUTES_COUNT, U32, false),
      Col.of(ColumnNames.SCHEMA_URL, UTF8, true));

  public static final TableLayout LOGS = table(TableFiles.LOGS,
      Col.of(ColumnNames.ID, U32, false),
      Col.of(ColumnNames.TIME_UNIX_NANO, TIMESTAMP_NS, false),
      Col.of(ColumnNames.OBSERVED_TIME_UNIX_NANO, TIMESTAMP_NS, true),
      Col.of(ColumnNames.SEVERITY_NUMBER, I32, true),
      Col.of(ColumnNames.SEVERITY_TEXT, DICT_UTF8, true),
      Col.of(ColumnNames.EVENT_NAME, DICT_UTF8, true),
      Col.of(ColumnNames.BODY, UTF8, true),
      Col.of(ColumnNames.BODY_SER, BINARY, true),
      Col.id(ColumnNames.TRACE_ID, 16, true),
      Col.id(ColumnNames.SPAN_ID, 8, true),
      Col.of(ColumnNames.FLAGS, U32, true),
      Col.of(ColumnNames.DROPPED_ATTRIBUTES_COUNT, U32, false),
      Col.of(ColumnNames.RESOURCE_ID, U16, false),
      Col.of(ColumnNames.SCOPE_ID, U16, false));

  public static final TableLayout SPANS = table(TableFiles.SPANS,
      Col.of(ColumnNames.ID, U32, false),
      Col.id(ColumnNames.TRACE_ID, 16, false),
      Col.id(ColumnNames.SPAN_ID, 8, false),
      Col.id(ColumnNames.PARENT_SPAN_ID, 8, true),
      Col.of(ColumnNames.TRACE_STATE, UTF8, true),
      Col.of(ColumnNames.FLAGS, U32, true),
      Col.of(ColumnNames.NAME, UTF8, false),
      Col.of(ColumnNames.KIND, I32, false),
      Col.of(ColumnNames.START_TIME_UNIX_NANO, TIMESTAMP_NS, false),
      Col.of(ColumnNames.END_TIME_UNIX_NANO, TIMESTAMP_NS, false),
      Col.of(ColumnNames.DURATION_NANO, I64, false),
      Col.of(ColumnNames.STATUS_CODE, I32, false),
      Col.of(ColumnNames.STATUS_MESSAGE, UTF8, true),
      Col.of(ColumnNames.DROPPED_ATTRIBUTES_COUNT, U32, false),
      Col.of(ColumnNames.DROPPED_EVENTS_COUNT, U32, false),
      Col.of(ColumnNames.DROPPED_LINKS_COUNT, U32, false),
      Col.of(ColumnNames.RESOURCE_ID, U16, false),
      Col.of(ColumnNames.SCOPE_ID, U16, false));

  public static final TableLayout SPAN_EVENTS = table(TableFiles.SPAN_EVENTS,
      Col.of(ColumnNames.ID, U32, false),
      Col.of(ColumnNames.PARENT_ID, U32, false),
      Col.of(ColumnNames.TIME_UNIX_NANO, TIMESTAMP_NS, false),
      Col.of(ColumnNames.NAME, UTF8, false),
      Col.of(ColumnNames.DROPPED_ATTRIBUTES_COUNT, U32, false));

  public static final TableLayout SPAN_LINKS = table(TableFiles.SPAN_LINKS,
      Col.of(ColumnNames.ID, U32, false),
      Col.of(ColumnNames.PARENT_ID, U32, false),
      Col.id(ColumnNames.TRACE_ID, 16, true),
      Col.id(ColumnNames.SPAN_ID, 8, true),
      Col.of(ColumnNames.TRACE_STATE, UTF8, true),
      Col.of(ColumnNames.FLAGS, U32, true),
      Col.of(ColumnNames.DROPPED_ATTRIBUTES_COUNT, U32, false));

  public static final TableLayout METRICS = table(TableFiles.METRICS,
      Col.of(ColumnNames.ID, U32, false),
      Col.of(ColumnNames.NAME, UTF8, false),
      Col.of(ColumnNames.DESCRIPTION, UTF8, true),
      Col.of(ColumnNames.UNIT, UTF8, true),
      Col.of(ColumnNames.TYPE, U8, false),
      Col.of(ColumnNames.AGGREGATION_TEMPORALITY, I32, true),
      Col.of(ColumnNames.IS_MONOTONIC, BOOL, true),
      Col.of(ColumnNames.RESOURCE_ID, U16, false),
      Col.of(ColumnNames.SCOPE_ID, U16, false));

  public static final TableLayout NUMBER_DP = point(TableFiles.NUMBER_DP,
      Col.of(ColumnNames.INT, I64, true),
      Col.of(ColumnNames.DOUBLE, F64, true),
      Col.of(ColumnNames.FLAGS, U32, true));

  public static final TableLayout HIST_DP = point(TableFiles.HIST_DP,
      Col.of(ColumnNames.COUNT, U64, false),
      Col.of(ColumnNames.SUM, F64, true),
      Col.of(ColumnNames.BUCKET_COUNTS, LIST_U64, false),
      Col.of(ColumnNames.BOUNDS_ID, U32, false),
      Col.of(ColumnNames.MIN, F64, true),
      Col.of(ColumnNames.MAX, F64, true),
      Col.of(ColumnNames.FLAGS, U32, true));

  public static final TableLayout HIST_BOUNDS = table(TableFiles.HIST_BOUNDS,
      Col.of(ColumnNames.ID, U32, false),
      Col.of(ColumnNames.BOUNDS, LIST_F64, false));

  public static final TableLayout EXP_HIST_DP = point(TableFiles.EXP_HIST_DP,
      Col.of(ColumnNames.COUNT, U64, false),
      Col.of(ColumnNames.SUM, F64, true),
      Col.of(ColumnNames.SCALE, I32, false),
      Col.of(ColumnNames.ZERO_COUNT, U64, false),
      Col.of(ColumnNames.POSITIVE_OFFSET, I32, false),
      Col.of(ColumnNames.POSITIVE_BUCKET_COUNTS, LIST_U64, false),
      Col.of(ColumnNames.NEGATIVE_OFFSET, I32, false),
      Col.of(ColumnNames.NEGATIVE_BUCKET_COUNTS, LIST_U64, false),
      Col.of(ColumnNames.FLAGS, U32, true),
      Col.of(ColumnNames.MIN, F64, true),
      Col.of(ColumnNames.MAX, F64, true),
      Col.of(ColumnNames.ZERO_THRESHOLD, F64, false));

  public static final TableLayout SUMMARY_DP = point(TableFiles.SUMMARY_DP,
      Col.of(ColumnNames.COUNT, U64, false),
      Col.of(ColumnNames.SUM, F64, false),
      Col.of(ColumnNames.QUANTILES, LIST_F64, false),
      Col.of(ColumnNames.VALUES, LIST_F64, false),
      Col.of(ColumnNames.FLAGS, U32, true));

  public static final TableLayout EXEMPLARS = table(TableFiles.EXEMPLARS,
      Col.of(ColumnNames.ID, U32, false),
      Col.of(ColumnNames.PARENT_ID, U32, false),
      Col.of(ColumnNames.TIME_UNIX_NANO, TIMESTAMP_NS, false),
      Col.of(ColumnNames.INT, I64, true),
      Col.of(ColumnNames.DOUBLE, F64, true),
      Col.id(ColumnNames.SPAN_ID, 8, true),
      Col.id(ColumnNames.TRACE_ID, 16, true));

  /** Every table, by file name. */
  private static final Map<String, TableLayout> BY_FILE = byFile(
      RESOURCES, attributes(TableFiles.RESOURCE_ATTRS), SCOPES, attributes(TableFiles.SCOPE_ATTRS),
      LOGS, attributes(TableFiles.LOG_ATTRS),
      SPANS, attributes(TableFiles.SPAN_ATTRS), SPAN_EVENTS, attributes(TableFiles.SPAN_EVENT_ATTRS),
      SPAN_LINKS, attributes(TableFiles.SPAN_LINK_ATTRS),
      METRICS, attributes(TableFiles.METRIC_ATTRS), NUMBER_DP, HIST_DP, HIST_BOUNDS, EXP_HIST_DP, SUMMARY_DP,
      attributes(TableFiles.DP_ATTRS), EXEMPLARS, attributes(TableFiles.EXEMPLAR_ATTRS));

  /** The layout of the table stored as {@code file}. */
  public static TableLayout of(String file) {
    TableLayout t = BY_FILE.get(file);
    if (t == null) {
      throw new IllegalArgumentException("no table of the layout is stored as " + file);
    }
    return t;
  }

  /** The file names of every table of the layout. */
  public static java.util.Set<String> files() {
    return BY_FILE.keySet();
  }

  private static Map<String, TableLayout> byFile(TableLayout... tables) {
    Map<String, TableLayout> m = new HashMap<>();
    for (TableLayout t : tables) {
      m.put(t.file(), t);
    }
    return Map.copyOf(m);
  }

  private static TableLayout table(String file, Col... columns) {
    return new TableLayout(file, List.of(columns), false);
  }

  /** A point table: the four columns every one starts with, then its own. */
  private static TableLayout point(String file, Col... own) {
    List<Col> all = new ArrayList<>(List.of(
        Col.of(ColumnNames.ID, U32, false),
        Col.of(ColumnNames.PARENT_ID, U32, false),
        Col.of(ColumnNames.START_TIME_UNIX_NANO, TIMESTAMP_NS, true),
        Col.of(ColumnNames.TIME_UNIX_NANO, TIMESTAMP_NS, false)));
    all.addAll(List.of(own));
    return new TableLayout(file, all, false);
  }
}
