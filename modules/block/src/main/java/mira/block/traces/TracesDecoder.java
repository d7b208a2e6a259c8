package mira.block.traces;

import static mira.block.table.Fields.expect;
import static mira.block.table.Fields.fixed32;
import static mira.block.table.Fields.fixed64;
import static mira.block.table.Fields.id;
import static mira.block.table.Fields.requiredId;
import static mira.block.table.Fields.text;
import static mira.block.table.Fields.utf8;
import static mira.block.table.Fields.varint;

import mira.block.column.FixedColumn;
import mira.block.column.VarColumn;
import mira.block.table.AttrWriter;
import mira.block.table.ExportDecoder;
import mira.block.table.Table;
import mira.block.table.TooLargeException;
import mira.proto.wire.ProtoReader;
import mira.proto.wire.WireException;

/**
 * Decodes an {@code ExportTraceServiceRequest} from its wire bytes straight into a
 * {@link TracesBatch}: one pass over each span, its events and links, no protobuf objects,
 * nothing allocated per span. Field paths in errors use the proto field names. Not thread-safe;
 * one per thread.
 *
 * <p>A span must carry a 16-byte trace_id and an 8-byte span_id (the OTLP spec calls an empty one
 * invalid); parent_span_id and a link's ids may be empty, but never another length.
 */
public final class TracesDecoder extends ExportDecoder<TracesBatch> {
  private Sink sink;

  public TracesDecoder() {
    super("resource_spans", "scope_spans", "spans");
  }

  private final ProtoReader span = new ProtoReader();
  /** A span's event, link or status: siblings, never nested in one another. */
  private final ProtoReader part = new ProtoReader();

  /**
   * Decodes {@code buf[off, off + len)}.
   *
   * @param receivedAt the receive time (ns since the epoch), the block time of a span with neither
   *     a start nor an end time
   * @throws WireException naming the malformed field
   * @throws TooLargeException if the export cannot fit an empty block
   */
  public TracesBatch decode(byte[] buf, int off, int len, long receivedAt) throws WireException, TooLargeException {
    return decode(buf, off, len, receivedAt, new TracesBatch());
  }

  /** As {@link #decode(byte[], int, int, long)}, into {@code batch}, which must be empty. */
  public TracesBatch decode(byte[] buf, int off, int len, long receivedAt, TracesBatch batch)
      throws WireException, TooLargeException {
    return decodeInto(buf, off, len, receivedAt, batch);
  }

  @Override
  protected void begin(TracesBatch batch, long receivedAt) {
    sink = new Sink(batch, receivedAt);
  }

  @Override
  protected void record(byte[] buf, ProtoReader field, int resourceId, int scopeId) throws WireException, TooLargeException {
    span(buf, field, sink, resourceId, scopeId);
  }

  private void span(byte[] buf, ProtoReader field, Sink s, int resourceId, int scopeId)
      throws WireException, TooLargeException {
    span.enter(field);
    int id = s.id.size();
    int traceStart = -1;
    int traceLen = 0;
    int spanStart = -1;
    int spanLen = 0;
    int parentStart = -1;
    int parentLen = 0;
    int stateStart = -1;
    int stateEnd = -1;
    int flags = 0;
    int nameStart = -1;
    int nameEnd = -1;
    int kind = 0;
    long start = 0;
    long end = 0;
    int dropped = 0;
    int droppedEvents = 0;
    int droppedLinks = 0;
    // Status is a message field: repeated occurrences merge, so each sub-field keeps its last value.
    int statusCode = 0;
    int messageStart = -1;
    int messageEnd = -1;
    int attr = 0;
    int events = 0;
    int links = 0;
    while (span.next()) {
      switch (span.field()) {
        case 1 -> {
          expect(span, "trace_id");
          traceStart = span.start();
          traceLen = span.length();
        }
        case 2 -> {
          expect(span, "span_id");
          spanStart = span.start();
          spanLen = span.length();
        }
        case 3 -> {
          utf8(span, "trace_state");
          stateStart = span.start();
          stateEnd = span.end();
        }
        case 4 -> {
          expect(span, "parent_span_id");
          parentStart = span.start();
          parentLen = span.length();
        }
        case 5 -> {
          utf8(span, "name");
          nameStart = span.start();
          nameEnd = span.end();
        }
        case 6 -> kind = (int) varint(span, "kind");
        case 7 -> start = fixed64(span, "start_time_unix_nano");
        case 8 -> end = fixed64(span, "end_time_unix_nano");
        case 9 -> {
          try {
            s.attrs.append(span, id);
          } catch (WireException e) {
            throw WireException.at("attributes[" + attr + "]", e);
          }
          attr++;
        }
        case 10 -> dropped = (int) varint(span, "dropped_attributes_count");
        case 11 -> {
          try {
            event(buf, s, id);
          } catch (WireException e) {
            throw WireException.at("events[" + events + "]", e);
          }
          events++;
        }
        case 12 -> droppedEvents = (int) varint(span, "dropped_events_count");
        case 13 -> {
          try {
            link(buf, s, id);
          } catch (WireException e) {
            throw WireException.at("links[" + links + "]", e);
          }
          links++;
        }
        case 14 -> droppedLinks = (int) varint(span, "dropped_links_count");
        case 15 -> {
          try {
            span.expect(ProtoReader.LEN);
            part.enter(span);
            while (part.next()) {
              switch (part.field()) {
                case 2 -> {
                  utf8(part, "message");
                  messageStart = part.start();
                  messageEnd = part.end();
                }
                case 3 -> statusCode = (int) varint(part, "code");
                default -> { }
              }
            }
          } catch (WireException e) {
            throw WireException.at("status", e);
          }
        }
        case 16 -> flags = fixed32(span, "flags");
        default -> { }
      }
    }
    requiredId(s.traceId, buf, traceStart, traceLen, 16, "trace_id");
    requiredId(s.spanId, buf, spanStart, spanLen, 8, "span_id");
    s.id.appendInt(id);
    id(s.parentSpanId, buf, parentStart, parentLen, 8, "parent_span_id");
    text(s.traceState, buf, stateStart, stateEnd);
    if (flags != 0) {
      s.flags.appendInt(flags);
    } else {
      s.flags.appendNull();
    }
    if (nameStart >= 0) {
      s.name.append(buf, nameStart, nameEnd - nameStart);
    } else {
      s.name.append(buf, 0, 0);
    }
    s.kind.appendInt(kind);
    s.start.appendLong(start);
    s.end.appendLong(end);
    s.duration.appendLong(end - start);
    s.batch.observeTime(start != 0 ? start : end != 0 ? end : s.receivedAt);
    s.statusCode.appendInt(statusCode);
    text(s.statusMessage, buf, messageStart, messageEnd);
    s.dropped.appendInt(dropped);
    s.droppedEvents.appendInt(droppedEvents);
    s.droppedLinks.appendInt(droppedLinks);
    s.resourceId.appendShort(resourceId);
    s.scopeId.appendShort(scopeId);
  }

  /** Appends the {@code Span.Event} {@link #span} is on, owned by span {@code spanId}. */
  private void event(byte[] buf, Sink s, int spanId) throws WireException, TooLargeException {
    span.expect(ProtoReader.LEN);
    part.enter(span);
    int id = s.eventId.size();
    long time = 0;
    int nameStart = -1;
    int nameEnd = -1;
    int dropped = 0;
    int attr = 0;
    while (part.next()) {
      switch (part.field()) {
        case 1 -> time = fixed64(part, "time_unix_nano");
        case 2 -> {
          utf8(part, "name");
          nameStart = part.start();
          nameEnd = part.end();
        }
        case 3 -> {
          try {
            s.eventAttrs.append(part, id);
          } catch (WireException e) {
            throw WireException.at("attributes[" + attr + "]", e);
          }
          attr++;
        }
        case 4 -> dropped = (int) varint(part, "dropped_attributes_count");
        default -> { }
      }
    }
    s.eventId.appendInt(id);
    s.eventParent.appendInt(spanId);
    s.eventTime.appendLong(time);
    if (nameStart >= 0) {
      s.eventName.append(buf, nameStart, nameEnd - nameStart);
    } else {
      s.eventName.append(buf, 0, 0);
    }
    s.eventDropped.appendInt(dropped);
  }

  /** Appends the {@code Span.Link} {@link #span} is on, owned by span {@code spanId}. */
  private void link(byte[] buf, Sink s, int spanId) throws WireException, TooLargeException {
    span.expect(ProtoReader.LEN);
    part.enter(span);
    int id = s.linkId.size();
    int traceStart = -1;
    int traceLen = 0;
    int spanStart = -1;
    int spanLen = 0;
    int stateStart = -1;
    int stateEnd = -1;
    int flags = 0;
    int dropped = 0;
    int attr = 0;
    while (part.next()) {
      switch (part.field()) {
        case 1 -> {
          expect(part, "trace_id");
          traceStart = part.start();
          traceLen = part.length();
        }
        case 2 -> {
          expect(part, "span_id");
          spanStart = part.start();
          spanLen = part.length();
        }
        case 3 -> {
          utf8(part, "trace_state");
          stateStart = part.start();
          stateEnd = part.end();
        }
        case 4 -> {
          try {
            s.linkAttrs.append(part, id);
          } catch (WireException e) {
            throw WireException.at("attributes[" + attr + "]", e);
          }
          attr++;
        }
        case 5 -> dropped = (int) varint(part, "dropped_attributes_count");
        case 6 -> flags = fixed32(part, "flags");
        default -> { }
      }
    }
    s.linkId.appendInt(id);
    s.linkParent.appendInt(spanId);
    id(s.linkTraceId, buf, traceStart, traceLen, 16, "trace_id");
    id(s.linkSpanId, buf, spanStart, spanLen, 8, "span_id");
    text(s.linkTraceState, buf, stateStart, stateEnd);
    if (flags != 0) {
      s.linkFlags.appendInt(flags);
    } else {
      s.linkFlags.appendNull();
    }
    s.linkDropped.appendInt(dropped);
  }

  /** The batch's columns, looked up once per export. */
  private static final class Sink {
    final TracesBatch batch;
    final long receivedAt;
    final AttrWriter attrs;
    final AttrWriter eventAttrs;
    final AttrWriter linkAttrs;
    final FixedColumn id;
    final FixedColumn traceId;
    final FixedColumn spanId;
    final FixedColumn parentSpanId;
    final VarColumn traceState;
    final FixedColumn flags;
    final VarColumn name;
    final FixedColumn kind;
    final FixedColumn start;
    final FixedColumn end;
    final FixedColumn duration;
    final FixedColumn statusCode;
    final VarColumn statusMessage;
    final FixedColumn dropped;
    final FixedColumn droppedEvents;
    final FixedColumn droppedLinks;
    final FixedColumn resourceId;
    final FixedColumn scopeId;
    final FixedColumn eventId;
    final FixedColumn eventParent;
    final FixedColumn eventTime;
    final VarColumn eventName;
    final FixedColumn eventDropped;
    final FixedColumn linkId;
    final FixedColumn linkParent;
    final FixedColumn linkTraceId;
    final FixedColumn linkSpanId;
    final VarColumn linkTraceState;
    final FixedColumn linkFlags;
    final FixedColumn linkDropped;

    Sink(TracesBatch batch, long receivedAt) {
      this.batch = batch;
      this.receivedAt = receivedAt;
      this.attrs = new AttrWriter(batch.table(TracesBatch.SPAN_ATTRS));
      this.eventAttrs = new AttrWriter(batch.table(TracesBatch.SPAN_EVENT_ATTRS));
      this.linkAttrs = new AttrWriter(batch.table(TracesBatch.SPAN_LINK_ATTRS));
      Table t = batch.table(TracesBatch.SPANS);
      this.id = (FixedColumn) t.column(TracesBatch.ID);
      this.traceId = (FixedColumn) t.column(TracesBatch.TRACE_ID);
      this.spanId = (FixedColumn) t.column(TracesBatch.SPAN_ID);
      this.parentSpanId = (FixedColumn) t.column(TracesBatch.PARENT_SPAN_ID);
      this.traceState = (VarColumn) t.column(TracesBatch.TRACE_STATE);
      this.flags = (FixedColumn) t.column(TracesBatch.FLAGS);
      this.name = (VarColumn) t.column(TracesBatch.NAME);
      this.kind = (FixedColumn) t.column(TracesBatch.KIND);
      this.start = (FixedColumn) t.column(TracesBatch.START);
      this.end = (FixedColumn) t.column(TracesBatch.END);
      this.duration = (FixedColumn) t.column(TracesBatch.DURATION);
      this.statusCode = (FixedColumn) t.column(TracesBatch.STATUS_CODE);
      this.statusMessage = (VarColumn) t.column(TracesBatch.STATUS_MESSAGE);
      this.dropped = (FixedColumn) t.column(TracesBatch.DROPPED_ATTRIBUTES);
      this.droppedEvents = (FixedColumn) t.column(TracesBatch.DROPPED_EVENTS);
      this.droppedLinks = (FixedColumn) t.column(TracesBatch.DROPPED_LINKS);
      this.resourceId = (FixedColumn) t.column(TracesBatch.RESOURCE_ID);
      this.scopeId = (FixedColumn) t.column(TracesBatch.SCOPE_ID);
      Table e = batch.table(TracesBatch.SPAN_EVENTS);
      this.eventId = (FixedColumn) e.column(TracesBatch.EVENT_ID);
      this.eventParent = (FixedColumn) e.column(TracesBatch.EVENT_PARENT);
      this.eventTime = (FixedColumn) e.column(TracesBatch.EVENT_TIME);
      this.eventName = (VarColumn) e.column(TracesBatch.EVENT_NAME);
      this.eventDropped = (FixedColumn) e.column(TracesBatch.EVENT_DROPPED);
      Table l = batch.table(TracesBatch.SPAN_LINKS);
      this.linkId = (FixedColumn) l.column(TracesBatch.LINK_ID);
      this.linkParent = (FixedColumn) l.column(TracesBatch.LINK_PARENT);
      this.linkTraceId = (FixedColumn) l.column(TracesBatch.LINK_TRACE_ID);
      this.linkSpanId = (FixedColumn) l.column(TracesBatch.LINK_SPAN_ID);
      this.linkTraceState = (VarColumn) l.column(TracesBatch.LINK_TRACE_STATE);
      this.linkFlags = (FixedColumn) l.column(TracesBatch.LINK_FLAGS);
      this.linkDropped = (FixedColumn) l.column(TracesBatch.LINK_DROPPED);
    }
  }
}
