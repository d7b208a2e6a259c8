package mira.query.frame;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import mira.block.catalog.BlockRef;
import mira.block.index.CensusIndex;
import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.proto.wire.Signal;
import mira.proto.wire.WireException;
import mira.query.doc.Op;
import mira.query.doc.Term;
import mira.query.match.ValueMatcher;
import mira.query.prune.Probe;
import mira.query.prune.Pruning;
import mira.query.result.Attribute;
import mira.query.result.Refused;
import mira.query.result.Resource;
import mira.query.result.Stats;
import mira.query.rows.AttrLists;
import mira.query.scan.Engine;
import mira.query.scan.Sources;
import mira.query.scan.Waves;
import mira.query.entity.ResourceKeys;
import mira.query.table.AttrTable;
import mira.query.table.IntReader;
import mira.query.table.Scratch;
import mira.query.table.Tables;

/**
 * One pass over the blocks of all three signals in a window, counting each resource's records:
 * logs, spans (and spans with status ERROR), metric data points, with the first and last time
 * seen. Resources are grouped by entity key; resources without identity by their attribute list.
 * The {@code where} terms select resources by their own attributes ({@code attr} terms, matched
 * as a search matches the resource level) and by entity.
 *
 * <p>What {@code /api/v1/entities} and {@code /api/v1/services} are built from.
 */
public final class Census {
  /** Signals in the order of {@link Tally#records}. */
  public static final List<Signal> SIGNALS = List.of(Signal.LOGS, Signal.TRACES, Signal.METRICS);

  private static final System.Logger LOG = System.getLogger(Census.class.getName());

  private Census() {}

  /** A group of resources (one entity, or one attribute list without identity) and its records. */
  public static final class Tally {
    final long key;
    /** The attributes of the resource seen with the newest record. */
    List<Attribute> attributes;
    final long[] records = new long[3];
    long errors;
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;

    Tally(long key, List<Attribute> attributes) {
      this.key = key;
      this.attributes = attributes;
    }

    public long key() {
      return key;
    }

    public List<Attribute> attributes() {
      return attributes;
    }

    /** Records of signal {@code i} ({@link #SIGNALS} order). */
    public long records(int i) {
      return records[i];
    }

    public long errors() {
      return errors;
    }

    public long first() {
      return first;
    }

    public long last() {
      return last;
    }

    void add(Tally o) {
      if (o.last > last) {
        attributes = o.attributes;
      }
      for (int i = 0; i < 3; i++) {
        records[i] += o.records[i];
      }
      errors += o.errors;
      first = Math.min(first, o.first);
      last = Math.max(last, o.last);
    }
  }

  /**
   * @param groups entity key (non-zero) or attribute list (no identity) to its tally
   */
  public record Result(Map<Object, Tally> groups, Stats stats, List<Refused> refused) {}

  /**
   * Counts the records of every resource in {@code [from, to]} passing {@code where} (attr,
   * attr-in and entity terms, and {@code not} over them).
   */
  public static Result run(Engine engine, long from, long to, List<Term> where) throws IOException {
    long started = System.nanoTime();
    Map<Object, Tally> groups = new HashMap<>();
    List<Refused> refused = Collections.synchronizedList(new ArrayList<>());
    int listedAll = 0;
    int prunedAll = 0;
    AtomicInteger scanned = new AtomicInteger();
    LongAdder rows = new LongAdder();
    LongAdder matched = new LongAdder();
    List<Term> positive = where.stream().filter(t -> !(t instanceof Term.Not)).toList();
    for (int si = 0; si < 3; si++) {
      Signal signal = SIGNALS.get(si);
      int index = si;
      Sources sources = engine.sources(signal, from, to);
      List<BlockRef> listed = sources.refs();
      Probe probe = new Probe(signal, from, to, null, null, positive);
      Pruning.Selection selected = engine.pruning().select(listed, sources::isSnapshot, probe);
      listedAll += listed.size();
      prunedAll += selected.pruned();
      Waves.run(selected.blocks(), b -> false, block -> {
        // A sealed block wholly inside the window, counted without terms, is counted once per
        // process; one the window cuts is counted from its kept record times (BlockTimes).
        boolean sealed = where.isEmpty() && !sources.isSnapshot(block);
        boolean whole = block.name().minTime() >= from && block.name().maxTime() <= to;
        Object blockKey = sealed ? BlockTallies.key(block.dir()) : null;
        Object cacheKey = whole ? blockKey : null;
        Map<Object, Tally> cached = cacheKey == null ? null : BlockTallies.get(cacheKey);
        if (cached != null) {
          merge(groups, cached, matched);
          return;
        }
        if (!whole && blockKey != null) {
          BlockTimes times = BlockTimes.get(blockKey);
          if (times == null) {
            try (BlockReader r = engine.open(sources, block)) {
              times = BlockTimes.read(r, block, signal);
              rows.add(times.records());
              scanned.incrementAndGet();
            } catch (CorruptBlockException e) {
              refused.add(new Refused(engine.name(block), e.getMessage()));
              return;
            }
            BlockTimes.put(blockKey, times);
          }
          merge(groups, times.tally(from, to, index), matched);
          return;
        }
        try (BlockReader r = engine.open(sources, block)) {
          Map<Object, Tally> mine;
          if (cacheKey != null) {
            mine = whole(r, block, signal, index, rows, scanned);
            BlockTallies.put(cacheKey, mine);
          } else {
            mine = scan(r, block, signal, index, from, to, where, rows, new LongAdder());
            scanned.incrementAndGet();
          }
          merge(groups, mine, matched);
        } catch (CorruptBlockException e) {
          refused.add(new Refused(engine.name(block), e.getMessage()));
        }
      }, engine.fanOut());
    }
    List<Refused> ref = new ArrayList<>(refused);
    ref.sort((a, b) -> a.block().compareTo(b.block()));
    Stats stats = new Stats(listedAll, prunedAll, scanned.get(), rows.sum(), matched.sum(),
        (System.nanoTime() - started) / 1_000_000);
    return new Result(groups, stats, ref);
  }

  /** Drops the kept record times of blocks retention or the compactor removed or replaced. */
  public static void sweep() {
    BlockTimes.sweep();
  }

  /** Adds {@code mine} into {@code groups} (copying: {@code mine} may be cached and shared). */
  private static void merge(Map<Object, Tally> groups, Map<Object, Tally> mine, LongAdder matched) {
    long n = 0;
    synchronized (groups) {
      for (Map.Entry<Object, Tally> e : mine.entrySet()) {
        Tally t = e.getValue();
        groups.computeIfAbsent(e.getKey(), k -> new Tally(t.key, t.attributes)).add(t);
        n += t.records[0] + t.records[1] + t.records[2];
      }
    }
    matched.add(n);
  }

  /**
   * The tallies of a sealed block counted whole and without terms: from its {@code census.idx} if
   * that is present and sound (no row of the root table is read), else counted from the rows, and
   * the file then written for the next process (a failure to write it is only logged). Adds to
   * {@code scanned} and {@code rowsScanned} only when the rows were read.
   */
  static Map<Object, Tally> whole(BlockReader r, BlockRef ref, Signal signal, int si, LongAdder rowsScanned,
      AtomicInteger scanned) throws CorruptBlockException {
    TableView res = Tables.get(r, TableFiles.RESOURCES);
    int nRes = res == null ? 0 : res.rows();
    if (nRes == 0) {
      return Map.of();
    }
    Scratch scratch = new Scratch();
    CensusIndex kept = CensusIndex.read(ref.dir(), nRes);
    if (kept == null) {
      long[][] c = count(r, ref, signal, nRes, Long.MIN_VALUE, Long.MAX_VALUE, all(nRes), rowsScanned);
      kept = new CensusIndex(c[0], c[1], c[2], c[3]);
      scanned.incrementAndGet();
      try {
        kept.write(ref.dir(), mira.fs.Fs.REAL);
      } catch (IOException | RuntimeException e) {
        LOG.log(System.Logger.Level.DEBUG, () -> "not writing " + CensusIndex.FILE + " in " + ref.dir() + ": " + e);
      }
    }
    long[] count = new long[nRes];
    long[] errors = new long[nRes];
    long[] first = new long[nRes];
    long[] last = new long[nRes];
    for (int i = 0; i < nRes; i++) {
      count[i] = kept.records(i);
      errors[i] = kept.errors(i);
      first[i] = kept.first(i);
      last[i] = kept.last(i);
    }
    return tallies(r, ref, si, res, new long[][] {count, errors, first, last}, scratch, new LongAdder());
  }

  private static boolean[] all(int n) {
    boolean[] pass = new boolean[n];
    java.util.Arrays.fill(pass, true);
    return pass;
  }

  private static Map<Object, Tally> scan(BlockReader r, BlockRef ref, Signal signal, int si, long from, long to,
      List<Term> where, LongAdder rowsScanned, LongAdder rowsMatched) throws CorruptBlockException {
    TableView res = Tables.get(r, TableFiles.RESOURCES);
    int nRes = res == null ? 0 : res.rows();
    if (nRes == 0) {
      return Map.of();
    }
    Scratch scratch = new Scratch();
    boolean[] pass = select(r, nRes, where, scratch);
    boolean any = false;
    for (boolean p : pass) {
      any |= p;
    }
    if (!any) {
      return Map.of();
    }
    long[][] counted = count(r, ref, signal, nRes, from, to, pass, rowsScanned);
    return tallies(r, ref, si, res, counted, scratch, rowsMatched);
  }

  /**
   * Counts the records of each resource of the block in {@code [from, to]} among those {@code pass}
   * selects: {records, errors, first, last}, each indexed by resource.
   */
  private static long[][] count(BlockReader r, BlockRef ref, Signal signal, int nRes, long from, long to,
      boolean[] pass, LongAdder rowsScanned) throws CorruptBlockException {
    long[] count = new long[nRes];
    long[] errors = new long[nRes];
    long[] first = new long[nRes];
    long[] last = new long[nRes];
    java.util.Arrays.fill(first, Long.MAX_VALUE);
    java.util.Arrays.fill(last, Long.MIN_VALUE);
    switch (signal) {
      case LOGS -> {
        TableView t = Tables.get(r, TableFiles.LOGS);
        if (t != null) {
          IntReader rid = IntReader.of(t.column(ColumnNames.RESOURCE_ID));
          IntReader time = IntReader.of(t.column(ColumnNames.TIME_UNIX_NANO));
          int n = t.rows();
          rowsScanned.add(n);
          for (int i = 0; i < n; i++) {
            tally(rid.getInt(i), time.get(i), from, to, pass, count, first, last);
          }
        }
      }
      case TRACES -> {
        TableView t = Tables.get(r, TableFiles.SPANS);
        if (t != null) {
          IntReader rid = IntReader.of(t.column(ColumnNames.RESOURCE_ID));
          IntReader start = IntReader.of(t.column(ColumnNames.START_TIME_UNIX_NANO));
          IntReader end = IntReader.of(t.column(ColumnNames.END_TIME_UNIX_NANO));
          IntReader status = IntReader.of(t.column(ColumnNames.STATUS_CODE));
          long fallback = ref.name().maxTime();
          int n = t.rows();
          rowsScanned.add(n);
          for (int i = 0; i < n; i++) {
            long s = start.getOr(i, 0);
            if (s == 0) {
              s = end.getOr(i, 0);
            }
            int id = rid.getInt(i);
            if (tally(id, s != 0 ? s : fallback, from, to, pass, count, first, last) && status.getOr(i, 0) == 2) {
              errors[id]++;
            }
          }
        }
      }
      default -> {
        TableView metrics = Tables.get(r, TableFiles.METRICS);
        if (metrics != null) {
          IntReader mres = IntReader.of(metrics.column(ColumnNames.RESOURCE_ID));
          int nm = metrics.rows();
          int[] resOf = new int[nm];
          for (int m = 0; m < nm; m++) {
            resOf[m] = mres.getInt(m);
          }
          // The point tables (as SeriesScan.POINT_TABLES; series renders through render, which uses frame).
          for (String file : new String[] {TableFiles.NUMBER_DP, TableFiles.HIST_DP, TableFiles.EXP_HIST_DP,
              TableFiles.SUMMARY_DP}) {
            TableView t = Tables.get(r, file);
            if (t == null) {
              continue;
            }
            IntReader parent = IntReader.of(t.column(ColumnNames.PARENT_ID));
            IntReader time = IntReader.of(t.column(ColumnNames.TIME_UNIX_NANO));
            int n = t.rows();
            rowsScanned.add(n);
            for (int i = 0; i < n; i++) {
              int p = parent.getInt(i);
              if (p >= 0 && p < nm) {
                tally(resOf[p], time.get(i), from, to, pass, count, first, last);
              }
            }
          }
        }
      }
    }
    return new long[][] {count, errors, first, last};
  }

  /** The tallies of the block's resources with records, grouped by entity key or attribute list. */
  private static Map<Object, Tally> tallies(BlockReader r, BlockRef ref, int si, TableView res, long[][] counted,
      Scratch scratch, LongAdder rowsMatched) throws CorruptBlockException {
    int nRes = res.rows();
    long[] count = counted[0];
    long[] errors = counted[1];
    long[] first = counted[2];
    long[] last = counted[3];
    IntReader key = IntReader.of(res.column(ColumnNames.KEY));
    boolean[] used = new boolean[nRes];
    for (int i = 0; i < nRes; i++) {
      used[i] = count[i] > 0;
    }
    AttrLists attrs = new AttrLists(AttrTable.of(Tables.get(r, TableFiles.RESOURCE_ATTRS)), nRes, used);
    Map<Object, Tally> out = new HashMap<>();
    long in = 0;
    for (int i = 0; i < nRes; i++) {
      if (count[i] == 0) {
        continue;
      }
      in += count[i];
      List<Attribute> a;
      try {
        a = attrs.get(i, scratch);
      } catch (WireException e) {
        throw new CorruptBlockException(ref.dir(), TableFiles.RESOURCE_ATTRS, e.getMessage());
      }
      long k = key.getOr(i, Resource.NO_ENTITY);
      Tally t = new Tally(k, a);
      t.records[si] = count[i];
      t.errors = errors[i];
      t.first = first[i];
      t.last = last[i];
      Object group = k != Resource.NO_ENTITY ? (Object) k : a;
      Tally have = out.get(group);
      if (have == null) {
        out.put(group, t);
      } else {
        have.add(t);
      }
    }
    rowsMatched.add(in);
    return out;
  }

  /** Counts one record of resource {@code id} at {@code time}; true if it was in the window and selected. */
  private static boolean tally(int id, long time, long from, long to, boolean[] pass, long[] count, long[] first,
      long[] last) {
    if (time < from || time > to || id < 0 || id >= pass.length || !pass[id]) {
      return false;
    }
    count[id]++;
    if (time < first[id]) {
      first[id] = time;
    }
    if (time > last[id]) {
      last[id] = time;
    }
    return true;
  }

  /** Which resources pass every term. */
  private static boolean[] select(BlockReader r, int nRes, List<Term> where, Scratch scratch)
      throws CorruptBlockException {
    boolean[] pass = new boolean[nRes];
    java.util.Arrays.fill(pass, true);
    AttrTable attrs = where.isEmpty() ? null : AttrTable.of(Tables.get(r, TableFiles.RESOURCE_ATTRS));
    for (Term t : where) {
      boolean negated = t instanceof Term.Not;
      Term inner = t instanceof Term.Not n ? n.term() : t;
      boolean[] hit = new boolean[nRes];
      boolean absent = false;
      switch (inner) {
        case Term.Entity e -> {
          boolean[] m = ResourceKeys.marks(r, e.keys());
          if (m != null) {
            System.arraycopy(m, 0, hit, 0, Math.min(m.length, nRes));
          }
        }
        case Term.Attr a -> {
          absent = a.op() == Op.EXISTS && !a.value().bool();
          attrs.mark(a.key().getBytes(StandardCharsets.UTF_8), new ValueMatcher(a.op(), a.value()), hit, scratch);
        }
        case Term.AttrIn a ->
            attrs.mark(a.key().getBytes(StandardCharsets.UTF_8), ValueMatcher.anyOf(a.values()), hit, scratch);
        default -> throw new IllegalArgumentException("resources are selected by attr and entity terms: " + t);
      }
      for (int i = 0; i < nRes; i++) {
        pass[i] &= (hit[i] != absent) != negated;
      }
    }
    return pass;
  }
}
