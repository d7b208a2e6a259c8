package mira.block.layout;

import static mira.block.layout.Col.Kind.DICT_UTF8;
import static mira.block.layout.Col.Kind.BINARY;
import static mira.block.layout.Col.Kind.I32;
import static mira.block.layout.Col.Kind.I64;
import static mira.block.layout.Col.Kind.TIMESTAMP_NS;
import static mira.block.layout.Col.Kind.U16;
import static mira.block.layout.Col.Kind.U32;
import static mira.block.layout.Col.Kind.UTF8;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The root tables of logs and spans, column by column: the writers build their tables from these
 * lists, and readers that must know a column's nullability (zone-index pruning treats an unset
 * integer as 0 only where no null can occur) read it here instead of from a writer.
 */
public final class RootLayouts {
  /** {@link TableFiles#LOGS}, in column order. */
  public static final List<Col> LOGS = List.of(
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

  /** {@link TableFiles#SPANS}, in column order. */
  public static final List<Col> SPANS = List.of(
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

  private RootLayouts() {}

  /** The names of the columns in {@code table} that never hold a null. */
  public static Set<String> neverNull(List<Col> table) {
    Set<String> out = new HashSet<>();
    for (Col c : table) {
      if (!c.nullable()) {
        out.add(c.name());
      }
    }
    return Set.copyOf(out);
  }
}
