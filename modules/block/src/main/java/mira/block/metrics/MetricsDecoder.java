package mira.block.metrics;

import mira.block.table.Fields;
import mira.block.column.BoolColumn;
import mira.block.column.FixedColumn;
import mira.block.column.VarColumn;
import mira.block.table.AttrWriter;
import mira.block.table.ExportDecoder;
import mira.block.table.Table;
import mira.block.table.TooLargeException;
import mira.proto.wire.ProtoReader;
import mira.proto.wire.WireException;

/**
 * Decodes an {@code ExportMetricsServiceRequest} from its wire bytes straight into a
 * {@link MetricsBatch}: one pass over each data point, no protobuf objects, nothing allocated per
 * point. Field paths in errors use the proto field names, e.g.
 * {@code resource_metrics[0].scope_metrics[0].metrics[3].histogram.data_points[2].bucket_counts}.
 * Not thread-safe; one per thread.
 */
public final class MetricsDecoder extends ExportDecoder<MetricsBatch> {
  private Sink sink;

  public MetricsDecoder() {
    super("resource_metrics", "scope_metrics", "metrics");
  }

  private final ProtoReader metric = new ProtoReader();
  private final ProtoReader data = new ProtoReader();

  /**
   * Decodes {@code buf[off, off + len)}.
   *
   * @param receivedAt the receive time (ns since the epoch), the time of a data point without one
   * @throws WireException naming the malformed field
   * @throws TooLargeException if the export cannot fit an empty block
   */
  public MetricsBatch decode(byte[] buf, int off, int len, long receivedAt) throws WireException, TooLargeException {
    return decode(buf, off, len, receivedAt, new MetricsBatch());
  }

  /** As {@link #decode(byte[], int, int, long)}, into {@code batch}, which must be empty. */
  public MetricsBatch decode(byte[] buf, int off, int len, long receivedAt, MetricsBatch batch)
      throws WireException, TooLargeException {
    return decodeInto(buf, off, len, receivedAt, batch);
  }

  @Override
  protected void begin(MetricsBatch batch, long receivedAt) {
    sink = new Sink(batch, receivedAt);
  }

  @Override
  protected void end(MetricsBatch batch, long receivedAt) {
    if (batch.points() == 0 && !batch.isEmpty()) {
      // A block's name needs a time range; metrics that carry no points are placed at their arrival.
      batch.observeTime(receivedAt);
    }
  }

  @Override
  protected void record(byte[] buf, ProtoReader field, int resourceId, int scopeId) throws WireException, TooLargeException {
    metric(buf, field, sink, resourceId, scopeId);
  }

  private void metric(byte[] buf, ProtoReader at, Sink s, int resourceId, int scopeId)
      throws WireException, TooLargeException {
    metric.enter(at);
    int id = s.id.size();
    int nameStart = -1;
    int nameEnd = -1;
    int descStart = -1;
    int descEnd = -1;
    int unitStart = -1;
    int unitEnd = -1;
    int type = MetricsBatch.TYPE_NONE;
    int runStart = -1;
    int attr = 0;
    while (metric.next()) {
      switch (metric.field()) {
        case 1 -> {
          Fields.utf8(metric, "name");
          nameStart = metric.start();
          nameEnd = metric.end();
        }
        case 2 -> {
          Fields.utf8(metric, "description");
          descStart = metric.start();
          descEnd = metric.end();
        }
        case 3 -> {
          Fields.utf8(metric, "unit");
          unitStart = metric.start();
          unitEnd = metric.end();
        }
        case 5, 7, 9, 10, 11 -> {
          int t = typeOf(metric.field());
          Fields.expect(metric, ProtoReader.LEN, fieldName(t));
          if (t != type) {
            type = t;
            runStart = metric.fieldStart();
          }
        }
        case 12 -> {
          try {
            s.metadata.append(metric, id);
          } catch (WireException e) {
            throw WireException.at("metadata[" + attr + "]", e);
          }
          attr++;
        }
        default -> { }
      }
    }
    int temporality = 0;
    boolean monotonic = false;
    if (type != MetricsBatch.TYPE_NONE) {
      int field = fieldOf(type);
      metric.enter(at);
      int p = 0;
      while (metric.next()) {
        if (metric.field() != field || metric.fieldStart() < runStart) {
          continue;
        }
        data.enter(metric);
        try {
          while (data.next()) {
            switch (data.field()) {
              case 1 -> {
                try {
                  data.expect(ProtoReader.LEN);
                  point(s.points, type, id);
                } catch (WireException e) {
                  throw WireException.at("data_points[" + p + "]", e);
                }
                p++;
              }
              case 2 -> {
                if (type != MetricsBatch.TYPE_GAUGE && type != MetricsBatch.TYPE_SUMMARY) {
                  temporality = (int) Fields.varint(data, "aggregation_temporality");
                }
              }
              case 3 -> {
                if (type == MetricsBatch.TYPE_SUM) {
                  monotonic = Fields.varint(data, "is_monotonic") != 0;
                }
              }
              default -> { }
            }
          }
        } catch (WireException e) {
          throw WireException.at(fieldName(type), e);
        }
      }
    }
    s.id.appendInt(id);
    if (nameStart >= 0) {
      s.name.append(buf, nameStart, nameEnd - nameStart);
    } else {
      s.name.append(buf, 0, 0);
    }
    Fields.text(s.description, buf, descStart, descEnd);
    Fields.text(s.unit, buf, unitStart, unitEnd);
    s.type.appendByte(type);
    if (type == MetricsBatch.TYPE_SUM || type == MetricsBatch.TYPE_HISTOGRAM
        || type == MetricsBatch.TYPE_EXPONENTIAL_HISTOGRAM) {
      s.temporality.appendInt(temporality);
    } else {
      s.temporality.appendNull();
    }
    if (type == MetricsBatch.TYPE_SUM) {
      s.monotonic.append(monotonic);
    } else {
      s.monotonic.appendNull();
    }
    s.resourceId.appendShort(resourceId);
    s.scopeId.appendShort(scopeId);
  }

  private void point(PointDecoder points, int type, int metricId) throws WireException, TooLargeException {
    switch (type) {
      case MetricsBatch.TYPE_GAUGE, MetricsBatch.TYPE_SUM -> points.number(data, metricId);
      case MetricsBatch.TYPE_HISTOGRAM -> points.histogram(data, metricId);
      case MetricsBatch.TYPE_EXPONENTIAL_HISTOGRAM -> points.exponential(data, metricId);
      case MetricsBatch.TYPE_SUMMARY -> points.summary(data, metricId);
      default -> throw new IllegalArgumentException("metric type " + type);
    }
  }

  /** Metric's data oneof: field number → metrics.type. */
  private static int typeOf(int field) {
    return switch (field) {
      case 5 -> MetricsBatch.TYPE_GAUGE;
      case 7 -> MetricsBatch.TYPE_SUM;
      case 9 -> MetricsBatch.TYPE_HISTOGRAM;
      case 10 -> MetricsBatch.TYPE_EXPONENTIAL_HISTOGRAM;
      case 11 -> MetricsBatch.TYPE_SUMMARY;
      default -> throw new IllegalArgumentException("field " + field);
    };
  }

  private static int fieldOf(int type) {
    return switch (type) {
      case MetricsBatch.TYPE_GAUGE -> 5;
      case MetricsBatch.TYPE_SUM -> 7;
      case MetricsBatch.TYPE_HISTOGRAM -> 9;
      case MetricsBatch.TYPE_EXPONENTIAL_HISTOGRAM -> 10;
      case MetricsBatch.TYPE_SUMMARY -> 11;
      default -> throw new IllegalArgumentException("type " + type);
    };
  }

  private static String fieldName(int type) {
    return switch (type) {
      case MetricsBatch.TYPE_GAUGE -> "gauge";
      case MetricsBatch.TYPE_SUM -> "sum";
      case MetricsBatch.TYPE_HISTOGRAM -> "histogram";
      case MetricsBatch.TYPE_EXPONENTIAL_HISTOGRAM -> "exponential_histogram";
      case MetricsBatch.TYPE_SUMMARY -> "summary";
      default -> throw new IllegalArgumentException("type " + type);
    };
  }

  /** The metrics table's columns and the point decoder, set up once per export. */
  private static final class Sink {
    final AttrWriter metadata;
    final PointDecoder points;
    final FixedColumn id;
    final VarColumn name;
    final VarColumn description;
    final VarColumn unit;
    final FixedColumn type;
    final FixedColumn temporality;
    final BoolColumn monotonic;
    final FixedColumn resourceId;
    final FixedColumn scopeId;

    Sink(MetricsBatch batch, long receivedAt) {
      Table t = batch.table(MetricsBatch.METRICS);
      this.metadata = new AttrWriter(batch.table(MetricsBatch.METRIC_ATTRS));
      this.points = new PointDecoder(batch, receivedAt);
      this.id = (FixedColumn) t.column(MetricsBatch.M_ID);
      this.name = (VarColumn) t.column(MetricsBatch.M_NAME);
      this.description = (VarColumn) t.column(MetricsBatch.M_DESCRIPTION);
      this.unit = (VarColumn) t.column(MetricsBatch.M_UNIT);
      this.type = (FixedColumn) t.column(MetricsBatch.M_TYPE);
      this.temporality = (FixedColumn) t.column(MetricsBatch.M_TEMPORALITY);
      this.monotonic = (BoolColumn) t.column(MetricsBatch.M_MONOTONIC);
      this.resourceId = (FixedColumn) t.column(MetricsBatch.M_RESOURCE_ID);
      this.scopeId = (FixedColumn) t.column(MetricsBatch.M_SCOPE_ID);
    }
  }
}
