package mira.cluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import mira.query.doc.Cursor;
import mira.query.doc.SeriesQuery;
import mira.query.result.Attribute;
import mira.query.result.AttributeList;
import mira.query.result.EntityList;
import mira.query.result.FacetList;
import mira.query.result.MetricList;
import mira.query.result.Refused;
import mira.query.result.Row;
import mira.query.result.SearchResult;
import mira.query.result.SeriesResult;
import mira.query.result.ServiceList;
import mira.query.result.SpanRow;
import mira.query.result.Stats;
import mira.query.result.TraceResult;
import mira.query.result.Value;
import mira.query.render.Json;
import mira.query.render.ResponseJson;

/**
 * How the nodes' answers of one read become one answer. Every node has the same question, so the
 * merges only combine: rows by their place in the one total order (whose node id part differs per
 * node, so no two nodes' rows tie), counts summed, entities and services united by key, metrics by
 * what names them, series by identity. Stats are summed, with the wall time of the whole answer.
 */
final class Merge {
  private Merge() {}

  /** Newest first: the order of search results. */
  static final Comparator<Row> RESULT_ORDER = (a, b) ->
      Cursor.compare(b.time(), b.node(), b.seq(), b.row(), a.time(), a.node(), a.seq(), a.row());

  /**
   * The first {@code limit} rows of all pages. A next page exists when rows were left over, or a
   * node had a next page of its own; its cursor is the last row's place, which every node reads on
   * from (rows after it in the total order), so paging returns each row exactly once.
   */
  static SearchResult search(List<SearchResult> parts, int limit, long started) {
    List<Row> all = new ArrayList<>();
    boolean more = false;
    for (SearchResult p : parts) {
      all.addAll(p.rows());
      more |= p.next() != null;
    }
    all.sort(RESULT_ORDER);
    more |= all.size() > limit;
    List<Row> rows = all.size() > limit ? all.subList(0, limit) : all;
    String next = null;
    if (more && !rows.isEmpty()) {
      Row last = rows.get(rows.size() - 1);
      next = new Cursor(last.time(), last.node(), last.seq(), last.row()).encode();
    }
    return new SearchResult(rows, next, stats(parts.stream().map(SearchResult::stats).toList(), started),
        refused(parts.stream().map(SearchResult::refused).toList()));
  }

  /** Every node's spans of the trace, sorted by start time, then span id. */
  static TraceResult trace(List<TraceResult> parts, long started) {
    List<SpanRow> spans = new ArrayList<>();
    for (TraceResult p : parts) {
      spans.addAll(p.spans());
    }
    spans.sort(Comparator.comparingLong(SpanRow::startTimeUnixNano).thenComparing(SpanRow::spanId));
    return new TraceResult(parts.get(0).traceId(), spans, stats(parts.stream().map(TraceResult::stats).toList(), started),
        refused(parts.stream().map(TraceResult::refused).toList()));
  }

  /** One entry per (name, type, unit, description, temporality, monotonic); keys and bounds united. */
  static MetricList metrics(List<MetricList> parts, long started) {
    TreeMap<List<String>, MetricList.Metric> by = new TreeMap<>(Merge::compareKeys);
    Map<List<String>, TreeSet<String>> keys = new HashMap<>();
    Map<List<String>, TreeSet<List<Double>>> bounds = new HashMap<>();
    for (MetricList p : parts) {
      for (MetricList.Metric m : p.metrics()) {
        List<String> k = Arrays.asList(m.name(), m.type(), m.unit(), m.description(), m.temporality(),
            m.monotonic() == null ? null : m.monotonic().toString());
        by.putIfAbsent(k, m);
        keys.computeIfAbsent(k, x -> new TreeSet<>()).addAll(m.attributeKeys());
        bounds.computeIfAbsent(k, x -> new TreeSet<>(Merge::compareBounds)).addAll(m.bounds());
      }
    }
    List<MetricList.Metric> out = new ArrayList<>();
    by.forEach((k, m) -> out.add(new MetricList.Metric(m.name(), m.type(), m.unit(), m.description(), m.temporality(),
        m.monotonic(), new ArrayList<>(keys.get(k)), new ArrayList<>(bounds.get(k)))));
    return new MetricList(out, stats(parts.stream().map(MetricList::stats).toList(), started),
        refused(parts.stream().map(MetricList::refused).toList()));
  }

  /**
   * Raw series united by identity (name, type, unit, description, resource, attributes, the
   * attributes as they render, so an int64 read back from a peer's answer as text is the same
   * attribute): a series whose points landed on several nodes gets all of them, oldest first, and
   * keeps the newest {@code max_points}. (A function is not merged here: its nodes send their points,
   * see {@link Cluster#series(SeriesQuery)}.)
   */
  static SeriesResult series(List<SeriesResult> parts, SeriesQuery q, long started) {
    Map<List<Object>, List<SeriesResult.Series>> by = new LinkedHashMap<>();
    long dropped = 0;
    for (SeriesResult p : parts) {
      dropped += p.droppedSeries();
      for (SeriesResult.Series s : p.series()) {
        List<Object> k = Arrays.asList(s.name(), s.type(), s.unit(), s.description(), rendered(s.resource()),
            rendered(s.attributes()));
        by.computeIfAbsent(k, x -> new ArrayList<>()).add(s);
      }
    }
    int maxPoints = q.maxPoints();
    List<SeriesResult.Series> out = new ArrayList<>();
    for (List<SeriesResult.Series> same : by.values()) {
      out.add(same.size() == 1 ? same.get(0) : union(same, maxPoints));
    }
    out.sort(Merge::compareSeries);
    int maxSeries = q.maxSeries();
    if (out.size() > maxSeries) {
      dropped += out.size() - maxSeries;
      out = new ArrayList<>(out.subList(0, maxSeries));
    }
    return new SeriesResult(out, dropped, stats(parts.stream().map(SeriesResult::stats).toList(), started),
        refused(parts.stream().map(SeriesResult::refused).toList()));
  }

  /** Attributes as an answer writes them: equal for equal lists whichever node's answer they came from. */
  private static String rendered(List<Attribute> attrs) {
    return new String(Json.render(g -> ResponseJson.object(g, attrs)), StandardCharsets.UTF_8);
  }

  private static SeriesResult.Series union(List<SeriesResult.Series> same, int maxPoints) {
    List<SeriesResult.Point> points = new ArrayList<>();
    List<SeriesResult.Exemplar> exemplars = new ArrayList<>();
    long dropped = 0;
    for (SeriesResult.Series s : same) {
      points.addAll(s.points());
      exemplars.addAll(s.exemplars());
      dropped += s.droppedPoints();
    }
    points.sort(Comparator.comparingLong(SeriesResult.Point::time));
    if (points.size() > maxPoints) {
      dropped += points.size() - maxPoints;
      long oldestKept = points.get(points.size() - maxPoints).time();
      points = new ArrayList<>(points.subList(points.size() - maxPoints, points.size()));
      exemplars.removeIf(x -> x.time() < oldestKept);
    }
    exemplars.sort(Comparator.comparingLong(SeriesResult.Exemplar::time));
    SeriesResult.Series f = same.get(0);
    return new SeriesResult.Series(f.name(), f.type(), f.unit(), f.description(), f.resource(), f.attributes(), points,
        exemplars, dropped, f.bounds(), f.entity(), f.scale());
  }

  /**
   * Facets united by (key, level): records, counts and each value's count summed; the values
   * ranked again (highest count first, ties by value as one node ranks them) and cut to
   * {@code limit}; {@code distinct} the values seen anywhere. Exact when every node listed every
   * value of its own, which is how the peers are asked ({@link Cluster#facets}).
   */
  static FacetList facets(List<FacetList> parts, List<String> keys, int limit, long started) {
    Map<List<String>, long[]> counts = new HashMap<>();
    Map<List<String>, Map<Value, long[]>> values = new HashMap<>();
    long records = 0;
    for (FacetList p : parts) {
      records += p.records();
      for (FacetList.Facet f : p.facets()) {
        List<String> id = List.of(f.key(), f.level());
        counts.computeIfAbsent(id, x -> new long[1])[0] += f.count();
        Map<Value, long[]> vs = values.computeIfAbsent(id, x -> new HashMap<>());
        for (FacetList.ValueCount v : f.values()) {
          vs.computeIfAbsent(v.value(), x -> new long[1])[0] += v.count();
        }
      }
    }
    List<FacetList.Facet> out = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (String key : keys) {
      boolean seen = false;
      for (String level : AttributeList.LEVELS) {
        List<String> id = List.of(key, level);
        long[] count = counts.get(id);
        if (count == null) {
          continue;
        }
        seen = true;
        List<Map.Entry<Value, long[]>> all = new ArrayList<>(values.get(id).entrySet());
        all.sort(Comparator.comparingLong((Map.Entry<Value, long[]> e) -> -e.getValue()[0])
            .thenComparing(e -> sortText(e.getKey())));
        List<FacetList.ValueCount> top = new ArrayList<>();
        long listed = 0;
        for (int i = 0; i < Math.min(limit, all.size()); i++) {
          top.add(new FacetList.ValueCount(all.get(i).getKey(), all.get(i).getValue()[0]));
          listed += all.get(i).getValue()[0];
        }
        out.add(new FacetList.Facet(key, level, count[0], all.size(), top, count[0] - listed));
      }
      if (!seen) {
        missing.add(key);
      }
    }
    return new FacetList(parts.get(0).signal(), records, out, missing,
        stats(parts.stream().map(FacetList::stats).toList(), started),
        refused(parts.stream().map(FacetList::refused).toList()));
  }

  /** A value's text for ordering ties, as one node orders them: strings as themselves, others by their record form. */
  private static String sortText(Value v) {
    return v instanceof Value.Str s ? s.value() : v.toString();
  }

  /**
   * Entities united by key: records summed, first and last seen widened, the identity and service
   * of whichever node saw it last. Sorted as one node sorts them, then cut to {@code limit}, with
   * {@code total} counting each entity once (the nodes were asked for all of theirs).
   */
  static EntityList entities(List<EntityList> parts, int limit, long started) {
    Map<Long, EntityList.Entity> by = new HashMap<>();
    long noResources = 0;
    long noRecords = 0;
    TreeSet<String> noServices = new TreeSet<>();
    Set<Long> noHashes = new HashSet<>();
    boolean hashed = true;
    String hint = "";
    for (EntityList p : parts) {
      for (EntityList.Entity e : p.entities()) {
        by.merge(e.key(), e, (a, b) -> {
          EntityList.Entity newer = b.lastSeen() > a.lastSeen() ? b : a;
          return new EntityList.Entity(a.key(), newer.rule(), newer.identity(), newer.serviceName(), a.logs() + b.logs(),
              a.spans() + b.spans(), a.points() + b.points(), Math.min(a.firstSeen(), b.firstSeen()),
              Math.max(a.lastSeen(), b.lastSeen()));
        });
      }
      EntityList.NoIdentity n = p.noIdentity();
      noResources += n.resources();
      if (n.resourceHashes() == null) {
        hashed = false;
      } else {
        noHashes.addAll(n.resourceHashes());
      }
      noRecords += n.records();
      noServices.addAll(n.services());
      if (hint.isEmpty()) {
        hint = n.hint();
      }
    }
    if (hashed) {
      noResources = noHashes.size(); // a resource several nodes saw is one resource
    }
    List<EntityList.Entity> all = new ArrayList<>(by.values());
    all.sort(EntityList.ORDER);
    return new EntityList(all.subList(0, Math.min(limit, all.size())), all.size(),
        new EntityList.NoIdentity(noResources, noRecords, new ArrayList<>(noServices), hint),
        stats(parts.stream().map(EntityList::stats).toList(), started),
        refused(parts.stream().map(EntityList::refused).toList()));
  }

  /** Services united by name: records summed; entities counted once each, by their keys. */
  static ServiceList services(List<ServiceList> parts, long started) {
    Map<String, long[]> counts = new HashMap<>();
    Map<String, TreeSet<Long>> keys = new HashMap<>();
    for (ServiceList p : parts) {
      for (ServiceList.Service s : p.services()) {
        long[] n = counts.computeIfAbsent(s.name(), k -> new long[4]);
        n[0] += s.logs();
        n[1] += s.spans();
        n[2] += s.errors();
        n[3] += s.points();
        TreeSet<Long> k = keys.computeIfAbsent(s.name(), x -> new TreeSet<>(Long::compareUnsigned));
        for (long key : s.entityKeys()) {
          k.add(key);
        }
      }
    }
    List<ServiceList.Service> out = new ArrayList<>();
    counts.forEach((name, n) -> {
      long[] k = keys.get(name).stream().mapToLong(Long::longValue).toArray();
      out.add(new ServiceList.Service(name, n[0], n[1], n[2], n[3], k.length, k));
    });
    out.sort(ServiceList.ORDER);
    return new ServiceList(out, stats(parts.stream().map(ServiceList::stats).toList(), started),
        refused(parts.stream().map(ServiceList::refused).toList()));
  }

  /** Keys united by (level, key): counts summed, types united; records summed. */
  static AttributeList attributes(List<AttributeList> parts, long started) {
    Map<List<String>, long[]> counts = new HashMap<>();
    Map<List<String>, TreeSet<Integer>> types = new HashMap<>();
    long records = 0;
    for (AttributeList p : parts) {
      records += p.records();
      for (AttributeList.Key k : p.keys()) {
        List<String> id = List.of(k.level(), k.key());
        counts.computeIfAbsent(id, x -> new long[1])[0] += k.count();
        TreeSet<Integer> t = types.computeIfAbsent(id, x -> new TreeSet<>());
        for (String type : k.types()) {
          t.add(AttributeList.TYPES.indexOf(type));
        }
      }
    }
    List<AttributeList.Key> out = new ArrayList<>();
    counts.forEach((id, n) -> out.add(new AttributeList.Key(id.get(0), id.get(1),
        types.get(id).stream().map(i -> i < 0 ? "empty" : AttributeList.TYPES.get(i)).toList(), n[0])));
    out.sort(Comparator.comparingInt((AttributeList.Key k) -> AttributeList.LEVELS.indexOf(k.level()))
        .thenComparing(k -> -k.count()).thenComparing(AttributeList.Key::key));
    return new AttributeList(parts.get(0).signal(), records, out,
        stats(parts.stream().map(AttributeList::stats).toList(), started),
        refused(parts.stream().map(AttributeList::refused).toList()));
  }

  static Stats stats(List<Stats> parts, long started) {
    int total = 0;
    int pruned = 0;
    int scanned = 0;
    long rows = 0;
    long matched = 0;
    for (Stats s : parts) {
      total += s.blocksTotal();
      pruned += s.blocksPruned();
      scanned += s.blocksScanned();
      rows += s.rowsScanned();
      matched += s.rowsMatched();
    }
    return new Stats(total, pruned, scanned, rows, matched, (System.nanoTime() - started) / 1_000_000);
  }

  static List<Refused> refused(List<List<Refused>> parts) {
    List<Refused> out = new ArrayList<>();
    parts.forEach(out::addAll);
    return out;
  }

  private static int compareKeys(List<String> a, List<String> b) {
    for (int i = 0; i < a.size(); i++) {
      String x = a.get(i);
      String y = b.get(i);
      if (!Objects.equals(x, y)) {
        if (x == null) {
          return -1;
        }
        if (y == null) {
          return 1;
        }
        return x.compareTo(y);
      }
    }
    return 0;
  }

  private static int compareBounds(List<Double> a, List<Double> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = Double.compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  private static int compareSeries(SeriesResult.Series a, SeriesResult.Series b) {
    int c = compareKeys(Arrays.asList(a.name(), a.type(), a.unit()), Arrays.asList(b.name(), b.type(), b.unit()));
    if (c != 0) {
      return c;
    }
    c = compareAttributes(a.resource(), b.resource());
    return c != 0 ? c : compareAttributes(a.attributes(), b.attributes());
  }

  private static int compareAttributes(List<Attribute> a, List<Attribute> b) {
    return a.toString().compareTo(b.toString());
  }
}
