package mira.query.frame;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import mira.proto.wire.Signal;
import mira.query.doc.Searcher;
import mira.query.doc.Documents;
import mira.query.doc.MapQuery;
import mira.query.doc.RootField;
import mira.query.doc.Scalar;
import mira.query.doc.SearchQuery;
import mira.query.doc.Term;
import mira.query.entity.Identity;
import mira.query.result.Attribute;
import mira.query.result.ServiceMap;
import mira.query.result.SpanRow;
import mira.query.scan.Engine;

/**
 * The service map of a window, computed on demand from spans (without terms or frame, by
 * {@link ColumnarMaps} from the blocks' columns; with them, here, from rendered rows). An edge is a span whose parent
 * span belongs to another service, or a span link across services; the parent may sit in
 * another block or another hour, so the traces whose parents are missing from the window are
 * read whole across retention (through {@code trace_id in}, pruned by {@code trace.idx}). A
 * CLIENT or PRODUCER span with no child anywhere is a call to something that sends no spans: an
 * edge to a virtual node named from {@code peer.service}, {@code db.system} (+
 * {@code db.namespace}), {@code messaging.system} (+ destination) or {@code server.address}.
 */
public final class ServiceMaps {
  /** The most spans counted in the window, and read besides to find parents and children. */
  public static final int MAX_SPANS = 200_000;
  /** The service name of spans whose resource has no service.name. */
  public static final String UNKNOWN = "unknown_service";

  private static final int CLIENT = 3;
  private static final int PRODUCER = 4;
  private static final int CONSUMER = 5;
  private static final int ERROR = 2;

  private final Reads reads;

  private ServiceMaps(Reads reads) {
    this.reads = reads;
  }

  /** A span as the map needs it. */
  private record S(String trace, String span, String parent, String service, long entity, int kind, boolean error,
      long duration, List<SpanRow.Link> links, List<Attribute> attributes) {}

  /**
   * The map of the window's spans in {@code engine}'s blocks: without terms and frame, from the
   * blocks' columns ({@link ColumnarMaps}: complete, never truncated); with them, through the
   * search (rendered rows, at most {@link #MAX_SPANS}).
   */
  public static ServiceMap run(Engine engine, MapQuery q) throws IOException {
    if (q.where().isEmpty() && q.frame() == null) {
      return ColumnarMaps.run(engine, q, MapPieces.SHARED);
    }
    return rendered(engine, q);
  }

  /** The map through the search, whatever the document: what {@link ColumnarMaps} must agree with. */
  public static ServiceMap rendered(Engine engine, MapQuery q) throws IOException {
    return new ServiceMaps(new Reads(engine)).build(q);
  }

  /** Drops the kept map pieces of blocks retention or the compactor removed or replaced. */
  public static void sweep() {
    MapPieces.SHARED.sweep();
  }

  /** The map of the spans {@code searcher} finds (a cluster's, on a replica with peers). */
  public static ServiceMap run(Searcher searcher, MapQuery q) throws IOException {
    return new ServiceMaps(new Reads(searcher)).build(q);
  }

  private ServiceMap build(MapQuery q) throws IOException {
    List<Term> where = new ArrayList<>(q.where());
    if (q.frame() != null) {
      where.addAll(Correlate.membership(q.frame(), true));
    }
    List<S> window = new ArrayList<>();
    boolean truncated = read(new SearchQuery(Signal.TRACES, q.from(), q.to(), where, Documents.MAX_LIMIT, null),
        MAX_SPANS, window);
    Map<String, S> byId = new HashMap<>();
    Set<String> parents = new HashSet<>();
    for (S s : window) {
      byId.put(s.trace + s.span, s);
      if (!s.parent.isEmpty()) {
        parents.add(s.trace + s.parent);
      }
    }
    // Traces with a parent, a link target or (for a client or producer) a child that may lie outside the window.
    TreeSet<String> more = new TreeSet<>();
    for (S s : window) {
      if (!s.parent.isEmpty() && !byId.containsKey(s.trace + s.parent)) {
        more.add(s.trace);
      }
      if ((s.kind == CLIENT || s.kind == PRODUCER) && !parents.contains(s.trace + s.span)) {
        more.add(s.trace);
      }
      for (SpanRow.Link l : s.links) {
        if (!byId.containsKey(l.traceId() + l.spanId()) && l.traceId() != null && l.traceId().length() == 32) {
          more.add(l.traceId());
        }
      }
    }
    List<String> ids = new ArrayList<>(more);
    List<S> outside = new ArrayList<>();
    for (int i = 0; i < ids.size() && !truncated; i += Term.MAX_IN) {
      List<Scalar> chunk = ids.subList(i, Math.min(ids.size(), i + Term.MAX_IN)).stream().map(Scalar::string).toList();
      truncated |= read(new SearchQuery(Signal.TRACES, Long.MIN_VALUE, Long.MAX_VALUE,
          List.of(new Term.FieldIn(RootField.TRACE_ID, chunk)), Documents.MAX_LIMIT, null), MAX_SPANS - outside.size(),
          outside);
    }
    for (S s : outside) {
      byId.putIfAbsent(s.trace + s.span, s);
      if (!s.parent.isEmpty()) {
        parents.add(s.trace + s.parent);
      }
    }

    Map<String, Acc> nodes = new TreeMap<>();
    Map<String, Set<Long>> entities = new HashMap<>();
    Map<String, Acc> virtual = new TreeMap<>();
    Map<List<String>, Acc> edges = new TreeMap<>(EDGE_ORDER);
    for (S s : window) {
      nodes.computeIfAbsent(s.service, k -> new Acc()).add(s.duration, s.error);
      if (s.entity != 0) {
        entities.computeIfAbsent(s.service, k -> new HashSet<>()).add(s.entity);
      }
      S p = s.parent.isEmpty() ? null : byId.get(s.trace + s.parent);
      if (p != null && !p.service.equals(s.service)) {
        String kind = s.kind == CONSUMER || p.kind == PRODUCER ? "messaging" : "rpc";
        edges.computeIfAbsent(List.of(p.service, s.service, kind), k -> new Acc()).add(s.duration, s.error);
        nodes.computeIfAbsent(p.service, k -> new Acc());
      }
      for (SpanRow.Link l : s.links) {
        S t = byId.get(l.traceId() + l.spanId());
        if (t != null && !t.service.equals(s.service)) {
          edges.computeIfAbsent(List.of(t.service, s.service, "link"), k -> new Acc()).add(s.duration, s.error);
          nodes.computeIfAbsent(t.service, k -> new Acc());
        }
      }
      if ((s.kind == CLIENT || s.kind == PRODUCER) && !parents.contains(s.trace + s.span)) {
        String name = virtualName(s.attributes);
        if (name != null && !name.equals(s.service)) {
          virtual.computeIfAbsent(name, k -> new Acc()).add(s.duration, s.error);
          edges.computeIfAbsent(List.of(s.service, name, s.kind == PRODUCER ? "messaging" : "rpc"), k -> new Acc())
              .add(s.duration, s.error);
        }
      }
    }
    return new ServiceMap(nodes(nodes, virtual, entities), edges(edges), truncated, reads.stats(), reads.refused());
  }

  /** Edges (from, to, kind) in the answer's order. */
  static final java.util.Comparator<List<String>> EDGE_ORDER = (a, b) -> {
    for (int i = 0; i < 3; i++) {
      int c = a.get(i).compareTo(b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  };

  /** The answer's nodes, services and virtual ones in name order, from their accumulators. */
  static List<ServiceMap.Node> nodes(Map<String, Acc> nodes, Map<String, Acc> virtual, Map<String, Set<Long>> entities) {
    List<ServiceMap.Node> out = new ArrayList<>();
    TreeSet<String> names = new TreeSet<>(nodes.keySet());
    names.addAll(virtual.keySet());
    for (String n : names) {
      Acc a = nodes.get(n);
      boolean isVirtual = a == null;
      if (isVirtual) {
        a = virtual.get(n);
      }
      Set<Long> e = entities.get(n);
      out.add(new ServiceMap.Node(n, e == null ? 0 : e.size(), a.n, a.errors, a.quantile(0.5), a.quantile(0.99),
          isVirtual));
    }
    return out;
  }

  /** The answer's edges, in the order of {@code edges} (keyed from, to, kind). */
  static List<ServiceMap.Edge> edges(Map<List<String>, Acc> edges) {
    List<ServiceMap.Edge> out = new ArrayList<>();
    edges.forEach((k, a) -> out.add(new ServiceMap.Edge(k.get(0), k.get(1), a.n, a.errors, a.quantile(0.5),
        a.quantile(0.99), k.get(2))));
    return out;
  }

  /** The name of what a childless client or producer span called, or null if its attributes do not say. */
  static String virtualName(List<Attribute> attrs) {
    String peer = Identity.text(attrs, "peer.service");
    if (peer != null) {
      return peer;
    }
    String db = Identity.text(attrs, "db.system");
    if (db == null) {
      db = Identity.text(attrs, "db.system.name");
    }
    if (db != null) {
      String ns = Identity.text(attrs, "db.namespace");
      if (ns == null) {
        ns = Identity.text(attrs, "db.name");
      }
      return ns == null ? db : db + " " + ns;
    }
    String mq = Identity.text(attrs, "messaging.system");
    if (mq != null) {
      String dest = Identity.text(attrs, "messaging.destination.name");
      return dest == null ? mq : mq + " " + dest;
    }
    return Identity.text(attrs, "server.address");
  }

  /** Pages through {@code q} into {@code out}, at most {@code max} spans; true if more were left. */
  private boolean read(SearchQuery q, int max, List<S> out) throws IOException {
    return reads.all(q, max, row -> {
      SpanRow s = (SpanRow) row;
      String service = Identity.text(s.resource().attributes(), "service.name");
      out.add(new S(s.traceId(), s.spanId(), s.parentSpanId() == null ? "" : s.parentSpanId(),
          service == null ? UNKNOWN : service, s.resource().entity(), s.kind(), s.statusCode() == ERROR,
          s.durationNano(), s.links(), s.attributes()));
    });
  }
}
