package mira.block.logs;

import static mira.block.table.Fields.dict;
import static mira.block.table.Fields.expect;
import static mira.block.table.Fields.fixed32;
import static mira.block.table.Fields.fixed64;
import static mira.block.table.Fields.id;
import static mira.block.table.Fields.utf8;
import static mira.block.table.Fields.varint;

import mira.block.column.DictColumn;
import mira.block.column.FixedColumn;
import mira.block.column.VarColumn;
import mira.block.table.AnyValueReader;
import mira.block.table.AttrWriter;
import mira.block.table.Attributes;
import mira.block.table.ExportDecoder;
import mira.block.table.Table;
import mira.block.table.TooLargeException;
import mira.proto.wire.ProtoReader;
import mira.proto.wire.WireException;

/**
 * Decodes an {@code ExportLogsServiceRequest} from its wire bytes straight into a
 * {@link LogsBatch}: one pass over each log record, no protobuf objects, nothing allocated per
 * record. Field paths in errors use the proto field names. Not thread-safe; one per thread.
 */
public final class LogsDecoder extends ExportDecoder<LogsBatch> {
  private Sink sink;

  public LogsDecoder() {
    super("resource_logs", "scope_logs", "log_records");
  }

  private final ProtoReader rec = new ProtoReader();
  private final AnyValueReader body = new AnyValueReader();

  /**
   * Decodes {@code buf[off, off + len)}.
   *
   * @param receivedAt the receive time (ns since the epoch), used when a record has no time at all
   * @throws WireException naming the malformed field
   * @throws TooLargeException if the export cannot fit an empty block
   */
  public LogsBatch decode(byte[] buf, int off, int len, long receivedAt) throws WireException, TooLargeException {
    return decode(buf, off, len, receivedAt, new LogsBatch());
  }

  /** As {@link #decode(byte[], int, int, long)}, into {@code batch}, which must be empty. */
  public LogsBatch decode(byte[] buf, int off, int len, long receivedAt, LogsBatch batch)
      throws WireException, TooLargeException {
    return decodeInto(buf, off, len, receivedAt, batch);
  }

  @Override
  protected void begin(LogsBatch batch, long receivedAt) {
    sink = new Sink(batch, receivedAt);
  }

  @Override
  protected void record(byte[] buf, ProtoReader field, int resourceId, int scopeId) throws WireException, TooLargeException {
    record(buf, field, sink, resourceId, scopeId);
  }

  private void record(byte[] buf, ProtoReader field, Sink s, int resourceId, int scopeId)
      throws WireException, TooLargeException {
    rec.enter(field);
    int id = s.id.size();
    long time = 0;
    long observed = 0;
    int severity = 0;
    int sevStart = -1;
    int sevEnd = -1;
    int eventStart = -1;
    int eventEnd = -1;
    int bodyStart = -1;
    int bodyEnd = -1;
    int traceStart = -1;
    int traceLen = 0;
    int spanStart = -1;
    int spanLen = 0;
    int flags = 0;
    int dropped = 0;
    int attr = 0;
    while (rec.next()) {
      switch (rec.field()) {
        case 1 -> time = fixed64(rec, "time_unix_nano");
        case 2 -> severity = (int) varint(rec, "severity_number");
        case 3 -> {
          utf8(rec, "severity_text");
          sevStart = rec.start();
          sevEnd = rec.end();
        }
        case 5 -> {
          expect(rec, "body");
          bodyStart = rec.start();
          bodyEnd = rec.end();
        }
        case 6 -> {
          try {
            s.attrs.append(rec, id);
          } catch (WireException e) {
            throw WireException.at("attributes[" + attr + "]", e);
          }
          attr++;
        }
        case 7 -> dropped = (int) varint(rec, "dropped_attributes_count");
        case 8 -> flags = fixed32(rec, "flags");
        case 9 -> {
          expect(rec, "trace_id");
          traceStart = rec.start();
          traceLen = rec.length();
        }
        case 10 -> {
          expect(rec, "span_id");
          spanStart = rec.start();
          spanLen = rec.length();
        }
        case 11 -> observed = fixed64(rec, "observed_time_unix_nano");
        case 12 -> {
          utf8(rec, "event_name");
          eventStart = rec.start();
          eventEnd = rec.end();
        }
        default -> { }
      }
    }
    s.id.appendInt(id);
    long effective = time != 0 ? time : observed != 0 ? observed : s.receivedAt;
    s.time.appendLong(effective);
    s.batch.observeTime(effective);
    if (observed != 0) {
      s.observed.appendLong(observed);
    } else {
      s.observed.appendNull();
    }
    if (severity != 0) {
      s.severity.appendInt(severity);
    } else {
      s.severity.appendNull();
    }
    dict(s.severityText, buf, sevStart, sevEnd, "severity_text");
    dict(s.eventName, buf, eventStart, eventEnd, "event_name");
    if (bodyStart < 0) {
      s.body.appendNull();
      s.bodySer.appendNull();
    } else {
      try {
        body.read(buf, bodyStart, bodyEnd);
      } catch (WireException e) {
        throw WireException.at("body", e);
      }
      if (body.kind() == Attributes.TYPE_STR) {
        s.body.append(buf, body.start(), body.length());
        s.bodySer.appendNull();
      } else {
        s.body.appendNull();
        s.bodySer.append(buf, bodyStart, bodyEnd - bodyStart);
      }
    }
    id(s.traceId, buf, traceStart, traceLen, 16, "trace_id");
    id(s.spanId, buf, spanStart, spanLen, 8, "span_id");
    if (flags != 0) {
      s.flags.appendInt(flags);
    } else {
      s.flags.appendNull();
    }
    s.dropped.appendInt(dropped);
    s.resourceId.appendShort(resourceId);
    s.scopeId.appendShort(scopeId);
  }

  /** The batch's columns, looked up once per export. */
  private static final class Sink {
    final LogsBatch batch;
    final long receivedAt;
    final AttrWriter attrs;
    final FixedColumn id;
    final FixedColumn time;
    final FixedColumn observed;
    final FixedColumn severity;
    final DictColumn severityText;
    final DictColumn eventName;
    final VarColumn body;
    final VarColumn bodySer;
    final FixedColumn traceId;
    final FixedColumn spanId;
    final FixedColumn flags;
    final FixedColumn dropped;
    final FixedColumn resourceId;
    final FixedColumn scopeId;

    Sink(LogsBatch batch, long receivedAt) {
      this.batch = batch;
      this.receivedAt = receivedAt;
      Table t = batch.table(LogsBatch.LOGS);
      this.attrs = new AttrWriter(batch.table(LogsBatch.LOG_ATTRS));
      this.id = (FixedColumn) t.column(LogsBatch.ID);
      this.time = (FixedColumn) t.column(LogsBatch.TIME);
      this.observed = (FixedColumn) t.column(LogsBatch.OBSERVED);
      this.severity = (FixedColumn) t.column(LogsBatch.SEVERITY_NUMBER);
      this.severityText = (DictColumn) t.column(LogsBatch.SEVERITY_TEXT);
      this.eventName = (DictColumn) t.column(LogsBatch.EVENT_NAME);
      this.body = (VarColumn) t.column(LogsBatch.BODY);
      this.bodySer = (VarColumn) t.column(LogsBatch.BODY_SER);
      this.traceId = (FixedColumn) t.column(LogsBatch.TRACE_ID);
      this.spanId = (FixedColumn) t.column(LogsBatch.SPAN_ID);
      this.flags = (FixedColumn) t.column(LogsBatch.FLAGS);
      this.dropped = (FixedColumn) t.column(LogsBatch.DROPPED);
      this.resourceId = (FixedColumn) t.column(LogsBatch.RESOURCE_ID);
      this.scopeId = (FixedColumn) t.column(LogsBatch.SCOPE_ID);
    }
  }
}
