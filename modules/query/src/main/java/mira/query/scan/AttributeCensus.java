package mira.query.scan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import mira.block.catalog.BlockRef;
import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.table.Attributes;
import mira.proto.wire.Signal;
import mira.proto.wire.WireException;
import mira.query.doc.FacetsQuery;
import mira.query.doc.Term;
import mira.query.prune.Probe;
import mira.query.prune.Pruning;
import mira.query.result.AttributeList;
import mira.query.result.FacetList;
import mira.query.result.Refused;
import mira.query.result.Stats;
import mira.query.result.Value;
import mira.query.rows.StoredValues;
import mira.query.table.AttrTable;
import mira.query.table.DictReader;
import mira.query.table.IntReader;
import mira.query.table.Scratch;
import mira.query.table.Tables;

/**
 * The attribute keys of the records a search selects, and the values of chosen keys, counted
 * exactly: what {@code GET /api/v1/attributes} and {@code POST /api/v1/facets} answer, and what
 * filter autocompletion and an agent's "which values does this key take" are built on.
 *
 * <p>Per block, the rows are selected as a search selects them ({@link RowFilter}: window, then
 * terms); then each level's attribute table is walked once. A record-level attribute row counts 1
 * when its log or span was selected; a resource or scope attribute row counts as many as the
 * selected rows of that resource or scope, so a resource key is counted per record, like a record
 * key, and the two compare. Span events and links are not a level here: their keys describe the
 * event, not the span.
 *
 * <p>Every block is read whole (there is no page to fill), and nothing is cut before the end: a
 * facet's values are all counted, then the top ones listed.
 */
public final class AttributeCensus {
  private AttributeCensus() {}

  /** The keys of every record of {@code signal} in {@code [from, to]}. */
  public static AttributeList keys(Engine engine, Signal signal, long from, long to) throws IOException {
    Pass p = run(engine, signal, from, to, List.of(), null);
    List<AttributeList.Key> keys = new ArrayList<>();
    for (Map.Entry<LevelKey, Tally> e : p.tallies.entrySet()) {
      keys.add(new AttributeList.Key(AttributeList.LEVELS.get(e.getKey().level), e.getKey().key,
          types(e.getValue().types), e.getValue().count));
    }
    keys.sort(Comparator.comparingInt((AttributeList.Key k) -> AttributeList.LEVELS.indexOf(k.level()))
        .thenComparing(k -> -k.count()).thenComparing(AttributeList.Key::key));
    return new AttributeList(signal.dir(), p.records, keys, p.stats, p.refused);
  }

  /** The values of {@code q.keys()} among the records {@code q} selects. */
  public static FacetList facets(Engine engine, FacetsQuery q) throws IOException {
    Pass p = run(engine, q.signal(), q.from(), q.to(), q.where(), q.keys());
    List<FacetList.Facet> facets = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (String key : q.keys()) {
      boolean seen = false;
      for (int level = 0; level < AttributeList.LEVELS.size(); level++) {
        Tally t = p.tallies.get(new LevelKey(level, key));
        if (t == null) {
          continue;
        }
        seen = true;
        List<Map.Entry<Value, long[]>> all = new ArrayList<>(t.values.entrySet());
        all.sort(Comparator.comparingLong((Map.Entry<Value, long[]> e) -> -e.getValue()[0])
            .thenComparing(e -> sortText(e.getKey())));
        List<FacetList.ValueCount> top = new ArrayList<>();
        long listed = 0;
        for (int i = 0; i < Math.min(q.limit(), all.size()); i++) {
          top.add(new FacetList.ValueCount(all.get(i).getKey(), all.get(i).getValue()[0]));
          listed += all.get(i).getValue()[0];
        }
        facets.add(new FacetList.Facet(key, AttributeList.LEVELS.get(level), t.count, all.size(), top,
            t.count - listed));
      }
      if (!seen) {
        missing.add(key);
      }
    }
    return new FacetList(q.signal().dir(), p.records, facets, missing, p.stats, p.refused);
  }

  /** A value's text for ordering ties: strings as themselves, other types by their record form. */
  private static String sortText(Value v) {
    return v instanceof Value.Str s ? s.value() : v.toString();
  }

  private static List<String> types(int mask) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < AttributeList.TYPES.size(); i++) {
      if ((mask & (1 << i)) != 0) {
        out.add(AttributeList.TYPES.get(i));
      }
    }
    return out;
  }

  /** A stored type code's place in {@link AttributeList#TYPES}. */
  private static int typeBit(int stored) {
    return switch (stored) {
      case Attributes.TYPE_STR -> 0;
      case Attributes.TYPE_INT -> 1;
      case Attributes.TYPE_DOUBLE -> 2;
      case Attributes.TYPE_BOOL -> 3;
      case Attributes.TYPE_BYTES -> 4;
      case Attributes.TYPE_MAP -> 5;
      case Attributes.TYPE_SLICE -> 6;
      default -> 7;
    };
  }

  private record LevelKey(int level, String key) {}

  /** One (level, key): records carrying it, the types seen, and (facets) each value's records. */
  private static final class Tally {
    long count;
    int types;
    final Map<Value, long[]> values = new HashMap<>();

    void add(Tally o) {
      count += o.count;
      types |= o.types;
      o.values.forEach((v, n) -> values.computeIfAbsent(v, k -> new long[1])[0] += n[0]);
    }
  }

  private record Pass(Map<LevelKey, Tally> tallies, long records, Stats stats, List<Refused> refused) {}

  /** One pass over the blocks; {@code wanted} null counts keys, otherwise the values of those keys. */
  private static Pass run(Engine engine, Signal signal, long from, long to, List<Term> where, List<String> wanted)
      throws IOException {
    long started = System.nanoTime();
    Sources sources = engine.sources(signal, from, to);
    List<BlockRef> listed = sources.refs();
    Probe probe = new Probe(signal, from, to, null, null, where);
    Pruning.Selection selected = engine.pruning().select(listed, sources::isSnapshot, probe);
    List<Term> ordered = Search.order(where);
    Map<LevelKey, Tally> all = new LinkedHashMap<>();
    List<Refused> refused = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger scanned = new AtomicInteger();
    LongAdder rowsScanned = new LongAdder();
    LongAdder rowsMatched = new LongAdder();
    Waves.run(selected.blocks(), b -> false, block -> {
      try (BlockReader r = engine.open(sources, block)) {
        Map<LevelKey, Tally> mine = new HashMap<>();
        long[] counted = scan(r, signal, from, to, ordered, wanted, mine);
        // Nothing of a block is kept until the whole block has been read.
        synchronized (all) {
          mine.forEach((k, t) -> all.computeIfAbsent(k, x -> new Tally()).add(t));
        }
        rowsScanned.add(counted[0]);
        rowsMatched.add(counted[1]);
        scanned.incrementAndGet();
      } catch (CorruptBlockException e) {
        refused.add(new Refused(engine.name(block), e.getMessage()));
      }
    }, engine.fanOut());
    List<Refused> ref = new ArrayList<>(refused);
    ref.sort((a, b) -> a.block().compareTo(b.block()));
    Stats stats = new Stats(listed.size(), selected.pruned(), scanned.get(), rowsScanned.sum(), rowsMatched.sum(),
        (System.nanoTime() - started) / 1_000_000);
    return new Pass(all, rowsMatched.sum(), stats, ref);
  }

  /** Tallies one block into {@code out}; returns {rows scanned, rows selected}. */
  private static long[] scan(BlockReader r, Signal signal, long from, long to, List<Term> terms, List<String> wanted,
      Map<LevelKey, Tally> out) throws CorruptBlockException {
    RowFilter f = RowFilter.open(r, signal);
    if (f == null) {
      return new long[2];
    }
    int[] cand = new int[f.rows()];
    int m = f.window(from, to, null, cand);
    for (Term t : terms) {
      if (m == 0) {
        break;
      }
      m = f.apply(t, cand, m);
    }
    if (m == 0) {
      return new long[] {f.rows(), 0};
    }
    long[] rowWeight = new long[f.rows()];
    long[] resWeight = new long[Tables.rows(r, TableFiles.RESOURCES)];
    long[] scopeWeight = new long[Tables.rows(r, TableFiles.SCOPES)];
    IntReader resId = IntReader.of(f.root().column(ColumnNames.RESOURCE_ID));
    IntReader scopeId = IntReader.of(f.root().column(ColumnNames.SCOPE_ID));
    for (int k = 0; k < m; k++) {
      int i = cand[k];
      rowWeight[i] = 1;
      int res = resId.getInt(i);
      if (res >= 0 && res < resWeight.length) {
        resWeight[res]++;
      }
      int sc = scopeId.getInt(i);
      if (sc >= 0 && sc < scopeWeight.length) {
        scopeWeight[sc]++;
      }
    }
    String recordAttrs = signal == Signal.LOGS ? TableFiles.LOG_ATTRS : TableFiles.SPAN_ATTRS;
    Scratch s = new Scratch();
    try {
      level(r, TableFiles.RESOURCE_ATTRS, 0, resWeight, wanted, out, s);
      level(r, TableFiles.SCOPE_ATTRS, 1, scopeWeight, wanted, out, s);
      level(r, recordAttrs, 2, rowWeight, wanted, out, s);
    } catch (WireException e) {
      throw new CorruptBlockException(r.ref().dir(), recordAttrs, "cannot read an attribute: " + e.getMessage());
    }
    return new long[] {f.rows(), m};
  }

  /** Walks one attribute table, adding each row's parent weight to its key (and value). */
  private static void level(BlockReader r, String file, int level, long[] weight, List<String> wanted,
      Map<LevelKey, Tally> out, Scratch s) throws CorruptBlockException, WireException {
    AttrTable t = AttrTable.of(Tables.get(r, file));
    if (t.rows() == 0) {
      return;
    }
    DictReader key = t.key();
    // Keys by dictionary entry: each decoded once; entries not wanted stay null.
    Tally[] byEntry = new Tally[key.size()];
    boolean[] decided = new boolean[key.size()];
    Map<String, Boolean> wantedSet = null;
    if (wanted != null) {
      wantedSet = new HashMap<>();
      for (String w : wanted) {
        wantedSet.put(w, Boolean.TRUE);
      }
    }
    IntReader parent = t.parent();
    for (int j = 0; j < t.rows(); j++) {
      int p = parent.getInt(j);
      if (p < 0 || p >= weight.length || weight[p] == 0 || key.isNull(j)) {
        continue;
      }
      int d = key.index(j);
      if (d < 0 || d >= byEntry.length) {
        throw new WireException("attribute key index " + d + " outside the dictionary");
      }
      if (!decided[d]) {
        decided[d] = true;
        String name = key.values().string(d);
        if (name != null && (wantedSet == null || wantedSet.containsKey(name))) {
          byEntry[d] = out.computeIfAbsent(new LevelKey(level, name), k -> new Tally());
        }
      }
      Tally tally = byEntry[d];
      if (tally == null) {
        continue;
      }
      tally.count += weight[p];
      tally.types |= 1 << typeBit(t.type(j));
      if (wanted != null) {
        tally.values.computeIfAbsent(StoredValues.attr(t, j, s), v -> new long[1])[0] += weight[p];
      }
    }
  }
}
