package mira.query.series;

import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import mira.block.metrics.MetricsBatch;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.proto.wire.Signal;
import mira.query.doc.Term;
import mira.query.result.MetricList;
import mira.query.result.Refused;
import mira.query.result.Stats;
import mira.query.doc.Window;
import mira.query.prune.Probe;
import mira.query.prune.Pruning;
import mira.query.scan.Engine;
import mira.query.scan.Sources;
import mira.query.scan.Waves;
import mira.query.table.AttrTable;
import mira.query.table.BoolReader;
import mira.query.table.IntReader;
import mira.query.table.Tables;
import mira.query.table.VarReader;

/**
 * The metrics that have a data point in a window passing the terms (matched as by
 * {@code /api/v1/series}: at the point, the metric, the resource and the scope): one entry per
 * distinct (name, type, unit, description, temporality, monotonic), sorted, with the point
 * attribute keys and the explicit bucket bounds seen on the matching points. Names are the stored
 * (base) names: a histogram {@code h} is listed as {@code h}, though {@code /api/v1/series} also
 * accepts {@code h.count} and {@code h.sum}.
 */
public final class MetricNames {
  private MetricNames() {}

  private static final Comparator<String> NULLS_FIRST = Comparator.nullsFirst(Comparator.naturalOrder());
  private static final Comparator<Boolean> FALSE_FIRST = Comparator.nullsFirst(Comparator.naturalOrder());

  record Entry(String name, String type, String unit, String description, String temporality, Boolean monotonic)
      implements Comparable<Entry> {
    @Override
    public int compareTo(Entry o) {
      int c = name.compareTo(o.name);
      if (c == 0) {
        c = type.compareTo(o.type);
      }
      if (c == 0) {
        c = unit.compareTo(o.unit);
      }
      if (c == 0) {
        c = description.compareTo(o.description);
      }
      if (c == 0) {
        c = NULLS_FIRST.compare(temporality, o.temporality);
      }
      return c != 0 ? c : FALSE_FIRST.compare(monotonic, o.monotonic);
    }
  }

  /** What the matching points of one entry carried. */
  static final class Seen {
    final TreeSet<String> keys = new TreeSet<>();
    final TreeSet<List<Double>> bounds = new TreeSet<>(MetricNames::compareBounds);

    void absorb(Seen o) {
      keys.addAll(o.keys);
      bounds.addAll(o.bounds);
    }
  }

  static int compareBounds(List<Double> a, List<Double> b) {
    for (int k = 0; k < Math.min(a.size(), b.size()); k++) {
      int c = Double.compare(a.get(k), b.get(k));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  public static MetricList run(Engine engine, Window w) throws IOException {
    return run(engine, w, List.of());
  }

  /** The metrics with a point in the window passing every term ({@code attr}, {@code entity}, {@code not}). */
  public static MetricList run(Engine engine, Window w, List<Term> where) throws IOException {
    long started = System.nanoTime();
    Sources sources = engine.sources(Signal.METRICS, w.from(), w.to());
    List<BlockRef> listed = sources.refs();
    Probe probe = new Probe(Signal.METRICS, w.from(), w.to(), null, null, new ArrayList<>(where));
    Pruning.Selection selected = engine.pruning().select(listed, sources::isSnapshot, probe);
    List<BlockRef> todo = selected.blocks();
    TreeMap<Entry, Seen> found = new TreeMap<>();
    AtomicInteger scanned = new AtomicInteger();
    LongAdder points = new LongAdder();
    LongAdder matched = new LongAdder();
    List<Refused> refused = Collections.synchronizedList(new ArrayList<>());
    Waves.run(todo, b -> false, block -> {
      try (BlockReader r = engine.open(sources, block)) {
        TreeMap<Entry, Seen> mine = scan(r, w, where, points, matched);
        synchronized (found) {
          mine.forEach((e, s) -> found.computeIfAbsent(e, k -> new Seen()).absorb(s));
        }
        scanned.incrementAndGet();
      } catch (CorruptBlockException e) {
        refused.add(new Refused(engine.name(block), e.getMessage()));
      }
    }, engine.fanOut());
    Stats stats = new Stats(listed.size(), selected.pruned(), scanned.get(), points.sum(), matched.sum(),
        (System.nanoTime() - started) / 1_000_000);
    List<Refused> ref = new ArrayList<>(refused);
    ref.sort((a, b) -> a.block().compareTo(b.block()));
    List<MetricList.Metric> out = new ArrayList<>(found.size());
    found.forEach((e, s) -> out.add(new MetricList.Metric(e.name(), e.type(), e.unit(), e.description(),
        e.temporality(), e.monotonic(), new ArrayList<>(s.keys), new ArrayList<>(s.bounds))));
    return new MetricList(out, stats, ref);
  }

  private static TreeMap<Entry, Seen> scan(BlockReader r, Window w, List<Term> where, LongAdder points,
      LongAdder matched) throws CorruptBlockException {
    TreeMap<Entry, Seen> out = new TreeMap<>();
    boolean[] in = SeriesScan.matching(r, where, w.from(), w.to());
    if (in == null) {
      return out;
    }
    TableView metrics = Tables.get(r, TableFiles.METRICS);
    int n = metrics.rows();
    Seen[] seen = new Seen[n];
    int[] metricOf = new int[in.length];
    Arrays.fill(metricOf, -1);
    Buckets buckets = null;
    for (String file : SeriesScan.POINT_TABLES) {
      TableView t = Tables.get(r, file);
      if (t == null) {
        continue;
      }
      boolean hist = file.equals(TableFiles.HIST_DP);
      if (hist) {
        buckets = Buckets.of(r);
      }
      IntReader id = IntReader.of(t.column(ColumnNames.ID));
      IntReader parent = IntReader.of(t.column(ColumnNames.PARENT_ID));
      int rows = t.rows();
      long hits = 0;
      for (int j = 0; j < rows; j++) {
        int pid = id.getInt(j);
        int m = parent.getInt(j);
        if (pid < 0 || pid >= in.length || !in[pid] || m < 0 || m >= n) {
          continue;
        }
        hits++;
        metricOf[pid] = m;
        if (seen[m] == null) {
          seen[m] = new Seen();
        }
        if (hist) {
          double[] b = buckets.bounds(j);
          List<Double> l = new ArrayList<>(b.length);
          for (double x : b) {
            l.add(x);
          }
          seen[m].bounds.add(l);
        }
      }
      points.add(rows);
      matched.add(hits);
    }
    AttrTable dp = AttrTable.of(Tables.get(r, TableFiles.DP_ATTRS));
    IntReader dpParent = dp.parent();
    for (int a = 0, rows = dp.rows(); a < rows; a++) {
      int pid = dpParent.getInt(a);
      if (pid >= 0 && pid < in.length && metricOf[pid] >= 0) {
        String k = dp.key().string(a);
        if (k != null) {
          seen[metricOf[pid]].keys.add(k);
        }
      }
    }
    VarReader name = VarReader.of(metrics.column(ColumnNames.NAME));
    VarReader unit = VarReader.of(metrics.column(ColumnNames.UNIT));
    VarReader description = VarReader.of(metrics.column(ColumnNames.DESCRIPTION));
    IntReader type = IntReader.of(metrics.column(ColumnNames.TYPE));
    IntReader temporality = IntReader.of(metrics.column(ColumnNames.AGGREGATION_TEMPORALITY));
    BoolReader monotonic = BoolReader.of(metrics.column(ColumnNames.IS_MONOTONIC));
    for (int m = 0; m < n; m++) {
      if (seen[m] == null) {
        continue;
      }
      int t = type.getInt(m);
      boolean hasTemporality = t == MetricsBatch.TYPE_SUM || t == MetricsBatch.TYPE_HISTOGRAM
          || t == MetricsBatch.TYPE_EXPONENTIAL_HISTOGRAM;
      String temp = !hasTemporality ? null : switch ((int) temporality.getOr(m, 0)) {
        case 1 -> "delta";
        case 2 -> "cumulative";
        default -> "unspecified";
      };
      Boolean mono = t != MetricsBatch.TYPE_SUM ? null : !monotonic.isNull(m) && monotonic.get(m);
      Entry e = new Entry(orEmpty(name.string(m)), MetricTypes.name(t), orEmpty(unit.string(m)),
          orEmpty(description.string(m)), temp, mono);
      Seen s = out.get(e);
      if (s == null) {
        out.put(e, seen[m]);
      } else {
        s.absorb(seen[m]);
      }
    }
    return out;
  }

  static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
