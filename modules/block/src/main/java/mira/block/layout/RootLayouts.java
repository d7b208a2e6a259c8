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
      Col.of("id", U32, false),
      Col.of("time_unix_nano", TIMESTAMP_NS, false),
      Col.of("observed_time_unix_nano", TIMESTAMP_NS, true),
      Col.of("severity_number", I32, true),
      Col.of("severity_text", DICT_UTF8, true),
      Col.of("event_name", DICT_UTF8, true),
      Col.of("body", UTF8, true),
      Col.of("body_ser", BINARY, true),
      Col.id("trace_id", 16, true),
      Col.id("span_id", 8, true),
      Col.of("flags", U32, true),
      Col.of("dropped_attributes_count", U32, false),
      Col.of("resource_id", U16, false),
      Col.of("scope_id", U16, false));

  /** {@link TableFiles#SPANS}, in column order. */
  public static final List<Col> SPANS = List.of(
      Col.of("id", U32, false),
      Col.id("trace_id", 16, false),
      Col.id("span_id", 8, false),
      Col.id("parent_span_id", 8, true),
      Col.of("trace_state", UTF8, true),
      Col.of("flags", U32, true),
      Col.of("name", UTF8, false),
      Col.of("kind", I32, false),
      Col.of("start_time_unix_nano", TIMESTAMP_NS, false),
      Col.of("end_time_unix_nano", TIMESTAMP_NS, false),
      Col.of("duration_nano", I64, false),
      Col.of("status_code", I32, false),
      Col.of("status_message", UTF8, true),
      Col.of("dropped_attributes_count", U32, false),
      Col.of("dropped_events_count", U32, false),
      Col.of("dropped_links_count", U32, false),
      Col.of("resource_id", U16, false),
      Col.of("scope_id", U16, false));

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
