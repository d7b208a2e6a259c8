package mira.query.series;

import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.proto.wire.Signal;
import mira.proto.wire.WireException;
import mira.query.result.Attribute;
import mira.query.result.QueryException;
import mira.query.result.Refused;
import mira.query.result.SeriesPoints;
import mira.query.result.SeriesResult;
import mira.query.result.Stats;
import mira.query.doc.Documents;
import mira.query.doc.Op;
import mira.query.doc.SeriesQuery;
import mira.query.doc.Term;
import mira.query.match.ValueMatcher;
import mira.query.entity.ResourceKeys;
import mira.query.prune.Probe;
import mira.query.prune.Pruning;
import mira.query.rows.AttrLists;
import mira.query.render.Json;
import mira.query.scan.Engine;
import mira.query.scan.Sources;
import mira.query.scan.Waves;
import mira.query.table.AttrTable;
import mira.query.table.BoolReader;
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

  /**
   * Runs a parsed series query.
   *
   * @throws IOException if the data directory cannot be listed (a damaged block is not an error:
   *     it is listed in {@link SeriesResult#refused()})
   */
  public static SeriesResult run(Engine engine, SeriesQuery q) throws IOException, QueryException {
    return run(engine, q, SeriesPartials.SHARED);
  }

  /**
   * Runs a parsed series query, a stepped rate, increase or quantile from the per-block partials
   * of {@code partials} where they answer it ({@link SteppedScan}); null: always by gathering
   * every point.
   */
  static SeriesResult run(Engine engine, SeriesQuery q, SeriesPartials partials) throws IOException, QueryException {
    long started = System.nanoTime();
    Sources sources = engine.sources(Signal.METRICS, q.from(), q.to());
    List<BlockRef> listed = sources.refs();
    List<Term> terms = new ArrayList<>(q.where());
    Probe probe = new Probe(Signal.METRICS, q.from(), q.to(), null, null, terms);
    Pruning.Selection selected = engine.pruning().select(listed, sources::isSnapshot, probe);
    if (partials != null && SteppedScan.applies(q)) {
      SeriesResult stepped = SteppedScan.run(engine, sources, listed.size(), selected, q, partials, started);
      if (stepped != null) {
        return stepped;
      }
    }
    Gathered g = gather(engine, sources, listed.size(), selected, q, started);
    if (q.fn() != null) {
      return SeriesFunctions.apply(g.chosen(), q, g.stats(), g.refused());
    }
    List<SeriesResult.Series> out = new ArrayList<>(g.chosen().size());
    for (Series s : g.chosen().series()) {
      out.add(s.result());
    }
    return new SeriesResult(out, g.chosen().droppedSeries(), g.stats(), g.refused());
  }

  /**
   * The stored points a series query reads, before its function: with a function, every series and
   * point up to the hard limits (a quantile's with their buckets); without, as the caps keep them.
   * What a replica answers a peer that computes the function over every node's points.
   */
  public static SeriesPoints points(Engine engine, SeriesQuery q) throws IOException {
    long started = System.nanoTime();
    Sources sources = engine.sources(Signal.METRICS, q.from(), q.to());
    List<BlockRef> listed = sources.refs();
    Probe probe = new Probe(Signal.METRICS, q.from(), q.to(), null, null, new ArrayList<>(q.where()));
    Pruning.Selection selected = engine.pruning().select(listed, sources::isSnapshot, probe);
    Gathered g = gather(engine, sources, listed.size(), selected, q, started);
    return PointSets.of(g.chosen(), g.exactName(), g.stats(), g.refused());
  }

  /**
   * The answer of {@code q} over the union of several nodes' stored points ({@link #points}): the
   * series united by identity, then the function applied as over one node's points.
   *
   * @throws QueryException if the function has no meaning for a series read
   */
  public static SeriesResult over(SeriesQuery q, List<SeriesPoints> parts, Stats stats) throws QueryException {
    return PointSets.over(q, parts, stats);
  }

  /** What the gathering path collected: the chosen set (exact name, else suffix) and its costs. */
  private record Gathered(SeriesSet chosen, boolean exactName, Stats stats, List<Refused> refused) {}

  private static Gathered gather(Engine engine, Sources sources, int listed, Pruning.Selection selected,
      SeriesQuery q, long started) throws IOException {
    // With a function, the caps apply to its output: the stored series are read up to the hard limits.
    int maxSeries = q.fn() == null ? q.maxSeries() : Documents.MAX_SERIES;
    int maxPoints = q.fn() == null ? q.maxPoints() : Documents.MAX_POINTS;
    SeriesSet exact = new SeriesSet(maxSeries);
    SeriesSet suffix = new SeriesSet(maxSeries);
    AtomicInteger scanned = new AtomicInteger();
    LongAdder points = new LongAdder();
    LongAdder matched = new LongAdder();
    List<Refused> refused = Collections.synchronizedList(new ArrayList<>());
    Waves.run(selected.blocks(), b -> false, block -> {
      try (BlockReader r = engine.open(sources, block)) {
        SeriesSet e = new SeriesSet(maxSeries);
        SeriesSet s = new SeriesSet(maxSeries);
        long[] counts = new long[2];
        scan(r, q, maxPoints, e, s, counts);
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
    boolean exactName = !exact.isEmpty();
    Stats stats = new Stats(listed, selected.pruned(), scanned.get(), points.sum(), matched.sum(),
        (System.nanoTime() - started) / 1_000_000);
    List<Refused> ref = new ArrayList<>(refused);
    ref.sort((a, b) -> a.block().compareTo(b.block()));
    return new Gathered(exactName ? exact : suffix, exactName, stats, ref);
  }

  /** One term's marks at each level a data point can be reached from. */
  private record Marks(boolean any, boolean absent, boolean[] res, boolean[] scope, boolean[] metric, boolean[] point,
      boolean negated) {
    Marks(boolean any, boolean absent, boolean[] res, boolean[] scope, boolean[] metric, boolean[] point) {
      this(any, absent, res, scope, metric, point, false);
    }

    Marks negate() {
      return new Marks(any, absent, res, scope, metric, point, !negated);
    }

    boolean pass(int pid, int m, int r, int s) {
      if (!any) {
        return absent != negated;
      }
      boolean h = (pid < point.length && point[pid]) || (m < metric.length && metric[m])
          || (r < res.length && res[r]) || (s < scope.length && scope[s]);
      return (h != absent) != negated;
    }
  }

  /** The metrics table of one block: its columns, and how each metric row takes part. */
  private record MetricRows(int rows, VarReader name, IntReader type, VarReader unit, VarReader description,
      IntReader resId, IntReader scopeId, IntReader temporality, BoolReader monotonic, String[] names, int[] mode,
      boolean[] toSuffix, boolean anySelected) {}

  /** One block's point tables ({@link #POINT_TABLES} order, null if absent) and their row total. */
  private record PointTables(TableView[] tables, int total) {}

  /** counts[0] += points scanned, counts[1] += points that matched. */
  static void scan(BlockReader r, SeriesQuery q, int maxPoints, SeriesSet exact, SeriesSet suffix,
      long[] counts)
      throws CorruptBlockException {
    TableView metrics = Tables.get(r, TableFiles.METRICS);
    if (metrics == null) {
      return;
    }
    MetricRows mr = metricRows(metrics, q.name());
    PointTables pt = pointTables(r);
    counts[0] += pt.total();
    if (!mr.anySelected() || pt.total() == 0) {
      return;
    }
    Scratch scratch = new Scratch();
    List<Marks> marks = marks(r, q.where(), mr.rows(), pt.total(), scratch);
    boolean[] in = new boolean[pt.total()];
    int matched = match(pt, mr, marks, q.from(), q.to(), in);
    counts[1] += matched;
    if (matched == 0) {
      return;
    }
    try {
      boolean withBuckets = q.fn() != null && q.fn().fn().equals("quantile");
      collect(r, pt, mr, in, maxPoints, withBuckets, exact, suffix, scratch);
    } catch (WireException e) {
      throw new CorruptBlockException(r.ref().dir(), TableFiles.METRICS, "cannot read a series: " + e.getMessage());
    }
  }

  /**
   * The data points of a block in {@code [from, to]} that pass every term (marked by point id), for
   * {@code GET /api/v1/metrics}; null when the block has no metrics table.
   */
  static boolean[] matching(BlockReader r, List<Term> where, long from, long to) throws CorruptBlockException {
    TableView metrics = Tables.get(r, TableFiles.METRICS);
    if (metrics == null) {
      return null;
    }
    MetricRows mr = metricRows(metrics, null);
    PointTables pt = pointTables(r);
    boolean[] in = new boolean[pt.total()];
    if (pt.total() > 0) {
      match(pt, mr, marks(r, where, mr.rows(), pt.total(), new Scratch()), from, to, in);
    }
    return in;
  }

  /** Which metric rows take part, and into which set: exact name, or a histogram's half. */
  private static MetricRows metricRows(TableView metrics, String wanted) {
    int nm = metrics.rows();
    VarReader name = VarReader.of(metrics.column(ColumnNames.NAME));
    IntReader type = IntReader.of(metrics.column(ColumnNames.TYPE));
    int[] mode = new int[nm];
    boolean[] toSuffix = new boolean[nm];
    String[] names = new String[nm];
    boolean anySelected = false;
    String base = null;
    int suffixMode = SKIP;
    if (wanted != null && wanted.endsWith(".count")) {
      base = wanted.substring(0, wanted.length() - 6);
      suffixMode = COUNT_ONLY;
    } else if (wanted != null && wanted.endsWith(".sum")) {
      base = wanted.substring(0, wanted.length() - 4);
      suffixMode = SUM_ONLY;
    }
    for (int m = 0; m < nm; m++) {
      String n = name.string(m);
      names[m] = n == null ? "" : n;
      if (wanted == null || names[m].equals(wanted)) {
        mode[m] = WHOLE;
      } else if (base != null && names[m].equals(base) && MetricTypes.derived(type.getInt(m))) {
        mode[m] = suffixMode;
        toSuffix[m] = true;
      }
      anySelected |= mode[m] != SKIP;
    }
    return new MetricRows(nm, name, type, VarReader.of(metrics.column(ColumnNames.UNIT)),
        VarReader.of(metrics.column(ColumnNames.DESCRIPTION)), IntReader.of(metrics.column(ColumnNames.RESOURCE_ID)),
        IntReader.of(metrics.column(ColumnNames.SCOPE_ID)), IntReader.of(metrics.column(ColumnNames.AGGREGATION_TEMPORALITY)),
        BoolReader.of(metrics.column(ColumnNames.IS_MONOTONIC)), names, mode, toSuffix, anySelected);
  }

  private static PointTables pointTables(BlockReader r) throws CorruptBlockException {
    int total = 0;
    TableView[] tables = new TableView[POINT_TABLES.length];
    for (int k = 0; k < tables.length; k++) {
      tables[k] = Tables.get(r, POINT_TABLES[k]);
      total += tables[k] == null ? 0 : tables[k].rows();
    }
    return new PointTables(tables, total);
  }

  /** Each term marked at every level: resource, scope, metric and data point attributes. */
  private static List<Marks> marks(BlockReader r, List<Term> where, int nm, int totalPoints, Scratch scratch)
      throws CorruptBlockException {
    int nRes = Tables.rows(r, TableFiles.RESOURCES);
    int nScopes = Tables.rows(r, TableFiles.SCOPES);
    List<Marks> marks = new ArrayList<>();
    for (Term t : where) {
      marks.add(t instanceof Term.Not n ? mark(r, n.term(), nRes, nScopes, nm, totalPoints, scratch).negate()
          : mark(r, t, nRes, nScopes, nm, totalPoints, scratch));
    }
    return marks;
  }

  private static Marks mark(BlockReader r, Term t, int nRes, int nScopes, int nm, int totalPoints, Scratch scratch)
      throws CorruptBlockException {
    boolean absent;
    ValueMatcher vm;
    byte[] key;
    switch (t) {
      case Term.Attr a -> {
        absent = a.op() == Op.EXISTS && !a.value().bool();
        vm = new ValueMatcher(a.op(), a.value());
        key = a.key().getBytes(StandardCharsets.UTF_8);
      }
      case Term.AttrIn a -> {
        absent = false;
        vm = ValueMatcher.anyOf(a.values());
        key = a.key().getBytes(StandardCharsets.UTF_8);
      }
      case Term.Entity e -> {
        // The resource level alone: a point is in when its metric's resource is one of them.
        boolean[] res = ResourceKeys.marks(r, e.keys());
        res = res == null ? new boolean[nRes] : res;
        return new Marks(true, false, res, new boolean[nScopes], new boolean[nm], new boolean[totalPoints]);
      }
      default -> throw new IllegalArgumentException("a series document takes attr and entity terms: " + t);
    }
    boolean[] res = new boolean[nRes];
    boolean[] scope = new boolean[nScopes];
    boolean[] metric = new boolean[nm];
    boolean[] point = new boolean[totalPoints];
    boolean any = AttrTable.of(Tables.get(r, TableFiles.RESOURCE_ATTRS)).mark(key, vm, res, scratch);
    any |= AttrTable.of(Tables.get(r, TableFiles.SCOPE_ATTRS)).mark(key, vm, scope, scratch);
    any |= AttrTable.of(Tables.get(r, TableFiles.METRIC_ATTRS)).mark(key, vm, metric, scratch);
    any |= AttrTable.of(Tables.get(r, TableFiles.DP_ATTRS)).mark(key, vm, point, scratch);
    return new Marks(any, absent, res, scope, metric, point);
  }

  /** Sets {@code in[point id]} for the points of selected metrics in the window passing every term; returns how many. */
  private static int match(PointTables pt, MetricRows mr, List<Marks> marks, long from, long to, boolean[] in) {
    int matched = 0;
    int nm = mr.rows();
    for (TableView t : pt.tables()) {
      if (t == null) {
        continue;
      }
      IntReader id = IntReader.of(t.column(ColumnNames.ID));
      IntReader parent = IntReader.of(t.column(ColumnNames.PARENT_ID));
      IntReader time = IntReader.of(t.column(ColumnNames.TIME_UNIX_NANO));
      for (int j = 0, rows = t.rows(); j < rows; j++) {
        int m = parent.getInt(j);
        int pid = id.getInt(j);
        if (m < 0 || m >= nm || mr.mode()[m] == SKIP || pid < 0 || pid >= in.length) {
          continue;
        }
        long ts = time.get(j);
        if (ts < from || ts > to) {
          continue;
        }
        int rid = mr.resId().getInt(m);
        int sid = mr.scopeId().getInt(m);
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
    return matched;
  }

  /** Adds the points that are in to their series: numbers as one, histograms and summaries as .count and .sum. */
  private static void collect(BlockReader r, PointTables pt, MetricRows mr, boolean[] in, int maxPoints,
      boolean withBuckets, SeriesSet exact, SeriesSet suffix, Scratch scratch) throws CorruptBlockException, WireException {
    int totalPoints = in.length;
    int nRes = Tables.rows(r, TableFiles.RESOURCES);
    AttrLists pointAttrs = new AttrLists(AttrTable.of(Tables.get(r, TableFiles.DP_ATTRS)), totalPoints, in);
    boolean[] usedRes = new boolean[nRes];
    for (int m = 0; m < mr.rows(); m++) {
      int rid = mr.resId().getInt(m);
      if (mr.mode()[m] != SKIP && rid < nRes) {
        usedRes[rid] = true;
      }
    }
    AttrLists resAttrs = new AttrLists(AttrTable.of(Tables.get(r, TableFiles.RESOURCE_ATTRS)), nRes, usedRes);
    TableView resTable = Tables.get(r, TableFiles.RESOURCES);
    IntReader entityKey = IntReader.of(resTable == null ? null : resTable.column(ColumnNames.KEY));
    Exemplars exemplars = new Exemplars(r, totalPoints, in);
    Buckets buckets = withBuckets ? Buckets.of(r) : null;
    Shapes shapes = withBuckets ? Shapes.of(r) : null;
    String[] resourceKey = new String[nRes];
    @SuppressWarnings("unchecked")
    List<Attribute>[] resources = new List[nRes];
    Prefix[] prefix = new Prefix[mr.rows()];
    Memo memo = new Memo();
    int node = r.ref().name().node();
    long seq = r.ref().name().seq();
    for (int k = 0; k < pt.tables().length; k++) {
      TableView t = pt.tables()[k];
      if (t == null) {
        continue;
      }
      IntReader id = IntReader.of(t.column(ColumnNames.ID));
      IntReader parent = IntReader.of(t.column(ColumnNames.PARENT_ID));
      IntReader time = IntReader.of(t.column(ColumnNames.TIME_UNIX_NANO));
      IntReader startTime = IntReader.of(t.column(ColumnNames.START_TIME_UNIX_NANO));
      boolean numbers = POINT_TABLES[k].equals(TableFiles.NUMBER_DP);
      boolean hist = withBuckets && POINT_TABLES[k].equals(TableFiles.HIST_DP);
      boolean exp = withBuckets && POINT_TABLES[k].equals(TableFiles.EXP_HIST_DP);
      boolean summary = withBuckets && POINT_TABLES[k].equals(TableFiles.SUMMARY_DP);
      IntReader iv = IntReader.of(t.column(numbers ? ColumnNames.INT : ColumnNames.COUNT));
      IntReader dv = IntReader.of(t.column(numbers ? ColumnNames.DOUBLE : ColumnNames.SUM));
      for (int j = 0, rows = t.rows(); j < rows; j++) {
        int pid = id.getInt(j);
        if (pid < 0 || pid >= totalPoints || !in[pid]) {
          continue;
        }
        int m = parent.getInt(j);
        int rid = mr.resId().getInt(m);
        if (rid >= nRes) {
          throw new WireException("metric " + m + " names resource " + rid + " of " + nRes);
        }
        if (resourceKey[rid] == null) {
          resources[rid] = resAttrs.sorted(rid, scratch);
          resourceKey[rid] = AttrKey.of(resources[rid]);
        }
        long entity = entityKey.getOr(rid, 0);
        Attrs attrs = memo.attrs(pointAttrs.get(pid, scratch));
        long ts = time.get(j);
        long st = startTime.getOr(j, 0);
        SeriesResult.Exemplar[] ex = exemplars.read(pid, scratch);
        Prefix px = prefix[m];
        if (px == null) {
          px = prefix[m] = memo.prefix(mr, m, rid, resources[rid], resourceKey[rid]);
        }
        SeriesSet into = mr.toSuffix()[m] ? suffix : exact;
        int mode = mr.mode()[m];
        if (numbers) {
          int kind = !iv.isNull(j) ? Series.LONG : !dv.isNull(j) ? Series.DOUBLE : Series.NULL;
          double d = kind == Series.DOUBLE ? Double.longBitsToDouble(dv.get(j)) : 0;
          memo.add(into, px, px.name, px.whole, mr, m, entity, attrs, maxPoints,
              new Series.Point(ts, node, seq, pid, kind, kind == Series.LONG ? iv.get(j) : 0, d, st, ex, null, null));
        } else {
          if (mode != SUM_ONLY) {
            memo.add(into, px, px.name + ".count", px.count, mr, m, entity, attrs, maxPoints,
                new Series.Point(ts, node, seq, pid, Series.UNSIGNED, iv.get(j), 0, st, ex,
                    hist ? buckets.counts(j) : null, hist ? buckets.bounds(j) : null, exp ? shapes.exp(j) : null,
                    summary ? shapes.summary(j) : null));
          }
          // A quantile reads only the count half (it carries the buckets); the sum half is still
          // collected when it was asked for by name, so that the refusal can name it.
          if (mode != COUNT_ONLY && !(withBuckets && mode == WHOLE)) {
            boolean hasSum = !dv.isNull(j);
            memo.add(into, px, px.name + ".sum", px.sum, mr, m, entity, attrs, maxPoints,
                new Series.Point(ts, node, seq, pid, hasSum ? Series.DOUBLE : Series.NULL, 0,
                    hasSum ? Double.longBitsToDouble(dv.get(j)) : 0, st, ex, null, null));
          }
        }
      }
    }
  }

  /** A point's attributes: sorted (the series' own) and as their key text. */
  private record Attrs(List<Attribute> sorted, String key) {}

  /** What a metric row's series keys start with (name, type, unit, resource), per half. */
  private static final class Prefix {
    final String name;
    final String type;
    final String unit;
    final List<Attribute> resource;
    final String whole;
    final String count;
    final String sum;

    Prefix(MetricRows mr, int m, List<Attribute> resource, String resourceKey) {
      this.name = mr.names()[m];
      this.type = MetricTypes.name(mr.type().getInt(m));
      this.unit = orEmpty(mr.unit().string(m));
      this.resource = resource;
      String tail = '\u0000' + type + '\u0000' + unit + '\u0000' + resourceKey + '\u0000';
      this.whole = name + tail;
      this.count = name + ".count" + tail;
      this.sum = name + ".sum" + tail;
    }
  }

  private record PrefixKey(String name, int type, String unit, int resource) {}

  /** Where a (series key prefix, attribute key) went in a block's set. */
  private record Slot(String prefix, String attrs) {}

  /**
   * One block's lookups, so that a point costs two hash lookups on strings whose hashes are
   * cached, instead of its attributes sorted and rendered and a long key built and compared in
   * the ordered set. Equal stored attribute lists render alike, so a list seen before reuses its
   * key; a key seen before reuses its series.
   */
  private static final class Memo {
    private final HashMap<List<Attribute>, Attrs> attrs = new HashMap<>();
    private final HashMap<Slot, Series> series = new HashMap<>();
    private final HashMap<PrefixKey, Prefix> prefixes = new HashMap<>();

    /** One prefix for every metric row of the same name, type, unit and resource (one per export). */
    Prefix prefix(MetricRows mr, int m, int rid, List<Attribute> resource, String resourceKey) {
      PrefixKey k = new PrefixKey(mr.names()[m], mr.type().getInt(m), orEmpty(mr.unit().string(m)), rid);
      Prefix px = prefixes.get(k);
      if (px == null) {
        px = new Prefix(mr, m, resource, resourceKey);
        prefixes.put(k, px);
      }
      return px;
    }

    Attrs attrs(List<Attribute> stored) {
      Attrs a = attrs.get(stored);
      if (a == null) {
        List<Attribute> sorted = new ArrayList<>(stored);
        sorted.sort((x, y) -> x.key().compareTo(y.key()));
        a = new Attrs(sorted, AttrKey.of(sorted));
        attrs.put(stored, a);
      }
      return a;
    }

    void add(SeriesSet into, Prefix px, String name, String prefix, MetricRows mr, int m, long entity, Attrs a,
        int maxPoints, Series.Point p) {
      Slot slot = new Slot(prefix, a.key());
      Series s = series.get(slot);
      // A series the set evicted (over max_series) stays here and takes points no answer shows,
      // as the set itself would have refused them.
      if (s == null) {
        String key = prefix + a.key();
        s = into.get(key);
        if (s == null) {
          if (!into.admit(key)) {
            return;
          }
          s = new Series(name, px.type, px.unit, orEmpty(mr.description().string(m)), px.resource, a.sorted(), maxPoints);
          s.entity = entity;
          s.temporality = (int) mr.temporality().getOr(m, 0);
          s.monotonic = !px.type.equals("sum") || (!mr.monotonic().isNull(m) && mr.monotonic().get(m));
          into.put(key, s);
        }
        series.put(slot, s);
      }
      s.add(p);
    }
  }

  static String orEmpty(String s) {
    return s == null ? "" : s;
  }

  /** The exemplars of the selected points. */
  private static final class Exemplars {
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

    SeriesResult.Exemplar[] read(int point, Scratch s) throws WireException {
      int c = byPoint.count(point);
      if (c == 0) {
        return Series.NO_EXEMPLARS;
      }
      SeriesResult.Exemplar[] out = new SeriesResult.Exemplar[c];
      for (int k = 0; k < c; k++) {
        int x = byPoint.row(point, k);
        int kind = !iv.isNull(x) ? Series.LONG : !dv.isNull(x) ? Series.DOUBLE : Series.NULL;
        List<Attribute> a = attrs.get(x, s);
        out[k] = new SeriesResult.Exemplar(time.getOr(x, 0), kind, kind == Series.LONG ? iv.get(x) : 0,
            kind == Series.DOUBLE ? Double.longBitsToDouble(dv.get(x)) : 0, traceId.hex(x), spanId.hex(x), a);
      }
      return out;
    }
  }
}
