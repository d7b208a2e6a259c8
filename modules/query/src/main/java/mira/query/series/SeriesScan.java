package mira.query.series;

import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.catalog.Catalog;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.proto.wire.Signal;
import mira.proto.wire.WireException;
import mira.query.result.Refused;
import mira.query.result.Stats;
import mira.query.doc.Op;
import mira.query.doc.SeriesQuery;
import mira.query.doc.Term;
import mira.query.match.ValueMatcher;
import mira.query.prune.Probe;
import mira.query.prune.Pruning;
import mira.query.rows.AttrLists;
import mira.query.render.ResponseJson;
import mira.query.render.Json;
import mira.query.scan.Engine;
import mira.query.scan.OpenBlockCache;
import mira.query.scan.Sources;
import mira.query.scan.Waves;
import mira.query.table.AttrTable;
import mira.query.table.IdReader;
import mira.query.table.IntReader;
import mira.query.table.Scratch;
import mira.query.table.Tables;
import mira.query.table.VarReader;

/**
 * Metric series: the data points of the named metric (or of every metric) in a window, grouped
 * by (name, type, unit, resource attributes, point attributes), each with its exemplars. Gauges
 * and sums are one series per group; histograms, exponential histograms and summaries are two,
 * {@code <name>.count} and {@code <name>.sum}, and those names are accepted back: an exact name
 * match wins, and only when nothing in the window has that exact name is a {@code .count} /
 * {@code .sum} suffix read as that half of the base metric.
 *
 * <p>Both caps hold while scanning (see {@link SeriesSet} and {@link Series}), so a query over a
 * store with a request id in a point attribute costs the caps, not the store.
 */
public final class SeriesScan {
  static final String[] POINT_TABLES = {TableFiles.NUMBER_DP, TableFiles.HIST_DP, TableFiles.EXP_HIST_DP, TableFiles.SUMMARY_DP};

  /** How a metric row takes part. */
  private static final int SKIP = 0;
  private static final int WHOLE = 1;
  private static final int COUNT_ONLY = 2;
  private static final int SUM_ONLY = 3;

  private SeriesScan() {}

  public static byte[] run(Engine engine, SeriesQuery q) throws IOException {
    long started = System.nanoTime();
    Sources sources = engine.sources(Signal.METRICS, q.from(), q.to());
    List<BlockRef> listed = sources.refs();
    List<Term> terms = new ArrayList<>(q.where());
    Probe probe = new Probe(Signal.METRICS, q.from(), q.to(), null, null, terms);
    Pruning.Selection selected = engine.pruning().select(listed, sources::isSnapshot, probe);
    List<BlockRef> todo = selected.blocks();
    SeriesSet exact = new SeriesSet(q.maxSeries());
    SeriesSet suffix = new SeriesSet(q.maxSeries());
    AtomicInteger scanned = new AtomicInteger();
    LongAdder points = new LongAdder();
    LongAdder matched = new LongAdder();
    List<Refused> refused = Collections.synchronizedList(new ArrayList<>());
    Waves.run(todo, b -> false, block -> {
      try (BlockReader r = engine.open(sources, block)) {
        SeriesSet e = new SeriesSet(q.maxSeries());
        SeriesSet s = new SeriesSet(q.maxSeries());
        long[] counts = new long[2];
        scan(r, q, e, s, counts);
        synchronized (exact) {
          exact.merge(e);
          suffix.merge(s);
        }
        scanned.incrementAndGet();
        points.add(counts[0]);
        matched.add(counts[1]);
      } catch (CorruptBlockException e) {
        refused.add(new Refused(engine.name(block), e.getMessage()));
      }
    }, engine.fanOut());
    // Exact match first: a metric really called foo.count keeps its own name.
    SeriesSet chosen = exact.isEmpty() ? suffix : exact;
    Stats stats = new Stats(listed.size(), selected.pruned(), scanned.get(), points.sum(), matched.sum(),
        (System.nanoTime() - started) / 1_000_000);
    List<Refused> ref = new ArrayList<>(refused);
    ref.sort((a, b) -> a.block().compareTo(b.block()));
    return render(chosen, stats, ref);
  }

  private static byte[] render(SeriesSet set, Stats stats, List<Refused> refused) {
    return Json.render((JsonGenerator g) -> {
      g.writeStartObject();
      g.writeArrayFieldStart("series");
      for (Series s : set.series()) {
        List<Series.Point> pts = s.finish();
        g.writeStartObject();
        g.writeStringField("name", s.name);
        g.writeStringField("type", s.type);
        g.writeStringField("unit", s.unit);
        g.writeStringField("description", s.description);
        g.writeObjectFieldStart("resource");
        g.writeFieldName("attributes");
        g.writeRawValue(new String(s.resource, StandardCharsets.UTF_8));
        g.writeEndObject();
        g.writeFieldName("attributes");
        g.writeRawValue(new String(s.attributes, StandardCharsets.UTF_8));
        g.writeArrayFieldStart("points");
        for (Series.Point p : pts) {
          g.writeStartObject();
          g.writeStringField("time_unix_nano", Long.toString(p.time()));
          g.writeFieldName("value");
          value(g, p.kind(), p.l(), p.d());
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("exemplars");
        for (Series.Point p : pts) {
          for (byte[] x : p.exemplars()) {
            g.writeRawValue(new String(x, StandardCharsets.UTF_8));
          }
        }
        g.writeEndArray();
        g.writeStringField("dropped_points", Long.toString(s.dropped()));
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeObjectFieldStart("stats");
      g.writeNumberField("blocks_total", stats.blocksTotal());
      g.writeNumberField("blocks_pruned", stats.blocksPruned());
      g.writeNumberField("blocks_scanned", stats.blocksScanned());
      g.writeStringField("points_scanned", Long.toString(stats.rowsScanned()));
      g.writeStringField("points_matched", Long.toString(stats.rowsMatched()));
      g.writeStringField("dropped_series", Long.toString(set.droppedSeries()));
      g.writeStringField("took_ms", Long.toString(stats.tookMs()));
      g.writeEndObject();
      ResponseJson.refused(g, refused);
      g.writeEndObject();
    });
  }

  static void value(JsonGenerator g, int kind, long l, double d) throws IOException {
    switch (kind) {
      case Series.LONG -> g.writeString(Long.toString(l));
      case Series.UNSIGNED -> g.writeString(Long.toUnsignedString(l));
      case Series.DOUBLE -> g.writeNumber(d);
      default -> g.writeNull();
    }
  }

  /** One term's marks at each level a data point can be reached from. */
  private record Marks(boolean any, boolean absent, boolean[] res, boolean[] scope, boolean[] metric, boolean[] point) {
    boolean pass(int pid, int m, int r, int s) {
      if (!any) {
        return absent;
      }
      boolean h = (pid < point.length && point[pid]) || (m < metric.length && metric[m])
          || (r < res.length && res[r]) || (s < scope.length && scope[s]);
      return h != absent;
    }
  }

  /** counts[0] += points scanned, counts[1] += points that matched. */
  private static void scan(BlockReader r, SeriesQuery q, SeriesSet exact, SeriesSet suffix, long[] counts)
      throws CorruptBlockException {
    TableView metrics = Tables.get(r, TableFiles.METRICS);
    if (metrics == null) {
      return;
    }
    int nm = metrics.rows();
    VarReader name = VarReader.of(metrics.column(ColumnNames.NAME));
    IntReader type = IntReader.of(metrics.column(ColumnNames.TYPE));
    VarReader unit = VarReader.of(metrics.column(ColumnNames.UNIT));
    VarReader description = VarReader.of(metrics.column(ColumnNames.DESCRIPTION));
    IntReader resId = IntReader.of(metrics.column(ColumnNames.RESOURCE_ID));
    IntReader scopeId = IntReader.of(metrics.column(ColumnNames.SCOPE_ID));

    // Which metrics take part, and into which set.
    int[] mode = new int[nm];
    boolean[] toSuffix = new boolean[nm];
    String[] names = new String[nm];
    boolean anySelected = false;
    String base = null;
    int suffixMode = SKIP;
    if (q.name() != null && q.name().endsWith(".count")) {
      base = q.name().substring(0, q.name().length() - 6);
      suffixMode = COUNT_ONLY;
    } else if (q.name() != null && q.name().endsWith(".sum")) {
      base = q.name().substring(0, q.name().length() - 4);
      suffixMode = SUM_ONLY;
    }
    for (int m = 0; m < nm; m++) {
      String n = name.string(m);
      names[m] = n == null ? "" : n;
      if (q.name() == null || names[m].equals(q.name())) {
        mode[m] = WHOLE;
      } else if (base != null && names[m].equals(base) && MetricTypes.derived(type.getInt(m))) {
        mode[m] = suffixMode;
        toSuffix[m] = true;
      }
      anySelected |= mode[m] != SKIP;
    }

    int totalPoints = 0;
    TableView[] tables = new TableView[POINT_TABLES.length];
    for (int k = 0; k < tables.length; k++) {
      tables[k] = Tables.get(r, POINT_TABLES[k]);
      totalPoints += tables[k] == null ? 0 : tables[k].rows();
    }
    counts[0] += totalPoints;
    if (!anySelected || totalPoints == 0) {
      return;
    }

    Scratch scratch = new Scratch();
    int nRes = Tables.rows(r, TableFiles.RESOURCES);
    int nScopes = Tables.rows(r, TableFiles.SCOPES);
    List<Marks> marks = new ArrayList<>();
    for (Term.Attr t : q.where()) {
      boolean absent = t.op() == Op.EXISTS && !t.value().bool();
      ValueMatcher vm = new ValueMatcher(t.op(), t.value());
      byte[] key = t.key().getBytes(StandardCharsets.UTF_8);
      boolean[] res = new boolean[nRes];
      boolean[] scope = new boolean[nScopes];
      boolean[] metric = new boolean[nm];
      boolean[] point = new boolean[totalPoints];
      boolean any = AttrTable.of(Tables.get(r, TableFiles.RESOURCE_ATTRS)).mark(key, vm, res, scratch);
      any |= AttrTable.of(Tables.get(r, TableFiles.SCOPE_ATTRS)).mark(key, vm, scope, scratch);
      any |= AttrTable.of(Tables.get(r, TableFiles.METRIC_ATTRS)).mark(key, vm, metric, scratch);
      any |= AttrTable.of(Tables.get(r, TableFiles.DP_ATTRS)).mark(key, vm, point, scratch);
      marks.add(new Marks(any, absent, res, scope, metric, point));
    }

    // Pass 1: which points are in.
    boolean[] in = new boolean[totalPoints];
    int matched = 0;
    for (TableView t : tables) {
      if (t == null) {
        continue;
      }
      IntReader id = IntReader.of(t.column(ColumnNames.ID));
      IntReader parent = IntReader.of(t.column(ColumnNames.PARENT_ID));
      IntReader time = IntReader.of(t.column(ColumnNames.TIME_UNIX_NANO));
      for (int j = 0, rows = t.rows(); j < rows; j++) {
        int m = parent.getInt(j);
        int pid = id.getInt(j);
        if (m < 0 || m >= nm || mode[m] == SKIP || pid < 0 || pid >= totalPoints) {
          continue;
        }
        long ts = time.get(j);
        if (ts < q.from() || ts > q.to()) {
          continue;
        }
        int rid = resId.getInt(m);
        int sid = scopeId.getInt(m);
        boolean ok = true;
        for (int k = 0; k < marks.size() && ok; k++) {
          ok = marks.get(k).pass(pid, m, rid, sid);
        }
        if (ok) {
          in[pid] = true;
          matched++;
        }
      }
    }
    counts[1] += matched;
    if (matched == 0) {
      return;
    }

    // Pass 2: group the points that are in.
    AttrLists pointAttrs = new AttrLists(AttrTable.of(Tables.get(r, TableFiles.DP_ATTRS)), totalPoints, in);
    boolean[] usedRes = new boolean[nRes];
    for (int m = 0; m < nm; m++) {
      int rid = resId.getInt(m);
      if (mode[m] != SKIP && rid < nRes) {
        usedRes[rid] = true;
      }
    }
    AttrLists resAttrs = new AttrLists(AttrTable.of(Tables.get(r, TableFiles.RESOURCE_ATTRS)), nRes, usedRes);
    Exemplars exemplars = new Exemplars(r, totalPoints, in);
    String[] resourceJson = new String[nRes];
    int node = r.ref().name().node();
    long seq = r.ref().name().seq();
    try {
      for (int k = 0; k < tables.length; k++) {
        TableView t = tables[k];
        if (t == null) {
          continue;
        }
        IntReader id = IntReader.of(t.column(ColumnNames.ID));
        IntReader parent = IntReader.of(t.column(ColumnNames.PARENT_ID));
        IntReader time = IntReader.of(t.column(ColumnNames.TIME_UNIX_NANO));
        boolean numbers = POINT_TABLES[k].equals(TableFiles.NUMBER_DP);
        IntReader iv = IntReader.of(t.column(numbers ? "int" : "count"));
        IntReader dv = IntReader.of(t.column(numbers ? "double" : "sum"));
        for (int j = 0, rows = t.rows(); j < rows; j++) {
          int pid = id.getInt(j);
          if (pid < 0 || pid >= totalPoints || !in[pid]) {
            continue;
          }
          int m = parent.getInt(j);
          int rid = resId.getInt(m);
          if (rid >= nRes) {
            throw new WireException("metric " + m + " names resource " + rid + " of " + nRes);
          }
          String res = resourceJson[rid];
          if (res == null) {
            res = resourceJson[rid] = new String(Json.render((JsonGenerator g) -> ResponseJson.object(g, resAttrs.sorted(rid, scratch))),
                StandardCharsets.UTF_8);
          }
          byte[] attrs = Json.render((JsonGenerator g) -> ResponseJson.object(g, pointAttrs.sorted(pid, scratch)));
          long ts = time.get(j);
          byte[][] ex = exemplars.render(pid, scratch);
          String typeName = MetricTypes.name(type.getInt(m));
          String u = orEmpty(unit.string(m));
          SeriesSet into = toSuffix[m] ? suffix : exact;
          if (numbers) {
            int kind = !iv.isNull(j) ? Series.LONG : !dv.isNull(j) ? Series.DOUBLE : Series.NULL;
            double d = kind == Series.DOUBLE ? Double.longBitsToDouble(dv.get(j)) : 0;
            add(into, names[m], typeName, u, description, m, res, attrs, q.maxPoints(),
                new Series.Point(ts, node, seq, pid, kind, kind == Series.LONG ? iv.get(j) : 0, d, ex));
          } else {
            if (mode[m] != SUM_ONLY) {
              add(into, names[m] + ".count", typeName, u, description, m, res, attrs, q.maxPoints(),
                  new Series.Point(ts, node, seq, pid, Series.UNSIGNED, iv.get(j), 0, ex));
            }
            if (mode[m] != COUNT_ONLY) {
              boolean hasSum = !dv.isNull(j);
              add(into, names[m] + ".sum", typeName, u, description, m, res, attrs, q.maxPoints(),
                  new Series.Point(ts, node, seq, pid, hasSum ? Series.DOUBLE : Series.NULL, 0,
                      hasSum ? Double.longBitsToDouble(dv.get(j)) : 0, ex));
            }
          }
        }
      }
    } catch (WireException e) {
      throw new CorruptBlockException(r.ref().dir(), TableFiles.METRICS, "cannot read a series: " + e.getMessage());
    }
  }

  private static void add(SeriesSet into, String name, String type, String unit, VarReader description, int m,
      String resource, byte[] attrs, int maxPoints, Series.Point p) {
    String key = name + '\u0000' + type + '\u0000' + unit + '\u0000' + resource + '\u0000'
        + new String(attrs, StandardCharsets.UTF_8);
    Series s = into.get(key);
    if (s == null) {
      if (!into.admit(key)) {
        return;
      }
      s = new Series(name, type, unit, orEmpty(description.string(m)), resource.getBytes(StandardCharsets.UTF_8),
          attrs, maxPoints);
      into.put(key, s);
    }
    s.add(p);
  }

  static String orEmpty(String s) {
    return s == null ? "" : s;
  }

  /** The exemplars of the selected points, rendered. */
  private static final class Exemplars {
    private static final byte[][] NONE = new byte[0][];
    private final mira.query.table.Children byPoint;
    private final IntReader time;
    private final IntReader iv;
    private final IntReader dv;
    private final IdReader traceId;
    private final IdReader spanId;
    private final AttrLists attrs;

    Exemplars(BlockReader r, int points, boolean[] selected) throws CorruptBlockException {
      TableView t = Tables.get(r, TableFiles.EXEMPLARS);
      int rows = t == null ? 0 : t.rows();
      byPoint = mira.query.table.Children.of(IntReader.of(t == null ? null : t.column(ColumnNames.PARENT_ID)), rows, points,
          selected);
      time = IntReader.of(t == null ? null : t.column(ColumnNames.TIME_UNIX_NANO));
      iv = IntReader.of(t == null ? null : t.column(ColumnNames.INT));
      dv = IntReader.of(t == null ? null : t.column(ColumnNames.DOUBLE));
      traceId = IdReader.of(t == null ? null : t.column(ColumnNames.TRACE_ID), 16);
      spanId = IdReader.of(t == null ? null : t.column(ColumnNames.SPAN_ID), 8);
      boolean[] used = new boolean[rows];
      for (int p = 0; p < points; p++) {
        if (selected[p]) {
          for (int k = 0, c = byPoint.count(p); k < c; k++) {
            used[byPoint.row(p, k)] = true;
          }
        }
      }
      attrs = new AttrLists(AttrTable.of(Tables.get(r, TableFiles.EXEMPLAR_ATTRS)), rows, used);
    }

    byte[][] render(int point, Scratch s) throws WireException {
      int c = byPoint.count(point);
      if (c == 0) {
        return NONE;
      }
      byte[][] out = new byte[c][];
      for (int k = 0; k < c; k++) {
        int x = byPoint.row(point, k);
        out[k] = Json.render((JsonGenerator g) -> {
          g.writeStartObject();
          g.writeStringField("time_unix_nano", Long.toString(time.getOr(x, 0)));
          g.writeFieldName("value");
          int kind = !iv.isNull(x) ? Series.LONG : !dv.isNull(x) ? Series.DOUBLE : Series.NULL;
          value(g, kind, kind == Series.LONG ? iv.get(x) : 0, kind == Series.DOUBLE ? Double.longBitsToDouble(dv.get(x)) : 0);
          g.writeStringField("trace_id", traceId.hex(x));
          g.writeStringField("span_id", spanId.hex(x));
          g.writeFieldName("attributes");
          ResponseJson.object(g, attrs.get(x, s));
          g.writeEndObject();
        });
      }
      return out;
    }
  }
}
