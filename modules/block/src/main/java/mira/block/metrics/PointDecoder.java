package mira.block.metrics;

import mira.block.table.Fields;
import static mira.block.metrics.MetricsBatch.*;

import java.util.Arrays;
import mira.block.column.FixedColumn;
import mira.block.column.ListColumn;
import mira.block.table.AttrWriter;
import mira.block.table.Interner;
import mira.block.table.Table;
import mira.block.table.TooLargeException;
import mira.proto.wire.ProtoReader;
import mira.proto.wire.WireException;

/**
 * Decodes the four kinds of OTLP data point, with their attributes and exemplars, into one
 * {@link MetricsBatch}. Each point takes the batch's next point id. Repeated scalars (bucket counts,
 * explicit bounds) are accepted packed and unpacked, and repeats concatenate, as protobuf parsers
 * do. One per decoded export: it holds the batch's columns and the readers for the levels below a
 * point, so nothing is allocated per point. Errors carry the path below {@code data_points[i]}.
 */
final class PointDecoder {
  private static final int NO_VALUE = 0;
  private static final int DOUBLE = 1;
  private static final int INT = 2;

  private final MetricsBatch batch;
  private final long receivedAt;
  /** The data point. */
  private final ProtoReader dp = new ProtoReader();
  /** A message inside a point: an exemplar, a Buckets, a ValueAtQuantile. */
  private final ProtoReader sub = new ProtoReader();
  /** The payload of a packed repeated field. */
  private final ProtoReader packed = new ProtoReader();
  private final AttrWriter dpAttrs;
  private final AttrWriter exemplarAttrs;
  private final Interner boundsInterner;
  /** The current histogram point's explicit bounds, as little-endian doubles (the interning key). */
  private byte[] bounds = new byte[256];
  private int boundsLen;

  private final Head number;
  private final FixedColumn nInt;
  private final FixedColumn nDouble;

  private final Head hist;
  private final FixedColumn hCount;
  private final FixedColumn hSum;
  private final ListColumn hBuckets;
  private final FixedColumn hBoundsId;
  private final FixedColumn hMin;
  private final FixedColumn hMax;

  private final Head exp;
  private final FixedColumn eCount;
  private final FixedColumn eSum;
  private final FixedColumn eScale;
  private final FixedColumn eZeroCount;
  private final FixedColumn ePosOffset;
  private final ListColumn ePos;
  private final FixedColumn eNegOffset;
  private final ListColumn eNeg;
  private final FixedColumn eMin;
  private final FixedColumn eMax;
  private final FixedColumn eZeroThreshold;

  private final Head summary;
  private final FixedColumn sCount;
  private final FixedColumn sSum;
  private final ListColumn sQuantiles;
  private final ListColumn sValues;

  private final FixedColumn xId;
  private final FixedColumn xParent;
  private final FixedColumn xTime;
  private final FixedColumn xInt;
  private final FixedColumn xDouble;
  private final FixedColumn xSpanId;
  private final FixedColumn xTraceId;

  PointDecoder(MetricsBatch batch, long receivedAt) {
    this.batch = batch;
    this.receivedAt = receivedAt;
    this.dpAttrs = new AttrWriter(batch.table(DP_ATTRS));
    this.exemplarAttrs = new AttrWriter(batch.table(EXEMPLAR_ATTRS));
    this.boundsInterner = batch.bounds();

    Table n = batch.table(NUMBER_DP);
    this.number = new Head(n, N_FLAGS);
    this.nInt = fixed(n, N_INT);
    this.nDouble = fixed(n, N_DOUBLE);

    Table h = batch.table(HIST_DP);
    this.hist = new Head(h, H_FLAGS);
    this.hCount = fixed(h, H_COUNT);
    this.hSum = fixed(h, H_SUM);
    this.hBuckets = (ListColumn) h.column(H_BUCKETS);
    this.hBoundsId = fixed(h, H_BOUNDS_ID);
    this.hMin = fixed(h, H_MIN);
    this.hMax = fixed(h, H_MAX);

    Table e = batch.table(EXP_HIST_DP);
    this.exp = new Head(e, E_FLAGS);
    this.eCount = fixed(e, E_COUNT);
    this.eSum = fixed(e, E_SUM);
    this.eScale = fixed(e, E_SCALE);
    this.eZeroCount = fixed(e, E_ZERO_COUNT);
    this.ePosOffset = fixed(e, E_POS_OFFSET);
    this.ePos = (ListColumn) e.column(E_POS_BUCKETS);
    this.eNegOffset = fixed(e, E_NEG_OFFSET);
    this.eNeg = (ListColumn) e.column(E_NEG_BUCKETS);
    this.eMin = fixed(e, E_MIN);
    this.eMax = fixed(e, E_MAX);
    this.eZeroThreshold = fixed(e, E_ZERO_THRESHOLD);

    Table s = batch.table(SUMMARY_DP);
    this.summary = new Head(s, S_FLAGS);
    this.sCount = fixed(s, S_COUNT);
    this.sSum = fixed(s, S_SUM);
    this.sQuantiles = (ListColumn) s.column(S_QUANTILES);
    this.sValues = (ListColumn) s.column(S_VALUES);

    Table x = batch.table(EXEMPLARS);
    this.xId = fixed(x, X_ID);
    this.xParent = fixed(x, X_PARENT);
    this.xTime = fixed(x, X_TIME);
    this.xInt = fixed(x, X_INT);
    this.xDouble = fixed(x, X_DOUBLE);
    this.xSpanId = fixed(x, X_SPAN_ID);
    this.xTraceId = fixed(x, X_TRACE_ID);
  }

  private static FixedColumn fixed(Table t, int c) {
    return (FixedColumn) t.column(c);
  }

  /** The NumberDataPoint in the LEN field {@code data} is on, a point of metric {@code metricId}. */
  void number(ProtoReader data, int metricId) throws WireException, TooLargeException {
    dp.enter(data);
    int pid = batch.nextPoint();
    long start = 0;
    long time = 0;
    long value = 0;
    int kind = NO_VALUE;
    int flags = 0;
    int attr = 0;
    int ex = 0;
    while (dp.next()) {
      switch (dp.field()) {
        case 2 -> start = Fields.fixed64(dp, "start_time_unix_nano");
        case 3 -> time = Fields.fixed64(dp, "time_unix_nano");
        case 4 -> {
          value = Fields.fixed64(dp, "as_double");
          kind = DOUBLE;
        }
        case 5 -> exemplar(pid, ex++);
        case 6 -> {
          value = Fields.fixed64(dp, "as_int");
          kind = INT;
        }
        case 7 -> attribute(dpAttrs, dp, pid, "attributes", attr++);
        case 8 -> flags = (int) Fields.uint32(dp, "flags");
        default -> { }
      }
    }
    number.append(pid, metricId, start, time, flags);
    value(nInt, nDouble, kind, value);
  }

  /** A HistogramDataPoint; its explicit bounds are interned into hist_bounds. */
  void histogram(ProtoReader data, int metricId) throws WireException, TooLargeException {
    dp.enter(data);
    int pid = batch.nextPoint();
    long start = 0;
    long time = 0;
    long count = 0;
    long sum = 0;
    long min = 0;
    long max = 0;
    boolean hasSum = false;
    boolean hasMin = false;
    boolean hasMax = false;
    int flags = 0;
    int attr = 0;
    int ex = 0;
    boundsLen = 0;
    while (dp.next()) {
      switch (dp.field()) {
        case 2 -> start = Fields.fixed64(dp, "start_time_unix_nano");
        case 3 -> time = Fields.fixed64(dp, "time_unix_nano");
        case 4 -> count = Fields.fixed64(dp, "count");
        case 5 -> {
          sum = Fields.fixed64(dp, "sum");
          hasSum = true;
        }
        case 6 -> fixed64s(hBuckets.child(), "bucket_counts");
        case 7 -> explicitBounds();
        case 8 -> exemplar(pid, ex++);
        case 9 -> attribute(dpAttrs, dp, pid, "attributes", attr++);
        case 10 -> flags = (int) Fields.uint32(dp, "flags");
        case 11 -> {
          min = Fields.fixed64(dp, "min");
          hasMin = true;
        }
        case 12 -> {
          max = Fields.fixed64(dp, "max");
          hasMax = true;
        }
        default -> { }
      }
    }
    hist.append(pid, metricId, start, time, flags);
    hCount.appendLong(count);
    optional(hSum, hasSum, sum);
    hBuckets.endList();
    hBoundsId.appendInt(boundsInterner.intern(bounds, 0, boundsLen));
    optional(hMin, hasMin, min);
    optional(hMax, hasMax, max);
  }

  /** An ExponentialHistogramDataPoint. */
  void exponential(ProtoReader data, int metricId) throws WireException, TooLargeException {
    dp.enter(data);
    int pid = batch.nextPoint();
    long start = 0;
    long time = 0;
    long count = 0;
    long sum = 0;
    long min = 0;
    long max = 0;
    boolean hasSum = false;
    boolean hasMin = false;
    boolean hasMax = false;
    int scale = 0;
    long zeroCount = 0;
    long zeroThreshold = 0;
    int posOffset = 0;
    int negOffset = 0;
    int flags = 0;
    int attr = 0;
    int ex = 0;
    while (dp.next()) {
      switch (dp.field()) {
        case 1 -> attribute(dpAttrs, dp, pid, "attributes", attr++);
        case 2 -> start = Fields.fixed64(dp, "start_time_unix_nano");
        case 3 -> time = Fields.fixed64(dp, "time_unix_nano");
        case 4 -> count = Fields.fixed64(dp, "count");
        case 5 -> {
          sum = Fields.fixed64(dp, "sum");
          hasSum = true;
        }
        case 6 -> scale = Fields.sint32(dp, "scale");
        case 7 -> zeroCount = Fields.fixed64(dp, "zero_count");
        case 8 -> posOffset = buckets(ePos, posOffset, "positive");
        case 9 -> negOffset = buckets(eNeg, negOffset, "negative");
        case 10 -> flags = (int) Fields.uint32(dp, "flags");
        case 11 -> exemplar(pid, ex++);
        case 12 -> {
          min = Fields.fixed64(dp, "min");
          hasMin = true;
        }
        case 13 -> {
          max = Fields.fixed64(dp, "max");
          hasMax = true;
        }
        case 14 -> zeroThreshold = Fields.fixed64(dp, "zero_threshold");
        default -> { }
      }
    }
    exp.append(pid, metricId, start, time, flags);
    eCount.appendLong(count);
    optional(eSum, hasSum, sum);
    eScale.appendInt(scale);
    eZeroCount.appendLong(zeroCount);
    ePosOffset.appendInt(posOffset);
    ePos.endList();
    eNegOffset.appendInt(negOffset);
    eNeg.endList();
    optional(eMin, hasMin, min);
    optional(eMax, hasMax, max);
    eZeroThreshold.appendLong(zeroThreshold);
  }

  /** A SummaryDataPoint. */
  void summary(ProtoReader data, int metricId) throws WireException, TooLargeException {
    dp.enter(data);
    int pid = batch.nextPoint();
    long start = 0;
    long time = 0;
    long count = 0;
    long sum = 0;
    int flags = 0;
    int attr = 0;
    int q = 0;
    while (dp.next()) {
      switch (dp.field()) {
        case 2 -> start = Fields.fixed64(dp, "start_time_unix_nano");
        case 3 -> time = Fields.fixed64(dp, "time_unix_nano");
        case 4 -> count = Fields.fixed64(dp, "count");
        case 5 -> sum = Fields.fixed64(dp, "sum");
        case 6 -> quantile(q++);
        case 7 -> attribute(dpAttrs, dp, pid, "attributes", attr++);
        case 8 -> flags = (int) Fields.uint32(dp, "flags");
        default -> { }
      }
    }
    summary.append(pid, metricId, start, time, flags);
    sCount.appendLong(count);
    sSum.appendLong(sum);
    sQuantiles.endList();
    sValues.endList();
  }

  /** The Exemplar {@link #dp} is on, the {@code index}-th of point {@code pid}. */
  private void exemplar(int pid, int index) throws WireException, TooLargeException {
    try {
      dp.expect(ProtoReader.LEN);
      sub.enter(dp);
      byte[] buf = sub.buffer();
      int xid = xId.size();
      long time = 0;
      long value = 0;
      int kind = NO_VALUE;
      int spanStart = -1;
      int spanLen = 0;
      int traceStart = -1;
      int traceLen = 0;
      int attr = 0;
      while (sub.next()) {
        switch (sub.field()) {
          case 2 -> time = Fields.fixed64(sub, "time_unix_nano");
          case 3 -> {
            value = Fields.fixed64(sub, "as_double");
            kind = DOUBLE;
          }
          case 4 -> {
            Fields.expect(sub, ProtoReader.LEN, "span_id");
            spanStart = sub.start();
            spanLen = sub.length();
          }
          case 5 -> {
            Fields.expect(sub, ProtoReader.LEN, "trace_id");
            traceStart = sub.start();
            traceLen = sub.length();
          }
          case 6 -> {
            value = Fields.fixed64(sub, "as_int");
            kind = INT;
          }
          case 7 -> attribute(exemplarAttrs, sub, xid, "filtered_attributes", attr++);
          default -> { }
        }
      }
      Fields.id(xSpanId, buf, spanStart, spanLen, 8, "span_id");
      Fields.id(xTraceId, buf, traceStart, traceLen, 16, "trace_id");
      xId.appendInt(xid);
      xParent.appendInt(pid);
      xTime.appendLong(time);
      value(xInt, xDouble, kind, value);
    } catch (WireException e) {
      throw WireException.at("exemplars[" + index + "]", e);
    }
  }

  /**
   * Reads the Buckets {@link #dp} is on into {@code list}'s open list. Returns the offset: the
   * message's own if it has one, else {@code offset} (a repeated Buckets merges, as in protobuf).
   */
  private int buckets(ListColumn list, int offset, String name) throws WireException {
    try {
      dp.expect(ProtoReader.LEN);
      sub.enter(dp);
      while (sub.next()) {
        switch (sub.field()) {
          case 1 -> offset = Fields.sint32(sub, "offset");
          case 2 -> varints(sub, list.child(), "bucket_counts");
          default -> { }
        }
      }
      return offset;
    } catch (WireException e) {
      throw WireException.at(name, e);
    }
  }

  /** The {@code index}-th ValueAtQuantile of a summary point. */
  private void quantile(int index) throws WireException {
    try {
      dp.expect(ProtoReader.LEN);
      sub.enter(dp);
      long quantile = 0;
      long value = 0;
      while (sub.next()) {
        switch (sub.field()) {
          case 1 -> quantile = Fields.fixed64(sub, "quantile");
          case 2 -> value = Fields.fixed64(sub, "value");
          default -> { }
        }
      }
      sQuantiles.child().appendLong(quantile);
      sValues.child().appendLong(value);
    } catch (WireException e) {
      throw WireException.at("quantile_values[" + index + "]", e);
    }
  }

  /** A repeated fixed64 field of {@link #dp}, packed or not, appended to {@code c}. */
  private void fixed64s(FixedColumn c, String name) throws WireException {
    if (dp.wireType() == ProtoReader.LEN) {
      Fields.packed64(dp, name);
      packed.enter(dp);
      while (!packed.atEnd()) {
        c.appendLong(packed.readRawFixed64());
      }
    } else {
      c.appendLong(Fields.fixed64(dp, name));
    }
  }

  /** A repeated uint64 field of {@code r}, packed or not, appended to {@code c}. */
  private void varints(ProtoReader r, FixedColumn c, String name) throws WireException {
    if (r.wireType() == ProtoReader.LEN) {
      packed.enter(r);
      try {
        while (!packed.atEnd()) {
          c.appendLong(packed.readRawVarint());
        }
      } catch (WireException e) {
        throw new WireException(name + ": " + e.getMessage());
      }
    } else {
      c.appendLong(Fields.varint(r, name));
    }
  }

  /** explicit_bounds (repeated double, packed or not), gathered for interning. */
  private void explicitBounds() throws WireException {
    int len;
    if (dp.wireType() == ProtoReader.LEN) {
      Fields.packed64(dp, "explicit_bounds");
      len = dp.length();
    } else {
      Fields.expect(dp, ProtoReader.I64, "explicit_bounds");
      len = 8;
    }
    if (boundsLen + len > bounds.length) {
      bounds = Arrays.copyOf(bounds, Math.max(bounds.length * 2, boundsLen + len));
    }
    System.arraycopy(dp.buffer(), dp.start(), bounds, boundsLen, len);
    boundsLen += len;
  }

  private static void attribute(AttrWriter w, ProtoReader r, int parent, String name, int index)
      throws WireException, TooLargeException {
    try {
      w.append(r, parent);
    } catch (WireException e) {
      throw WireException.at(name + "[" + index + "]", e);
    }
  }

  /** A value oneof (as_int / as_double): the one sent goes in its column, the other is null. */
  private static void value(FixedColumn ints, FixedColumn doubles, int kind, long value) {
    if (kind == INT) {
      ints.appendLong(value);
    } else {
      ints.appendNull();
    }
    if (kind == DOUBLE) {
      doubles.appendLong(value);
    } else {
      doubles.appendNull();
    }
  }

  /** An optional double, as raw bits: null when absent, whatever its value when present. */
  private static void optional(FixedColumn c, boolean present, long bits) {
    if (present) {
      c.appendLong(bits);
    } else {
      c.appendNull();
    }
  }

  /** The columns every point table starts with, plus its flags. */
  private final class Head {
    final FixedColumn id;
    final FixedColumn parent;
    final FixedColumn start;
    final FixedColumn time;
    final FixedColumn flags;

    Head(Table t, int flagsColumn) {
      this.id = fixed(t, P_ID);
      this.parent = fixed(t, P_PARENT);
      this.start = fixed(t, P_START);
      this.time = fixed(t, P_TIME);
      this.flags = fixed(t, flagsColumn);
    }

    /** A time of 0 (unset) becomes the receive time, which is also what the block's range sees. */
    void append(int pid, int metricId, long startTime, long t, int f) {
      long effective = t != 0 ? t : receivedAt;
      id.appendInt(pid);
      parent.appendInt(metricId);
      Fields.longOrNull(start, startTime);
      time.appendLong(effective);
      batch.observeTime(effective);
      Fields.intOrNull(flags, f);
    }
  }
}
