package mira.block.logs;

import mira.block.table.LayoutTables;
import mira.block.layout.Layouts;
import mira.block.layout.TableFiles;
import mira.block.table.Attributes;
import mira.block.table.Batch;
import mira.block.table.ResourceScopeWriter;
import mira.block.table.Rebase;
import mira.block.table.Table;
import mira.proto.wire.Signal;

/**
 * The logs signal's tables. {@code logs.arrow} (the root) has one row per log record:
 *
 * <pre>
 * id                       UInt32      dense, block-local
 * time_unix_nano           Timestamp   the record's time; observed time when unset, receive time when both are
 * observed_time_unix_nano  Timestamp?  null when unset
 * severity_number          Int32?      null when unspecified (0)
 * severity_text            Dict(UInt16, Utf8)?
 * event_name               Dict(UInt16, Utf8)?
 * body                     Utf8?       a string body
 * body_ser                 Binary?     any other body: the AnyValue's protobuf bytes
 * trace_id                 FixedSizeBinary(16)?
 * span_id                  FixedSizeBinary(8)?
 * flags                    UInt32?     null when 0
 * dropped_attributes_count UInt32
 * resource_id, scope_id    UInt16
 * </pre>
 *
 * {@code log_attrs.arrow} has the shared attribute layout with parent_id = logs.id.
 */
public final class LogsBatch extends Batch {
  public static final int LOGS = ROOT;
  public static final int LOG_ATTRS = ROOT + 1;

  static final int ID = 0;
  static final int TIME = 1;
  static final int OBSERVED = 2;
  static final int SEVERITY_NUMBER = 3;
  static final int SEVERITY_TEXT = 4;
  static final int EVENT_NAME = 5;
  static final int BODY = 6;
  static final int BODY_SER = 7;
  static final int TRACE_ID = 8;
  static final int SPAN_ID = 9;
  static final int FLAGS = 10;
  static final int DROPPED = 11;
  static final int RESOURCE_ID = 12;
  static final int SCOPE_ID = 13;

  public LogsBatch() {
    super(layout());
  }

  private static Table[] layout() {
    Table[] shared = ResourceScopeWriter.sharedTables();
    Table logs = LayoutTables.root(Layouts.LOGS, LOGS);
    Table attrs = Attributes.table(TableFiles.LOG_ATTRS, Rebase.ROWS, LOGS);
    return new Table[] {shared[0], shared[1], shared[2], shared[3], logs, attrs};
  }

  @Override
  public Signal signal() {
    return Signal.LOGS;
  }

  @Override
  public Batch newEmpty() {
    return new LogsBatch();
  }

  @Override
  public long records() {
    return rows();
  }
}
