package mira.query.frame;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import mira.block.catalog.BlockRef;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.proto.wire.Signal;
import mira.query.doc.MapQuery;
import mira.query.doc.RootField;
import mira.query.doc.Scalar;
import mira.query.doc.Term;
import mira.query.prune.Probe;
import mira.query.prune.Pruning;
import mira.query.result.Refused;
import mira.query.result.ServiceMap;
import mira.query.result.Stats;
import mira.query.scan.Engine;
import mira.query.scan.Sources;
import mira.query.scan.Waves;

/**
 * The service map of a window without terms, from {@link MapPiece}s instead of rendered rows: each
 * block of the window gives its piece (kept in {@link MapPieces} for a sealed block the window
 * holds whole, read from the block's columns otherwise), the pieces' counts and sorted durations
 * are added up, and what no single block settled is looked up by key: a parent in another block
 * or a link target in every piece of the window, then, if still missing, in the blocks outside
 * the window that {@code trace.idx} says may hold those traces (across retention, as
 * {@link ServiceMaps} reads them); a client or producer span's child in the parents other blocks
 * name but do not hold, in the window's blocks and those within {@link #NEAR} of it (a call's
 * child starts within the call, clock skew aside). The answer is the one {@link ServiceMaps}
 * gives over the same spans, never truncated; quantiles are exact (nearest rank over every
 * duration, found by bisecting the value over the sorted arrays).
 */
final class ColumnarMaps {
  /** How far outside the window a client span's child is looked for: an hour each side. */
  static final long NEAR = 3_600_000_000_000L;

  private ColumnarMaps() {}

  static ServiceMap run(Engine engine, MapQuery q, MapPieces cache) throws IOException {
    long started = System.nanoTime();
    long from = q.from();
    long to = q.to();
    Sources sources = engine.sources(Signal.TRACES, from, to);
    List<BlockRef> listed = sources.refs();
    Pruning.Selection selected = engine.pruning().select(listed, sources::isSnapshot,
        new Probe(Signal.TRACES, from, to, null, null, List.of()));
    Reading reading = new Reading(engine, cache);
    List<MapPiece> window = reading.pieces(sources, selected.blocks(), from, to);

    // Join what the blocks left open against every piece of the window.
    Lookups open = new Lookups(window);
    open.resolve(window);
    int total = listed.size();
    int pruned = selected.pruned();
    boolean callers = open.anyCallers();
    if (open.unresolved() > 0 || callers) {
      Sources all = engine.sources(Signal.TRACES, Long.MIN_VALUE, Long.MAX_VALUE);
      Set<Path> inWindow = new HashSet<>();
      for (BlockRef b : selected.blocks()) {
        inWindow.add(b.dir());
      }
      List<BlockRef> outside = new ArrayList<>();
      List<BlockRef> near = new ArrayList<>();
      for (BlockRef b : all.refs()) {
        if (!inWindow.contains(b.dir())) {
          outside.add(b);
          if (b.name().maxTime() >= from - NEAR && b.name().minTime() <= to + NEAR) {
            near.add(b);
          }
        }
      }
      if (callers && !near.isEmpty()) {
        // A client span's child starts within the call, clock skew aside: looked for within the hour around.
        List<MapPiece> around = reading.pieces(all, near, Long.MIN_VALUE, Long.MAX_VALUE);
        open.resolve(around);
      }
      if (open.unresolved() > 0 && !outside.isEmpty()) {
        List<String> traces = open.unresolvedTraces();
        Set<Path> picked = new HashSet<>();
        List<BlockRef> more = new ArrayList<>();
        for (int i = 0; i < traces.size(); i += Term.MAX_IN) {
          List<Scalar> chunk = traces.subList(i, Math.min(traces.size(), i + Term.MAX_IN)).stream()
              .map(Scalar::string).toList();
          Pruning.Selection s = engine.pruning().select(all.refs(), all::isSnapshot, new Probe(Signal.TRACES,
              Long.MIN_VALUE, Long.MAX_VALUE, null, null, List.of(new Term.FieldIn(RootField.TRACE_ID, chunk))));
          total += all.refs().size();
          pruned += s.pruned();
          for (BlockRef b : s.blocks()) {
            if (!inWindow.contains(b.dir()) && picked.add(b.dir())) {
              more.add(b);
            }
          }
        }
        open.resolve(reading.pieces(all, more, Long.MIN_VALUE, Long.MAX_VALUE));
      }
    }

    // Add up.
    Map<String, Acc> nodes = new TreeMap<>();
    Map<String, Set<Long>> entities = new HashMap<>();
    Map<String, Acc> virtual = new TreeMap<>();
    Map<List<String>, Acc> edges = new TreeMap<>(ServiceMaps.EDGE_ORDER);
    long matched = 0;
    for (MapPiece p : window) {
      matched += p.counted;
      for (int s = 0; s < p.services.length; s++) {
        if (p.count[s] == 0) {
          continue;
        }
        String name = p.services[s];
        nodes.computeIfAbsent(name, k -> new Acc()).add(p.count[s], p.errors[s], p.durations[s]);
        if (p.entities[s].length > 0) {
          Set<Long> e = entities.computeIfAbsent(name, k -> new HashSet<>());
          for (long k : p.entities[s]) {
            e.add(k);
          }
        }
      }
      for (int k = 0; k < p.edgeFrom.length; k++) {
        String a = p.services[p.edgeFrom[k]];
        edges.computeIfAbsent(List.of(a, p.services[p.edgeTo[k]], p.edgeMessaging[k] ? "messaging" : "rpc"),
            x -> new Acc()).add(p.edgeCount[k], p.edgeErrors[k], p.edgeDurations[k]);
        nodes.computeIfAbsent(a, x -> new Acc());
      }
    }
    open.addTo(nodes, virtual, edges);

    Stats stats = new Stats(total, pruned, reading.scanned.get(), reading.rows.sum(), matched,
        (System.nanoTime() - started) / 1_000_000);
    List<Refused> refused = new ArrayList<>(reading.refused);
    refused.sort((a, b) -> a.block().compareTo(b.block()));
    return new ServiceMap(ServiceMaps.nodes(nodes, virtual, entities), ServiceMaps.edges(edges), false, stats, refused);
  }

  /** Gets the pieces of blocks: kept ones where they count the window whole, read ones otherwise. */
  private static final class Reading {
    final Engine engine;
    final MapPieces cache;
    final AtomicInteger scanned = new AtomicInteger();
    final LongAdder rows = new LongAdder();
    final List<Refused> refused = Collections.synchronizedList(new ArrayList<>());

    Reading(Engine engine, MapPieces cache) {
      this.engine = engine;
      this.cache = cache;
    }

    List<MapPiece> pieces(Sources sources, List<BlockRef> blocks, long from, long to) throws IOException {
      MapPiece[] out = new MapPiece[blocks.size()];
      Map<Path, Integer> at = new HashMap<>();
      for (int i = 0; i < out.length; i++) {
        at.put(blocks.get(i).dir(), i);
      }
      Waves.run(blocks, b -> false, block -> {
        MapPiece p = piece(sources, block, from, to);
        if (p != null) {
          out[at.get(block.dir())] = p;
        }
      }, engine.fanOut());
      List<MapPiece> list = new ArrayList<>(out.length);
      for (MapPiece p : out) {
        if (p != null) {
          list.add(p);
        }
      }
      return list;
    }

    private MapPiece piece(Sources sources, BlockRef block, long from, long to) {
      Object key = sources.isSnapshot(block) ? null : BlockTallies.key(block.dir());
      MapPiece whole = cache.get(key);
      if (whole != null && whole.wholeIn(from, to)) {
        return whole;
      }
      try {
        // A block the window cuts, read before: counted from its kept rows, the block unopened.
        MapPiece.Rows kept = whole == null ? null : cache.rows(key);
        if (kept != null) {
          return MapPiece.count(kept, from, to, whole, null, block);
        }
      } catch (CorruptBlockException e) {
        throw new IllegalStateException("counting kept rows reads no block", e);
      }
      try (BlockReader r = engine.open(sources, block)) {
        scanned.incrementAndGet();
        if (whole == null) {
          whole = MapPiece.read(r, block, Long.MIN_VALUE, Long.MAX_VALUE);
          rows.add(whole.rows);
          cache.put(key, whole);
          if (whole.wholeIn(from, to)) {
            return whole;
          }
        }
        MapPiece.Rows cut = MapPiece.rows(r, block, whole);
        if (cut == null) {
          return whole;
        }
        rows.add(cut.n);
        cache.putRows(key, cut);
        return MapPiece.count(cut, from, to, whole, r, block);
      } catch (CorruptBlockException e) {
        refused.add(new Refused(engine.name(block), e.getMessage()));
        return null;
      }
    }
  }

  /**
   * The spans the window's pieces left open, and what the lookups found for them: the parent's
   * service and kind for an orphan, a link target's service, whether a caller has a child in
   * another block.
   */
  private static final class Lookups {
    final List<MapPiece> window;
    final String[][] orphanParent;
    final byte[][] orphanParentKind;
    final String[][] linkTarget;
    /** Per window piece, which callers have a child in another block (null: none found). */
    final boolean[][] callerHasChild;
    int unresolved;

    Lookups(List<MapPiece> window) {
      this.window = window;
      int n = window.size();
      orphanParent = new String[n][];
      orphanParentKind = new byte[n][];
      callerHasChild = new boolean[n][];
      linkTarget = new String[n][];
      for (int i = 0; i < n; i++) {
        MapPiece p = window.get(i);
        orphanParent[i] = new String[p.orphans.n];
        orphanParentKind[i] = new byte[p.orphans.n];
        linkTarget[i] = new String[p.links.n];
      }
    }

    boolean anyCallers() {
      for (MapPiece p : window) {
        if (p.callerKeys.length > 0) {
          return true;
        }
      }
      return false;
    }

    /** Looks the orphans and links still unresolved up in {@code in}, and the callers' children. */
    void resolve(List<MapPiece> in) {
      Query spans = new Query();
      for (int i = 0; i < window.size(); i++) {
        MapPiece p = window.get(i);
        for (int k = 0; k < p.orphans.n; k++) {
          if (orphanParent[i][k] == null) {
            spans.add(p.orphans.key[k], i, k, false);
          }
        }
        for (int k = 0; k < p.links.n; k++) {
          if (linkTarget[i][k] == null) {
            spans.add(p.links.key[k], i, k, true);
          }
        }
      }
      spans.sort();
      for (MapPiece p : in) {
        spans.probe(p.spanKeys, (q, at) -> {
          int who = p.spanWho[at];
          String service = p.services[who >>> 3];
          int i = q.piece();
          int k = q.index();
          if (q.link()) {
            linkTarget[i][k] = service;
          } else {
            orphanParent[i][k] = service;
            orphanParentKind[i][k] = (byte) (who & 7);
          }
        });
      }
      unresolved = spans.left();
      children(in);
    }

    /**
     * Marks the callers a piece of {@code in} names as the parent of one of its rows whose parent
     * it does not hold: a child in another block (a caller's own block held none).
     */
    private void children(List<MapPiece> in) {
      int total = 0;
      for (MapPiece p : in) {
        total += p.externalParents.length;
      }
      if (total == 0) {
        return;
      }
      long[] named = new long[total];
      int m = 0;
      for (MapPiece p : in) {
        System.arraycopy(p.externalParents, 0, named, m, p.externalParents.length);
        m += p.externalParents.length;
      }
      MapPiece.Radix.sort(named, null, m);
      for (int i = 0; i < window.size(); i++) {
        long[] keys = window.get(i).callerKeys;
        if (keys.length == 0) {
          continue;
        }
        boolean[] marks = callerHasChild[i];
        if ((long) m * 24 < keys.length) {
          for (long k : named) {
            int at = java.util.Arrays.binarySearch(keys, k);
            if (at >= 0) {
              // Equal keys sit together: mark the run.
              int a = at;
              while (a > 0 && keys[a - 1] == k) {
                a--;
              }
              for (; a < keys.length && keys[a] == k; a++) {
                marks = mark(i, marks, a);
              }
            }
          }
        } else {
          int a = 0;
          int b = 0;
          while (a < keys.length && b < m) {
            if (keys[a] < named[b]) {
              a++;
            } else if (keys[a] > named[b]) {
              b++;
            } else {
              marks = mark(i, marks, a);
              a++;
            }
          }
        }
      }
    }

    private boolean[] mark(int piece, boolean[] marks, int at) {
      if (marks == null) {
        marks = callerHasChild[piece] = new boolean[window.get(piece).callerKeys.length];
      }
      marks[at] = true;
      return marks;
    }

    int unresolved() {
      return unresolved;
    }

    /** The trace ids (lowercase hex) of the orphans and links still unresolved, distinct, sorted. */
    List<String> unresolvedTraces() {
      TreeSet<String> out = new TreeSet<>();
      for (int i = 0; i < window.size(); i++) {
        MapPiece p = window.get(i);
        for (int k = 0; k < p.orphans.n; k++) {
          if (orphanParent[i][k] == null) {
            out.add(hex(p.orphans.hi[k], p.orphans.lo[k]));
          }
        }
        for (int k = 0; k < p.links.n; k++) {
          if (linkTarget[i][k] == null) {
            out.add(hex(p.links.hi[k], p.links.lo[k]));
          }
        }
      }
      return new ArrayList<>(out);
    }

    /** Adds the edges and virtual nodes the lookups settled. */
    void addTo(Map<String, Acc> nodes, Map<String, Acc> virtual, Map<List<String>, Acc> edges) {
      for (int i = 0; i < window.size(); i++) {
        MapPiece p = window.get(i);
        MapPiece.Calls o = p.orphans;
        for (int k = 0; k < o.n; k++) {
          String parent = orphanParent[i][k];
          String service = p.services[o.service[k]];
          if (parent != null && !parent.equals(service)) {
            boolean messaging = o.kind[k] == MapPiece.CONSUMER || orphanParentKind[i][k] == MapPiece.PRODUCER;
            edges.computeIfAbsent(List.of(parent, service, messaging ? "messaging" : "rpc"), x -> new Acc())
                .add(o.duration[k], o.error[k]);
            nodes.computeIfAbsent(parent, x -> new Acc());
          }
        }
        MapPiece.Calls l = p.links;
        for (int k = 0; k < l.n; k++) {
          String target = linkTarget[i][k];
          String service = p.services[l.service[k]];
          if (target != null && !target.equals(service)) {
            edges.computeIfAbsent(List.of(target, service, "link"), x -> new Acc()).add(l.duration[k], l.error[k]);
            nodes.computeIfAbsent(target, x -> new Acc());
          }
        }
        // Calls to virtual nodes: each group whole, less the callers found to have a child elsewhere.
        boolean[] marks = callerHasChild[i];
        int groups = p.virtualService.length;
        long[] lessCount = new long[groups];
        long[] lessErrors = new long[groups];
        List<List<Long>> less = null;
        if (marks != null) {
          less = new ArrayList<>();
          for (int g = 0; g < groups; g++) {
            less.add(new ArrayList<>());
          }
          for (int c = 0; c < marks.length; c++) {
            if (marks[c]) {
              int g = p.callerGroup[c];
              lessCount[g]++;
              lessErrors[g] += p.callerError[c] ? 1 : 0;
              less.get(g).add(p.callerDuration[c]);
            }
          }
        }
        for (int g = 0; g < groups; g++) {
          long count = p.virtualCount[g] - lessCount[g];
          if (count == 0) {
            continue;
          }
          long[] durations = lessCount[g] == 0 ? p.virtualDurations[g] : without(p.virtualDurations[g], less.get(g));
          long errs = p.virtualErrors[g] - lessErrors[g];
          String name = p.virtualName[g];
          virtual.computeIfAbsent(name, x -> new Acc()).add(count, errs, durations);
          edges.computeIfAbsent(List.of(p.services[p.virtualService[g]], name,
              p.virtualMessaging[g] ? "messaging" : "rpc"), x -> new Acc()).add(count, errs, durations);
        }
      }
    }

    /** {@code sorted} less one occurrence of each of {@code out}. */
    private static long[] without(long[] sorted, List<Long> out) {
      long[] o = out.stream().mapToLong(Long::longValue).sorted().toArray();
      long[] r = new long[sorted.length - o.length];
      int j = 0;
      int m = 0;
      for (long v : sorted) {
        if (j < o.length && o[j] == v) {
          j++;
        } else {
          r[m++] = v;
        }
      }
      return r;
    }

    private static String hex(long hi, long lo) {
      HexFormat h = HexFormat.of();
      return h.toHexDigits(Long.reverseBytes(hi)) + h.toHexDigits(Long.reverseBytes(lo));
    }
  }

  /** Keys to look up, sorted, each with the open span it is for; found ones are crossed out. */
  private static final class Query {
    long[] keys = new long[16];
    int[] where = new int[16];
    int n;
    boolean[] done;
    int found;
    /** Per entry (by position in the unsorted order) its piece, index and whether it is a link. */
    int[] piece = new int[16];
    int[] index = new int[16];
    boolean[] link = new boolean[16];

    record Ref(int piece, int index, boolean link) {}

    interface Hit {
      void found(Ref q, int at);
    }

    void add(long key, int p, int k, boolean isLink) {
      if (n == keys.length) {
        int c = n * 2;
        keys = java.util.Arrays.copyOf(keys, c);
        where = java.util.Arrays.copyOf(where, c);
        piece = java.util.Arrays.copyOf(piece, c);
        index = java.util.Arrays.copyOf(index, c);
        link = java.util.Arrays.copyOf(link, c);
      }
      keys[n] = key;
      where[n] = n;
      piece[n] = p;
      index[n] = k;
      link[n] = isLink;
      n++;
    }

    void sort() {
      MapPiece.Radix.sort(keys, where, n);
      done = new boolean[n];
    }

    int left() {
      return n - found;
    }

    /** Finds the entries not yet found in {@code sorted}: by binary search when few, by a merge otherwise. */
    void probe(long[] sorted, Hit hit) {
      if (n == found || sorted.length == 0) {
        return;
      }
      if ((long) (n - found) * 24 < sorted.length) {
        for (int j = 0; j < n; j++) {
          if (!done[j]) {
            int at = java.util.Arrays.binarySearch(sorted, keys[j]);
            if (at >= 0) {
              take(j, at, hit);
            }
          }
        }
        return;
      }
      int a = 0;
      for (int j = 0; j < n && a < sorted.length; j++) {
        while (a < sorted.length && sorted[a] < keys[j]) {
          a++;
        }
        if (a < sorted.length && sorted[a] == keys[j] && !done[j]) {
          take(j, a, hit);
        }
      }
    }

    private void take(int j, int at, Hit hit) {
      done[j] = true;
      found++;
      int w = where[j];
      hit.found(new Ref(piece[w], index[w], link[w]), at);
    }
  }
}
