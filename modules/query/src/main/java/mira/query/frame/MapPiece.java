package mira.query.frame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mira.block.catalog.BlockRef;
import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.proto.wire.WireException;
import mira.query.entity.Identity;
import mira.query.result.Attribute;
import mira.query.result.Resource;
import mira.query.rows.AttrLists;
import mira.query.table.AttrTable;
import mira.query.table.Children;
import mira.query.table.IdReader;
import mira.query.table.IntReader;
import mira.query.table.Scratch;
import mira.query.table.Tables;

/**
 * What one block of spans adds to a service map, read from eight columns (trace, span and parent
 * ids, kind, status, duration, start and end time, resource) and nothing else: per service the
 * spans counted, errors, their durations sorted and the entities; the edges whose two ends both
 * lie in the block; and what the block cannot settle alone — spans whose parent is elsewhere,
 * client and producer spans with no child here, links. Those are joined across blocks by
 * {@link ColumnarMaps} through two sorted key arrays every piece keeps: every row's (with service
 * and kind), and the parents named by rows whose parent is not in the block — a client span has a
 * child in another block exactly when that block names it there.
 *
 * <p>A key is a 64-bit mix of (trace id, span id): the join compares keys, not ids, so two
 * different spans of one window would have to mix to the same 64 bits to be mistaken for each
 * other (about n²/2⁶⁵ for n spans: 10⁻⁶ for five million).
 *
 * <p>Counted rows are those whose time (start, else end, else the block's newest time: as a
 * search windows spans) lies in {@code [from, to]}; a piece of a whole sealed block counts every
 * row and is kept by {@link MapPieces}. Immutable once built.
 */
final class MapPiece {
  static final int CLIENT = 3;
  static final int PRODUCER = 4;
  static final int CONSUMER = 5;
  private static final int ERROR = 2;
  private static final MapPiece EMPTY = new MapPiece();

  /** The block's services (service.name of the resources; {@link ServiceMaps#UNKNOWN} without). */
  String[] services = new String[0];
  long[] count = new long[0];
  long[] errors = new long[0];
  /** Per service, the durations of its counted spans, sorted. */
  long[][] durations = new long[0][];
  /** Per service, its entity keys (sorted, distinct, no {@link Resource#NO_ENTITY}). */
  long[][] entities = new long[0][];

  /** Edges settled inside the block: from and to service, messaging or not, counts, durations sorted. */
  int[] edgeFrom = new int[0];
  int[] edgeTo = new int[0];
  boolean[] edgeMessaging = new boolean[0];
  long[] edgeCount = new long[0];
  long[] edgeErrors = new long[0];
  long[][] edgeDurations = new long[0][];

  /** Counted spans whose parent is not in the block: key = (trace, parent). */
  Calls orphans = new Calls();
  /** Links of counted spans: key = (linked trace, linked span). */
  Calls links = new Calls();

  /**
   * Counted client and producer spans no span of the block names as parent and whose attributes
   * name something other than their own service: the calls to virtual nodes, if no other block
   * holds a child either. Grouped by (service, virtual name, producer or not) with counts, errors
   * and sorted durations as if none had a child elsewhere; and one by one, sorted by key
   * (trace, span), with their group, so the few that do have a child elsewhere can be taken out.
   */
  int[] virtualService = new int[0];
  String[] virtualName = new String[0];
  boolean[] virtualMessaging = new boolean[0];
  long[] virtualCount = new long[0];
  long[] virtualErrors = new long[0];
  long[][] virtualDurations = new long[0][];
  long[] callerKeys = new long[0];
  int[] callerGroup = new int[0];
  long[] callerDuration = new long[0];
  boolean[] callerError = new boolean[0];

  /** Every row's (trace, span) key, sorted, and its service and kind as {@code service << 3 | kind}. */
  long[] spanKeys = new long[0];
  int[] spanWho = new int[0];
  /** Per resource of the block, its service (index into {@link #services}) and entity key. */
  int[] resService = new int[0];
  long[] resEntity = new long[0];

  /** The (trace, parent) keys of every row whose parent is not in the block, sorted, distinct. */
  long[] externalParents = new long[0];

  /** The least and greatest row time, and how many rows the block has and were counted. */
  long minTime = Long.MAX_VALUE;
  long maxTime = Long.MIN_VALUE;
  int rows;
  long counted;

  /** Spans the block could not settle alone, column by column. */
  static final class Calls {
    int n;
    long[] hi = new long[4];
    long[] lo = new long[4];
    long[] key = new long[4];
    int[] service = new int[4];
    byte[] kind = new byte[4];
    boolean[] error = new boolean[4];
    long[] duration = new long[4];

    void add(long h, long l, long k, int s, int kd, boolean e, long d) {
      if (n == key.length) {
        int c = n * 2;
        hi = Arrays.copyOf(hi, c);
        lo = Arrays.copyOf(lo, c);
        key = Arrays.copyOf(key, c);
        service = Arrays.copyOf(service, c);
        kind = Arrays.copyOf(kind, c);
        error = Arrays.copyOf(error, c);
        duration = Arrays.copyOf(duration, c);
      }
      hi[n] = h;
      lo[n] = l;
      key[n] = k;
      service[n] = s;
      kind[n] = (byte) kd;
      error[n] = e;
      duration[n] = d;
      n++;
    }

    long bytes() {
      return 64L + key.length * 42L;
    }
  }

  /** The join key of a (trace, span) pair, the trace as two words. */
  static long key(long hi, long lo, long span) {
    long h = hi * 0x9E3779B97F4A7C15L + lo;
    h = Long.rotateLeft(h * 0xC2B2AE3D27D4EB4FL, 31) ^ span;
    h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
    h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
    return h ^ (h >>> 31);
  }

  private long bytes = -1;

  /** An estimate of the heap the piece holds, for {@link MapPieces}' budget. */
  long bytes() {
    if (bytes < 0) {
      bytes = estimate();
    }
    return bytes;
  }

  private long estimate() {
    long b = 256 + resService.length * 12L + services.length * 96L + edgeFrom.length * 64L + spanKeys.length * 12L + externalParents.length * 8L
        + callerKeys.length * 21L + virtualService.length * 96L;
    for (long[] d : durations) {
      b += 16 + d.length * 8L;
    }
    for (long[] e : entities) {
      b += 16 + e.length * 8L;
    }
    for (long[] d : edgeDurations) {
      b += 16 + d.length * 8L;
    }
    for (long[] d : virtualDurations) {
      b += 16 + d.length * 8L;
    }
    return b + orphans.bytes() + links.bytes();
  }

  /** Whether the piece counted every row of a window {@code [from, to]} holds whole. */
  boolean wholeIn(long from, long to) {
    return counted == rows && (rows == 0 || (minTime >= from && maxTime <= to));
  }

  /** The piece of block {@code ref} open in {@code r}, counting the rows whose time lies in {@code [from, to]}. */
  static MapPiece read(BlockReader r, BlockRef ref, long from, long to) throws CorruptBlockException {
    return read(r, ref, from, to, null);
  }

  /**
   * As {@link #read(BlockReader, BlockRef, long, long)}; {@code whole}, if not null, is the
   * block's piece over every row, whose key arrays are taken instead of sorted again.
   */
  static MapPiece read(BlockReader r, BlockRef ref, long from, long to, MapPiece whole) throws CorruptBlockException {
    Rows rows = rows(r, ref, whole);
    return rows == null ? EMPTY : count(rows, from, to, whole, r, ref);
  }

  /** A block's rows as a map counts them, read once from its columns: what {@link #count} works from. */
  static final class Rows {
    int n;
    long[] hi;
    long[] lo;
    long[] self;
    long[] up;
    boolean[] hasParent;
    int[] service;
    int[] res;
    byte[] kind;
    boolean[] error;
    long[] duration;
    long[] time;
    /** The rows in ascending order of duration: durations are gathered sorted, not sorted per piece. */
    int[] byDuration;
    long minTime = Long.MAX_VALUE;
    long maxTime = Long.MIN_VALUE;
    List<String> services;
    int[] serviceOfRes;
    long[] entityOfRes;
    /** Read without a whole piece only: row keys (sorted, with who), parent keys (sorted, distinct), external parents. */
    long[] spanKeys;
    int[] spanWho;
    long[] parentKeys;
    long[] externalParents;
    /** Links: the row, the linked trace (two words) and the key of the linked span. */
    int links;
    int[] linkRow = new int[0];
    long[] linkHi = new long[0];
    long[] linkLo = new long[0];
    long[] linkKey = new long[0];

    long bytes() {
      return 256 + n * 67L + links * 28L + serviceOfRes.length * 12L + services.size() * 96L;
    }
  }

  /** Reads the rows of the block open in {@code r}; null if it has none. */
  static Rows rows(BlockReader r, BlockRef ref, MapPiece whole) throws CorruptBlockException {
    TableView t = Tables.get(r, TableFiles.SPANS);
    if (t == null || t.rows() == 0) {
      return null;
    }
    int n = t.rows();
    Rows rows = new Rows();
    rows.n = n;
    IdReader traceId = IdReader.of(t.column(ColumnNames.TRACE_ID), 16);
    IdReader spanId = IdReader.of(t.column(ColumnNames.SPAN_ID), 8);
    IdReader parentId = IdReader.of(t.column(ColumnNames.PARENT_SPAN_ID), 8);
    IntReader kindCol = IntReader.of(t.column(ColumnNames.KIND));
    IntReader status = IntReader.of(t.column(ColumnNames.STATUS_CODE));
    IntReader durationCol = IntReader.of(t.column(ColumnNames.DURATION_NANO));
    IntReader start = IntReader.of(t.column(ColumnNames.START_TIME_UNIX_NANO));
    IntReader end = IntReader.of(t.column(ColumnNames.END_TIME_UNIX_NANO));
    IntReader rid = IntReader.of(t.column(ColumnNames.RESOURCE_ID));

    // Resources: service index and entity key.
    TableView res = Tables.get(r, TableFiles.RESOURCES);
    int nRes = res == null ? 0 : res.rows();
    IntReader resKey = IntReader.of(res == null ? null : res.column(ColumnNames.KEY));
    Scratch scratch = new Scratch();
    Map<String, Integer> serviceIds = new HashMap<>();
    List<String> services = new ArrayList<>();
    int[] serviceOfRes = new int[nRes];
    long[] entityOfRes = new long[nRes];
    if (whole != null && whole.resService.length == nRes) {
      // The whole piece read these already: same block, same resources.
      services.addAll(List.of(whole.services));
      for (int i = 0; i < services.size(); i++) {
        serviceIds.put(services.get(i), i);
      }
      serviceOfRes = whole.resService;
      entityOfRes = whole.resEntity;
      nRes = serviceOfRes.length;
    }
    boolean[] allRes = new boolean[nRes];
    Arrays.fill(allRes, whole == null);
    AttrLists resAttrs = whole != null ? null
        : new AttrLists(AttrTable.of(Tables.get(r, TableFiles.RESOURCE_ATTRS)), nRes, allRes);
    try {
      for (int i = 0; resAttrs != null && i < nRes; i++) {
        String name = Identity.text(resAttrs.get(i, scratch), "service.name");
        if (name == null) {
          name = ServiceMaps.UNKNOWN;
        }
        Integer id = serviceIds.get(name);
        if (id == null) {
          id = services.size();
          serviceIds.put(name, id);
          services.add(name);
        }
        serviceOfRes[i] = id;
        entityOfRes[i] = resKey.getOr(i, Resource.NO_ENTITY);
      }
    } catch (WireException e) {
      throw new CorruptBlockException(ref.dir(), TableFiles.RESOURCE_ATTRS, e.getMessage());
    }
    int unknown = -1;
    rows.serviceOfRes = serviceOfRes;
    rows.entityOfRes = entityOfRes;

    long[] hi = new long[n];
    long[] lo = new long[n];
    long[] self = new long[n];
    long[] up = new long[n];
    boolean[] hasParent = new boolean[n];
    int[] service = new int[n];
    int[] resOf = new int[n];
    byte[] kind = new byte[n];
    boolean[] error = new boolean[n];
    long[] duration = new long[n];
    long[] times = new long[n];
    long fallback = ref.name().maxTime();
    long[] spanKeys = whole == null ? new long[n] : null;
    int[] spanWho = whole == null ? new int[n] : null;
    long[] parentKeys = new long[n];
    int parents = 0;
    for (int i = 0; i < n; i++) {
      boolean noTrace = traceId.isNull(i);
      hi[i] = noTrace ? 0 : traceId.word(i, 0);
      lo[i] = noTrace ? 0 : traceId.word(i, 1);
      self[i] = key(hi[i], lo[i], spanId.isNull(i) ? 0 : spanId.word(i, 0));
      if (!parentId.isNull(i)) {
        hasParent[i] = true;
        up[i] = key(hi[i], lo[i], parentId.word(i, 0));
        if (whole == null) {
          parentKeys[parents++] = up[i];
        }
      }
      int rs = rid.getOr(i, -1) < 0 ? -1 : rid.getInt(i);
      resOf[i] = rs;
      error[i] = status.getOr(i, 0) == ERROR;
      duration[i] = durationCol.getOr(i, 0);
      int s;
      if (rs >= 0 && rs < nRes) {
        s = serviceOfRes[rs];
      } else {
        if (unknown < 0) {
          Integer u = serviceIds.get(ServiceMaps.UNKNOWN);
          if (u == null) {
            u = services.size();
            serviceIds.put(ServiceMaps.UNKNOWN, u);
            services.add(ServiceMaps.UNKNOWN);
          }
          unknown = u;
        }
        s = unknown;
      }
      service[i] = s;
      kind[i] = (byte) (kindCol.getOr(i, 0) & 7);
      if (whole == null) {
        spanKeys[i] = self[i];
        spanWho[i] = s << 3 | kind[i];
      }
      long time = start.getOr(i, 0);
      if (time == 0) {
        time = end.getOr(i, 0);
      }
      if (time == 0) {
        time = fallback;
      }
      rows.minTime = Math.min(rows.minTime, time);
      rows.maxTime = Math.max(rows.maxTime, time);
      times[i] = time;
    }
    parentKeys = Arrays.copyOf(parentKeys, parents);
    Radix.sort(parentKeys, null, parents);
    parentKeys = distinct(parentKeys);
    if (whole == null) {
      Radix.sort(spanKeys, spanWho, n);
      long[] ext = new long[parentKeys.length];
      int m = 0;
      for (long k : parentKeys) {
        if (Arrays.binarySearch(spanKeys, k) < 0) {
          ext[m++] = k;
        }
      }
      rows.externalParents = Arrays.copyOf(ext, m);
      rows.spanKeys = spanKeys;
      rows.spanWho = spanWho;
      rows.parentKeys = parentKeys;
    }
    rows.hi = hi;
    rows.lo = lo;
    rows.self = self;
    rows.up = up;
    rows.hasParent = hasParent;
    rows.service = service;
    rows.res = resOf;
    rows.kind = kind;
    rows.error = error;
    rows.duration = duration;
    rows.time = times;
    rows.services = services;
    long[] sortedDurations = Arrays.copyOf(duration, n);
    int[] byDuration = new int[n];
    for (int i = 0; i < n; i++) {
      byDuration[i] = i;
    }
    Radix.sort(sortedDurations, byDuration, n);
    rows.byDuration = byDuration;

    // Links.
    TableView lt = Tables.get(r, TableFiles.SPAN_LINKS);
    if (lt != null && lt.rows() > 0) {
      Children ch = Children.of(IntReader.of(lt.column(ColumnNames.PARENT_ID)), lt.rows(), n, null);
      IdReader lnTrace = IdReader.of(lt.column(ColumnNames.TRACE_ID), 16);
      IdReader lnSpan = IdReader.of(lt.column(ColumnNames.SPAN_ID), 8);
      int m = 0;
      int cap = lt.rows();
      rows.linkRow = new int[cap];
      rows.linkHi = new long[cap];
      rows.linkLo = new long[cap];
      rows.linkKey = new long[cap];
      for (int i = 0; i < n; i++) {
        for (int k = 0, c = ch.count(i); k < c; k++) {
          int l = ch.row(i, k);
          if (lnTrace.isNull(l) || lnSpan.isNull(l) || m == cap) {
            continue;
          }
          long h = lnTrace.word(l, 0);
          long w = lnTrace.word(l, 1);
          rows.linkRow[m] = i;
          rows.linkHi[m] = h;
          rows.linkLo[m] = w;
          rows.linkKey[m] = key(h, w, lnSpan.word(l, 0));
          m++;
        }
      }
      rows.links = m;
    }
    return rows;
  }

  /**
   * The piece counting the rows of {@code rows} whose time lies in {@code [from, to]}. Without a
   * whole piece, {@code r} is the block (open) whose span attributes name the virtual nodes; with
   * one, its key arrays, callers and names are taken and {@code r} is not used (may be null).
   */
  static MapPiece count(Rows rows, long from, long to, MapPiece whole, BlockReader r, BlockRef ref)
      throws CorruptBlockException {
    int n = rows.n;
    MapPiece p = new MapPiece();
    p.rows = n;
    p.minTime = rows.minTime;
    p.maxTime = rows.maxTime;
    p.resService = rows.serviceOfRes;
    p.resEntity = rows.entityOfRes;
    long[] spanKeys = whole == null ? rows.spanKeys : whole.spanKeys;
    int[] spanWho = whole == null ? rows.spanWho : whole.spanWho;
    long[] parentKeys = rows.parentKeys;
    p.externalParents = whole == null ? rows.externalParents : whole.externalParents;
    p.spanKeys = spanKeys;
    p.spanWho = spanWho;
    long[] hi = rows.hi;
    long[] lo = rows.lo;
    long[] self = rows.self;
    long[] up = rows.up;
    boolean[] hasParent = rows.hasParent;
    int[] service = rows.service;
    byte[] kind = rows.kind;
    List<String> services = rows.services;
    int[] serviceOfRes = rows.serviceOfRes;
    long[] entityOfRes = rows.entityOfRes;
    int nRes = serviceOfRes.length;
    Scratch scratch = new Scratch();
    boolean[] counted = new boolean[n];
    for (int i = 0; i < n; i++) {
      counted[i] = rows.time[i] >= from && rows.time[i] <= to;
    }

    int ns = services.size();
    long[] cnt = new long[ns];
    long[] err = new long[ns];
    long[][] dur = new long[ns][];
    int[] fill = new int[ns];
    for (int i = 0; i < n; i++) {
      if (counted[i]) {
        cnt[service[i]]++;
      }
    }
    for (int s = 0; s < ns; s++) {
      dur[s] = new long[(int) cnt[s]];
    }
    long[][] ent = new long[ns][];
    Map<Long, Integer> edgeIds = new HashMap<>();
    // Edge stats are gathered in two passes: count first, then fill.
    int[] edgeOf = new int[n];
    Arrays.fill(edgeOf, -1);
    List<long[]> edgeCounts = new ArrayList<>();
    boolean[] needName = new boolean[n];
    boolean anyName = false;
    long countedRows = 0;
    boolean[] entitySeen = new boolean[nRes];
    for (int i = 0; i < n; i++) {
      if (!counted[i]) {
        continue;
      }
      countedRows++;
      int s = service[i];
      long d = rows.duration[i];
      boolean e = rows.error[i];
      if (e) {
        err[s]++;
      }
      int rs = rows.res[i];
      if (rs >= 0 && rs < nRes) {
        entitySeen[rs] = true;
      }
      if (hasParent[i]) {
        int at = Arrays.binarySearch(spanKeys, up[i]);
        if (at >= 0) {
          int ps = spanWho[at] >>> 3;
          int pk = spanWho[at] & 7;
          if (ps != s) {
            boolean messaging = kind[i] == CONSUMER || pk == PRODUCER;
            long ek = ((long) ps << 33) | ((long) s << 1) | (messaging ? 1 : 0);
            Integer id = edgeIds.get(ek);
            if (id == null) {
              id = edgeCounts.size();
              edgeIds.put(ek, id);
              edgeCounts.add(new long[] {ps, s, messaging ? 1 : 0, 0, 0});
            }
            long[] c = edgeCounts.get(id);
            c[3]++;
            if (e) {
              c[4]++;
            }
            edgeOf[i] = id;
          }
        } else {
          p.orphans.add(hi[i], lo[i], up[i], s, kind[i], e, d);
        }
      }
      // Childless here: no row names it as parent (with the whole piece: it is one of its callers).
      if ((kind[i] == CLIENT || kind[i] == PRODUCER) && (whole == null ? Arrays.binarySearch(parentKeys, self[i]) < 0
          : Arrays.binarySearch(whole.callerKeys, self[i]) >= 0)) {
        needName[i] = true;
        anyName = true;
      }
    }
    p.counted = countedRows;
    // Entities per service.
    List<List<Long>> entLists = new ArrayList<>();
    for (int s = 0; s < ns; s++) {
      entLists.add(new ArrayList<>());
    }
    for (int rs = 0; rs < nRes; rs++) {
      if (entitySeen[rs] && entityOfRes[rs] != Resource.NO_ENTITY) {
        entLists.get(serviceOfRes[rs]).add(entityOfRes[rs]);
      }
    }
    for (int s = 0; s < ns; s++) {
      List<Long> l = entLists.get(s);
      long[] a = new long[l.size()];
      for (int k = 0; k < a.length; k++) {
        a[k] = l.get(k);
      }
      Arrays.sort(a);
      ent[s] = distinct(a);
    }
    int[] order = rows.byDuration;
    for (int k = 0; k < n; k++) {
      int i = order[k];
      if (counted[i]) {
        dur[service[i]][fill[service[i]]++] = rows.duration[i];
      }
    }
    // Edge durations.
    int ne = edgeCounts.size();
    long[][] ed = new long[ne][];
    int[] efill = new int[ne];
    for (int k = 0; k < ne; k++) {
      ed[k] = new long[(int) edgeCounts.get(k)[3]];
    }
    for (int k = 0; k < n; k++) {
      int i = order[k];
      if (edgeOf[i] >= 0) {
        ed[edgeOf[i]][efill[edgeOf[i]]++] = rows.duration[i];
      }
    }
    p.edgeFrom = new int[ne];
    p.edgeTo = new int[ne];
    p.edgeMessaging = new boolean[ne];
    p.edgeCount = new long[ne];
    p.edgeErrors = new long[ne];
    for (int k = 0; k < ne; k++) {
      long[] c = edgeCounts.get(k);
      p.edgeFrom[k] = (int) c[0];
      p.edgeTo[k] = (int) c[1];
      p.edgeMessaging[k] = c[2] == 1;
      p.edgeCount[k] = c[3];
      p.edgeErrors[k] = c[4];
    }
    p.edgeDurations = ed;

    // Virtual names: span attributes of the childless client and producer spans only.
    if (anyName) {
      // With the whole piece at hand, its callers already carry their names: no attribute is read.
      String[] named;
      try {
        named = whole != null ? null
            : virtualNames(AttrTable.of(Tables.get(r, TableFiles.SPAN_ATTRS)), n, needName, scratch);
      } catch (WireException e) {
        throw new CorruptBlockException(ref.dir(), TableFiles.SPAN_ATTRS, e.getMessage());
      }
      Map<List<Object>, Integer> groupIds = new HashMap<>();
      List<long[]> groupStats = new ArrayList<>(); // service, producer, count, errors
      List<String> groupNames = new ArrayList<>();
      int callers = 0;
      long[] keys = new long[16];
      int[] group = new int[16];
      long[] durs = new long[16];
      boolean[] errs = new boolean[16];
      int[] rowGroup = new int[n];
      Arrays.fill(rowGroup, -1);
      for (int i = 0; i < n; i++) {
        if (!needName[i]) {
          continue;
        }
        String name;
        if (named != null) {
          name = named[i];
        } else {
          int at = Arrays.binarySearch(whole.callerKeys, self[i]);
          name = at < 0 ? null : whole.virtualName[whole.callerGroup[at]];
        }
        if (name == null || name.equals(services.get(service[i]))) {
          continue;
        }
        boolean producer = kind[i] == PRODUCER;
        List<Object> gk = List.of(service[i], name, producer);
        Integer g = groupIds.get(gk);
        if (g == null) {
          g = groupStats.size();
          groupIds.put(gk, g);
          groupStats.add(new long[] {service[i], producer ? 1 : 0, 0, 0});
          groupNames.add(name);
        }
        boolean e = rows.error[i];
        long[] st = groupStats.get(g);
        st[2]++;
        if (e) {
          st[3]++;
        }
        if (callers == keys.length) {
          int c = callers * 2;
          keys = Arrays.copyOf(keys, c);
          group = Arrays.copyOf(group, c);
          durs = Arrays.copyOf(durs, c);
          errs = Arrays.copyOf(errs, c);
        }
        rowGroup[i] = g;
        keys[callers] = self[i];
        group[callers] = g;
        durs[callers] = rows.duration[i];
        errs[callers] = e;
        callers++;
      }
      int ng = groupStats.size();
      p.virtualService = new int[ng];
      p.virtualName = groupNames.toArray(new String[0]);
      p.virtualMessaging = new boolean[ng];
      p.virtualCount = new long[ng];
      p.virtualErrors = new long[ng];
      p.virtualDurations = new long[ng][];
      int[] gfill = new int[ng];
      for (int g = 0; g < ng; g++) {
        long[] st = groupStats.get(g);
        p.virtualService[g] = (int) st[0];
        p.virtualMessaging[g] = st[1] == 1;
        p.virtualCount[g] = st[2];
        p.virtualErrors[g] = st[3];
        p.virtualDurations[g] = new long[(int) st[2]];
      }
      for (int k = 0; k < n; k++) {
        int i = order[k];
        if (rowGroup[i] >= 0) {
          p.virtualDurations[rowGroup[i]][gfill[rowGroup[i]]++] = rows.duration[i];
        }
      }
      // One by one, by key.
      int[] byKey = new int[callers];
      for (int c = 0; c < callers; c++) {
        byKey[c] = c;
      }
      long[] sortedKeys = Arrays.copyOf(keys, callers);
      Radix.sort(sortedKeys, byKey, callers);
      p.callerKeys = sortedKeys;
      p.callerGroup = new int[callers];
      p.callerDuration = new long[callers];
      p.callerError = new boolean[callers];
      for (int c = 0; c < callers; c++) {
        int o = byKey[c];
        p.callerGroup[c] = group[o];
        p.callerDuration[c] = durs[o];
        p.callerError[c] = errs[o];
      }
    }

    // Links of counted spans.
    for (int l = 0; l < rows.links; l++) {
      int i = rows.linkRow[l];
      if (counted[i]) {
        p.links.add(rows.linkHi[l], rows.linkLo[l], rows.linkKey[l], service[i], kind[i], rows.error[i],
            rows.duration[i]);
      }
    }
    p.services = services.toArray(new String[0]);
    p.count = cnt;
    p.errors = err;
    p.durations = dur;
    p.entities = ent;
    return p;
  }

  /** The attribute keys {@link ServiceMaps#virtualName} reads. */
  private static final String[] NAME_KEYS = {"peer.service", "db.system", "db.system.name", "db.namespace", "db.name",
      "messaging.system", "messaging.destination.name", "server.address"};

  /**
   * The virtual names of the rows {@code need} marks, in one pass over the attribute table that
   * looks only at the keys {@link ServiceMaps#virtualName} reads (per row and key, the last one
   * with a scalar value, as it would find it), decoding nothing else.
   */
  private static String[] virtualNames(AttrTable t, int n, boolean[] need, Scratch s) throws WireException {
    String[] out = new String[n];
    if (t.rows() == 0) {
      return out;
    }
    int nk = NAME_KEYS.length;
    boolean[][] entries = new boolean[nk][];
    boolean any = false;
    for (int k = 0; k < nk; k++) {
      entries[k] = t.key().entriesEqualTo(NAME_KEYS[k].getBytes(java.nio.charset.StandardCharsets.UTF_8), s);
      any |= entries[k] != null;
    }
    if (!any) {
      return out;
    }
    int[][] last = new int[nk][];
    IntReader parent = t.parent();
    for (int j = 0; j < t.rows(); j++) {
      int p = parent.getInt(j);
      if (p < 0 || p >= n || !need[p] || t.key().isNull(j)) {
        continue;
      }
      int e = t.key().index(j);
      for (int k = 0; k < nk; k++) {
        if (entries[k] != null && entries[k][e] && scalar(t.type(j))) {
          if (last[k] == null) {
            last[k] = new int[n];
            Arrays.fill(last[k], -1);
          }
          last[k][p] = j;
        }
      }
    }
    for (int p = 0; p < n; p++) {
      if (!need[p]) {
        continue;
      }
      List<Attribute> found = new ArrayList<>(2);
      for (int k = 0; k < nk; k++) {
        if (last[k] != null && last[k][p] >= 0) {
          found.add(new Attribute(NAME_KEYS[k], mira.query.rows.StoredValues.attr(t, last[k][p], s)));
        }
      }
      out[p] = found.isEmpty() ? null : ServiceMaps.virtualName(found);
    }
    return out;
  }

  private static boolean scalar(int type) {
    return type == mira.block.table.Attributes.TYPE_STR || type == mira.block.table.Attributes.TYPE_INT
        || type == mira.block.table.Attributes.TYPE_DOUBLE || type == mira.block.table.Attributes.TYPE_BOOL
        || type == mira.block.table.Attributes.TYPE_BYTES;
  }

  private static long[] distinct(long[] sorted) {
    if (sorted.length < 2) {
      return sorted;
    }
    int m = 1;
    for (int i = 1; i < sorted.length; i++) {
      if (sorted[i] != sorted[m - 1]) {
        sorted[m++] = sorted[i];
      }
    }
    return m == sorted.length ? sorted : Arrays.copyOf(sorted, m);
  }

  /** An LSD radix sort of signed longs, carrying an int payload along (or none). */
  static final class Radix {
    private Radix() {}

    static void sort(long[] keys, int[] payload, int n) {
      if (n < 64) {
        insertion(keys, payload, n);
        return;
      }
      long[] k2 = new long[n];
      int[] p2 = payload == null ? null : new int[n];
      long[] src = keys;
      long[] dst = k2;
      int[] ps = payload;
      int[] pd = p2;
      int[] counts = new int[256];
      for (int shift = 0; shift < 64; shift += 8) {
        Arrays.fill(counts, 0);
        for (int i = 0; i < n; i++) {
          counts[digit(src[i], shift)]++;
        }
        if (counts[digit(src[0], shift)] == n) {
          continue; // every key has this byte: the pass would change nothing
        }
        int sum = 0;
        for (int b = 0; b < 256; b++) {
          int c = counts[b];
          counts[b] = sum;
          sum += c;
        }
        for (int i = 0; i < n; i++) {
          int at = counts[digit(src[i], shift)]++;
          dst[at] = src[i];
          if (ps != null) {
            pd[at] = ps[i];
          }
        }
        long[] tk = src;
        src = dst;
        dst = tk;
        int[] tp = ps;
        ps = pd;
        pd = tp;
      }
      if (src != keys) {
        System.arraycopy(src, 0, keys, 0, n);
        if (payload != null) {
          System.arraycopy(ps, 0, payload, 0, n);
        }
      }
    }

    /** The byte at {@code shift}, the top one with its sign flipped so negative keys sort first. */
    private static int digit(long k, int shift) {
      int d = (int) (k >>> shift) & 0xFF;
      return shift == 56 ? d ^ 0x80 : d;
    }

    private static void insertion(long[] keys, int[] payload, int n) {
      for (int i = 1; i < n; i++) {
        long k = keys[i];
        int v = payload == null ? 0 : payload[i];
        int j = i - 1;
        while (j >= 0 && keys[j] > k) {
          keys[j + 1] = keys[j];
          if (payload != null) {
            payload[j + 1] = payload[j];
          }
          j--;
        }
        keys[j + 1] = k;
        if (payload != null) {
          payload[j + 1] = v;
        }
      }
    }
  }
}
