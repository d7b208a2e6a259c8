package mira.block.traces;

import mira.block.layout.ColumnNames;
import mira.block.table.LayoutTables;
import mira.block.table.LayoutTables.Role;
import mira.block.layout.Layouts;
import mira.block.layout.TableFiles;
import mira.block.table.Attributes;
import mira.block.table.Batch;
import mira.block.table.ResourceScopeWriter;
import mira.block.table.Rebase;
import mira.block.table.Table;
import mira.proto.wire.Signal;

/**
 * The traces signal's tables. {@code spans.arrow} (the root) has one row per span:
 *
 * <pre>
 * id                        UInt32      dense, block-local
 * trace_id                  FixedSizeBinary(16)  required by the decoder
 * span_id                   FixedSizeBinary(8)   required by the decoder
 * parent_span_id            FixedSizeBinary(8)?  null for a root span
 * trace_state               Utf8?       null when empty
 * flags                     UInt32?     null when 0
 * name                      Utf8        as sent, possibly empty
 * kind                      Int32       as sent, 0 (unspecified) included
 * start_time_unix_nano      Timestamp   as sent
 * end_time_unix_nano        Timestamp   as sent
 * duration_nano             Int64       end - start
 * status_code               Int32       as sent, 0 (unset) included
 * status_message            Utf8?       null when empty
 * dropped_attributes_count  UInt32
 * dropped_events_count      UInt32
 * dropped_links_count       UInt32
 * resource_id, scope_id     UInt16
 * </pre>
 *
 * {@code span_events.arrow}: {@code id} UInt32, {@code parent_id} UInt32 (spans.id),
 * {@code time_unix_nano} Timestamp, {@code name} Utf8, {@code dropped_attributes_count} UInt32.
 * {@code span_links.arrow}: {@code id} UInt32, {@code parent_id} UInt32 (spans.id),
 * {@code trace_id} FixedSizeBinary(16)?, {@code span_id} FixedSizeBinary(8)?, {@code trace_state}
 * Utf8?, {@code flags} UInt32? (null when 0), {@code dropped_attributes_count} UInt32.
 * {@code span_attrs}, {@code span_event_attrs} and {@code span_link_attrs} have the shared
 * attribute layout with parent_id = the span's, event's or link's id.
 *
 * <p>The block's time range covers each span's start time; a span whose start time is 0 counts at
 * its end time, and one with neither at the time the export was received. The time columns keep
 * what was sent, so such a span's start_time_unix_nano (0) lies outside the range.
 */
public final class TracesBatch extends Batch {
  public static final int SPANS = ROOT;
  public static final int SPAN_ATTRS = ROOT + 1;
  public static final int SPAN_EVENTS = ROOT + 2;
  public static final int SPAN_EVENT_ATTRS = ROOT + 3;
  public static final int SPAN_LINKS = ROOT + 4;
  public static final int SPAN_LINK_ATTRS = ROOT + 5;

  // spans.arrow
  static final int ID = 0;
  static final int TRACE_ID = 1;
  static final int SPAN_ID = 2;
  static final int PARENT_SPAN_ID = 3;
  static final int TRACE_STATE = 4;
  static final int FLAGS = 5;
  static final int NAME = 6;
  static final int KIND = 7;
  static final int START = 8;
  static final int END = 9;
  static final int DURATION = 10;
  static final int STATUS_CODE = 11;
  static final int STATUS_MESSAGE = 12;
  static final int DROPPED_ATTRIBUTES = 13;
  static final int DROPPED_EVENTS = 14;
  static final int DROPPED_LINKS = 15;
  static final int RESOURCE_ID = 16;
  static final int SCOPE_ID = 17;

  // span_events.arrow
  static final int EVENT_ID = 0;
  static final int EVENT_PARENT = 1;
  static final int EVENT_TIME = 2;
  static final int EVENT_NAME = 3;
  static final int EVENT_DROPPED = 4;

  // span_links.arrow
  static final int LINK_ID = 0;
  static final int LINK_PARENT = 1;
  static final int LINK_TRACE_ID = 2;
  static final int LINK_SPAN_ID = 3;
  static final int LINK_TRACE_STATE = 4;
  static final int LINK_FLAGS = 5;
  static final int LINK_DROPPED = 6;

  public TracesBatch() {
    super(layout());
  }

  private static Table[] layout() {
    Table[] shared = ResourceScopeWriter.sharedTables();
    Table spans = LayoutTables.root(Layouts.SPANS, SPANS);
    Table spanAttrs = Attributes.table(TableFiles.SPAN_ATTRS, Rebase.ROWS, SPANS);
    Table events = LayoutTables.build(Layouts.SPAN_EVENTS, Role.rows(ColumnNames.ID, SPAN_EVENTS),
        Role.rows(ColumnNames.PARENT_ID, SPANS));
    Table eventAttrs = Attributes.table(TableFiles.SPAN_EVENT_ATTRS, Rebase.ROWS, SPAN_EVENTS);
    Table links = LayoutTables.build(Layouts.SPAN_LINKS, Role.rows(ColumnNames.ID, SPAN_LINKS),
        Role.rows(ColumnNames.PARENT_ID, SPANS));
    Table linkAttrs = Attributes.table(TableFiles.SPAN_LINK_ATTRS, Rebase.ROWS, SPAN_LINKS);
    return new Table[] {
      shared[0], shared[1], shared[2], shared[3], spans, spanAttrs, events, eventAttrs, links, linkAttrs
    };
  }

  @Override
  public Signal signal() {
    return Signal.TRACES;
  }

  @Override
  public Batch newEmpty() {
    return new TracesBatch();
  }

  /** Spans. */
  @Override
  public long records() {
    return rows();
  }
}
