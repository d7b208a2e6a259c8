package mira.query.series;

import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.proto.wire.Signal;
import mira.query.result.MetricList;
import mira.query.result.Refused;
import mira.query.result.Stats;
import mira.query.doc.Window;
import mira.query.prune.Probe;
import mira.query.prune.Pruning;
import mira.query.scan.Engine;
import mira.query.scan.Sources;
import mira.query.scan.Waves;
import mira.query.table.IntReader;
import mira.query.table.Tables;
import mira.query.table.VarReader;

/**
 * The metrics that have a data point in a window: name, type, unit, description, one entry per
 * distinct combination, sorted. Names are the stored (base) names: a histogram {@code h} is listed
 * as {@code h}, though {@code /api/v1/series} also accepts {@code h.count} and {@code h.sum}.
 */
public final class MetricNames {
  private MetricNames() {}

  record Entry(String name, String type, String unit, String description) implements Comparable<Entry> {
    @Override
    public int compareTo(Entry o) {
      int c = name.compareTo(o.name);
      if (c == 0) {
        c = type.compareTo(o.type);
      }
      if (c == 0) {
        c = unit.compareTo(o.unit);
      }
      return c != 0 ? c : description.compareTo(o.description);
    }
  }

  public static MetricList run(Engine engine, Window w) throws IOException {
    long started = System.nanoTime();
    Sources sources = engine.sources(Signal.METRICS, w.from(), w.to());
    List<BlockRef> listed = sources.refs();
    Probe probe = new Probe(Signal.METRICS, w.from(), w.to(), null, null, List.of());
    Pruning.Selection selected = engine.pruning().select(listed, sources::isSnapshot, probe);
    List<BlockRef> todo = selected.blocks();
    TreeSet<Entry> found = new TreeSet<>();
    AtomicInteger scanned = new AtomicInteger();
    LongAdder points = new LongAdder();
    LongAdder inWindow = new LongAdder();
    List<Refused> refused = Collections.synchronizedList(new ArrayList<>());
    Waves.run(todo, b -> false, block -> {
      try (BlockReader r = engine.open(sources, block)) {
        List<Entry> mine = scan(r, w, points, inWindow);
        synchronized (found) {
          found.addAll(mine);
        }
        scanned.incrementAndGet();
      } catch (CorruptBlockException e) {
        refused.add(new Refused(engine.name(block), e.getMessage()));
      }
    }, engine.fanOut());
    Stats stats = new Stats(listed.size(), selected.pruned(), scanned.get(), points.sum(), inWindow.sum(),
        (System.nanoTime() - started) / 1_000_000);
    List<Refused> ref = new ArrayList<>(refused);
    ref.sort((a, b) -> a.block().compareTo(b.block()));
    List<MetricList.Metric> out = new ArrayList<>(found.size());
    for (Entry e : found) {
      out.add(new MetricList.Metric(e.name(), e.type(), e.unit(), e.description()));
    }
    return new MetricList(out, stats, ref);
  }

  private static List<Entry> scan(BlockReader r, Window w, LongAdder points, LongAdder inWindow)
      throws CorruptBlockException {
    TableView metrics = Tables.get(r, TableFiles.METRICS);
    if (metrics == null) {
      return List.of();
    }
    int n = metrics.rows();
    boolean[] seen = new boolean[n];
    for (String file : SeriesScan.POINT_TABLES) {
      TableView t = Tables.get(r, file);
      if (t == null) {
        continue;
      }
      IntReader parent = IntReader.of(t.column(ColumnNames.PARENT_ID));
      IntReader time = IntReader.of(t.column(ColumnNames.TIME_UNIX_NANO));
      int rows = t.rows();
      long in = 0;
      for (int j = 0; j < rows; j++) {
        long ts = time.get(j);
        if (ts >= w.from() && ts <= w.to()) {
          in++;
          int p = parent.getInt(j);
          if (p >= 0 && p < n) {
            seen[p] = true;
          }
        }
      }
      points.add(rows);
      inWindow.add(in);
    }
    VarReader name = VarReader.of(metrics.column(ColumnNames.NAME));
    VarReader unit = VarReader.of(metrics.column(ColumnNames.UNIT));
    VarReader description = VarReader.of(metrics.column(ColumnNames.DESCRIPTION));
    IntReader type = IntReader.of(metrics.column(ColumnNames.TYPE));
    List<Entry> out = new ArrayList<>();
    for (int m = 0; m < n; m++) {
      if (seen[m]) {
        out.add(new Entry(orEmpty(name.string(m)), MetricTypes.name(type.getInt(m)), orEmpty(unit.string(m)),
            orEmpty(description.string(m))));
      }
    }
    return out;
  }

  static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
