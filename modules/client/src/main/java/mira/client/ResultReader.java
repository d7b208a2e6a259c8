package mira.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mira.query.doc.Cursor;
import mira.query.result.Attribute;
import mira.query.result.AttributeList;
import mira.query.result.FacetList;
import mira.query.result.CorrelateResult;
import mira.query.result.EntityList;
import mira.query.result.ServiceList;
import mira.query.result.Frame;
import mira.query.result.ServiceMap;
import mira.query.result.Entities;
import mira.query.result.LogRow;
import mira.query.result.MetricList;
import mira.query.result.Refused;
import mira.query.result.Resource;
import mira.query.result.Row;
import mira.query.result.Scope;
import mira.query.result.SearchResult;
import mira.query.result.SeriesPoints;
import mira.query.result.SeriesResult;
import mira.query.result.SpanRow;
import mira.query.result.Stats;
import mira.query.result.TraceResult;
import mira.query.result.Value;

/**
 * Reads Mira's response documents (docs/api.md) back into the records of {@code mira.query.result}.
 *
 * <p>What JSON cannot carry comes back as follows: an int64 or bytes value is a {@link Value.Str}
 * holding its decimal or base64 text (the answer writes both as strings), and so is a NaN or an
 * infinite double ({@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}); a log body that was
 * an empty value is written as null and reads back as no body; a row's place in the
 * order of results is not part of a rendered row, so rows carry their time (a log's
 * time_unix_nano, a span's start time) and node, seq and row {@code -1}, except the last row of a
 * page that has {@code next}, whose position the cursor gives.
 *
 * <p>Stateless and thread-safe.
 */
public final class ResultReader {
  private static final JsonFactory JSON = new JsonFactory();

  private ResultReader() {}

  /** The answer of {@code POST /api/v1/query}. */
  public static SearchResult search(byte[] body) throws IOException {
    Map<String, Object> doc = object(parse(body), "the answer");
    List<Object> rawRows = list(doc.get("rows"), "rows");
    String next = (String) doc.get("next");
    Cursor cursor = null;
    if (next != null) {
      try {
        cursor = Cursor.parse(next);
      } catch (mira.query.result.QueryException e) {
        throw new IOException("the answer's next is not a cursor: " + e.getMessage());
      }
    }
    // A peer asked for a cluster answer writes every row's position (docs/api.md, "Replicas").
    List<Object> rawPositions = doc.containsKey("positions") ? list(doc.get("positions"), "positions") : null;
    if (rawPositions != null && rawPositions.size() != rawRows.size()) {
      throw new IOException("the answer has " + rawRows.size() + " rows but " + rawPositions.size() + " positions");
    }
    List<Row> rows = new ArrayList<>(rawRows.size());
    for (int i = 0; i < rawRows.size(); i++) {
      Map<String, Object> r = object(rawRows.get(i), "rows[" + i + "]");
      Cursor at = i == rawRows.size() - 1 ? cursor : null;
      if (rawPositions != null) {
        try {
          at = Cursor.parse(String.valueOf(rawPositions.get(i)));
        } catch (mira.query.result.QueryException e) {
          throw new IOException("positions[" + i + "] is not a cursor: " + e.getMessage());
        }
      }
      rows.add(r.containsKey("start_time_unix_nano") ? span(r, at) : log(r, at));
    }
    return new SearchResult(rows, next, stats(doc), refused(doc));
  }

  /** The answer of {@code GET /api/v1/traces/{trace_id}}, in either shape ({@code ?shape=compact}). */
  public static TraceResult trace(byte[] body) throws IOException {
    Map<String, Object> doc = object(parse(body), "the answer");
    boolean compact = "compact".equals(doc.get("shape"));
    List<Object> resources = compact ? list(doc.get("resources"), "resources") : List.of();
    List<Object> scopes = compact ? list(doc.get("scopes"), "scopes") : List.of();
    List<Object> rawRows = list(doc.get("rows"), "rows");
    List<SpanRow> spans = new ArrayList<>(rawRows.size());
    for (int i = 0; i < rawRows.size(); i++) {
      Map<String, Object> row = object(rawRows.get(i), "rows[" + i + "]");
      spans.add(span(compact ? whole(row, str(doc, "trace_id"), resources, scopes) : row, null));
    }
    return new TraceResult(str(doc, "trace_id"), spans, stats(doc), refused(doc));
  }

  /** A span of the compact shape as a span row: its defaults, trace id, resource and scope put back. */
  private static Map<String, Object> whole(Map<String, Object> row, String traceId, List<Object> resources,
      List<Object> scopes) throws IOException {
    Map<String, Object> r = new LinkedHashMap<>(row);
    r.putIfAbsent("trace_id", traceId);
    r.putIfAbsent("parent_span_id", "");
    r.putIfAbsent("trace_state", "");
    r.putIfAbsent("flags", 0L);
    r.putIfAbsent("kind", 0L);
    r.putIfAbsent("status", Members.of("code", 0L, "message", ""));
    r.putIfAbsent("attributes", Members.of());
    r.putIfAbsent("dropped_attributes_count", 0L);
    r.putIfAbsent("events", List.of());
    r.putIfAbsent("dropped_events_count", 0L);
    r.putIfAbsent("links", List.of());
    r.putIfAbsent("dropped_links_count", 0L);
    r.put("resource", indexed(resources, row.get("resource"), "resource"));
    r.put("scope", indexed(scopes, row.get("scope"), "scope"));
    return r;
  }

  private static Object indexed(List<Object> table, Object index, String what) throws IOException {
    if (!(index instanceof Number n) || n.longValue() < 0 || n.longValue() >= table.size()) {
      throw new IOException("a compact span's \"" + what + "\" is not an index into its " + what + "s: " + index);
    }
    return table.get(n.intValue());
  }

  /**
   * The answer of {@code POST /api/v1/series}. A point or exemplar value written as a string is
   * an integer: unsigned for the {@code .count} series of histograms and summaries (the only
   * series whose integers are unsigned), signed otherwise; "NaN" and the infinities are doubles.
   */
  public static SeriesResult series(byte[] body) throws IOException {
    Map<String, Object> doc = object(parse(body), "the answer");
    List<Object> raw = list(doc.get("series"), "series");
    List<SeriesResult.Series> out = new ArrayList<>(raw.size());
    for (int i = 0; i < raw.size(); i++) {
      Map<String, Object> s = object(raw.get(i), "series[" + i + "]");
      String type = str(s, "type");
      boolean unsigned = !type.equals("gauge") && !type.equals("sum");
      List<SeriesResult.Point> points = new ArrayList<>();
      for (Object o : list(s.get("points"), "points")) {
        Map<String, Object> p = object(o, "a point");
        SeriesResult.Point v = point(num(p, "time_unix_nano"), p.get("value"), unsigned);
        points.add(v);
      }
      List<SeriesResult.Exemplar> exemplars = new ArrayList<>();
      for (Object o : list(s.get("exemplars"), "exemplars")) {
        Map<String, Object> x = object(o, "an exemplar");
        SeriesResult.Point v = point(num(x, "time_unix_nano"), x.get("value"), false);
        exemplars.add(new SeriesResult.Exemplar(v.time(), v.kind(), v.l(), v.d(), str(x, "trace_id"),
            str(x, "span_id"), attributes(x)));
      }
      double[] bounds = null;
      if (s.get("bounds") != null) {
        List<Object> b = list(s.get("bounds"), "bounds");
        bounds = new double[b.size()];
        for (int k = 0; k < bounds.length; k++) {
          bounds[k] = decimal(b.get(k), "bounds");
        }
      }
      Integer scale = s.get("scale") == null ? null : (int) num(s, "scale");
      Map<String, Object> resource = object(s.get("resource"), "resource");
      out.add(new SeriesResult.Series(str(s, "name"), type, str(s, "unit"), str(s, "description"),
          attributes(resource), attributes(s), points, exemplars, num(s, "dropped_points"), bounds, entity(resource),
          scale));
    }
    Map<String, Object> st = object(doc.get("stats"), "stats");
    Stats stats = new Stats((int) num(st, "blocks_total"), (int) num(st, "blocks_pruned"),
        (int) num(st, "blocks_scanned"), num(st, "points_scanned"), num(st, "points_matched"), num(st, "took_ms"));
    return new SeriesResult(out, num(st, "dropped_series"), stats, refused(doc));
  }

  /**
   * A node's stored points as it answers a peer ({@code SeriesJson.points}): what a replica reads
   * to compute a series function over every node's points.
   */
  public static SeriesPoints seriesPoints(byte[] body) throws IOException {
    // Streamed: a node's points answer runs to megabytes (10,000 points, 2.3 MB), and the generic
    // tree of every point was most of what reading it cost. Members other than the points go
    // through the generic reader, so every check and message is the same as elsewhere.
    try (JsonParser p = JSON.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("the answer is not an object");
      }
      Members top = new Members();
      List<SeriesPoints.Stored> out = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        p.nextToken();
        if (key.equals("series") && out == null) {
          out = storedSeries(p);
        } else {
          top.keys.add(key);
          top.values.add(read(p, 1));
        }
      }
      if (p.nextToken() != null) {
        throw new IOException("trailing content after the answer");
      }
      if (out == null) {
        throw new IOException("\"series\" is missing or not an array");
      }
      Map<String, Object> doc = top.asMap();
      return new SeriesPoints(out, doc.get("exact_name") == Boolean.TRUE, num(doc, "dropped_series"), stats(doc),
          refused(doc));
    }
  }

  private static List<SeriesPoints.Stored> storedSeries(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new IOException("\"series\" is missing or not an array");
    }
    List<SeriesPoints.Stored> out = new ArrayList<>();
    for (int i = 0; p.nextToken() != JsonToken.END_ARRAY; i++) {
      if (p.currentToken() != JsonToken.START_OBJECT) {
        throw new IOException("series[" + i + "] is not an object");
      }
      Members m = new Members();
      List<SeriesPoints.Point> points = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        p.nextToken();
        if (key.equals("points") && points == null) {
          if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new IOException("\"points\" is missing or not an array");
          }
          points = new ArrayList<>();
          while (p.nextToken() != JsonToken.END_ARRAY) {
            points.add(storedPoint(p));
          }
        } else {
          m.keys.add(key);
          m.values.add(read(p, 3));
        }
      }
      if (points == null) {
        throw new IOException("\"points\" is missing or not an array");
      }
      Map<String, Object> s = m.asMap();
      out.add(new SeriesPoints.Stored(str(s, "name"), str(s, "type"), str(s, "unit"), str(s, "description"),
          entries(s.get("resource"), "resource"), attributes(s), num(s, "entity"), (int) num(s, "temporality"),
          s.get("monotonic") == Boolean.TRUE, num(s, "dropped_points"), points));
    }
    return out;
  }

  /** A stored point's scalar members; all are required but {@code l} and {@code d} (zero when absent). */
  private static final List<String> POINT_SCALARS = List.of("t", "node", "seq", "id", "kind", "l", "d", "start");

  /** One stored point, streamed: its scalar members read in place, the rest through the generic reader. */
  private static SeriesPoints.Point storedPoint(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw new IOException("a point is not an object");
    }
    Members rest = null;
    long t = 0;
    long node = 0;
    long seq = 0;
    long id = 0;
    long kind = 0;
    long l = 0;
    double d = 0;
    long start = 0;
    int seen = 0; // a bit per scalar member read, so a repeated key keeps its first value as elsewhere
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      p.nextToken();
      int at = POINT_SCALARS.indexOf(key);
      if (at < 0 || (seen & (1 << at)) != 0) {
        if (rest == null) {
          rest = new Members();
        }
        rest.keys.add(key);
        rest.values.add(read(p, 5));
        continue;
      }
      seen |= 1 << at;
      switch (key) {
        case "t" -> t = streamedNum(p, key);
        case "node" -> node = streamedNum(p, key);
        case "seq" -> seq = streamedNum(p, key);
        case "id" -> id = streamedNum(p, key);
        case "kind" -> kind = streamedNum(p, key);
        case "l" -> l = streamedNum(p, key);
        case "d" -> d = decimal(read(p, 5), "d");
        default -> start = streamedNum(p, key);
      }
    }
    for (int k = 0; k < POINT_SCALARS.size(); k++) {
      String name = POINT_SCALARS.get(k);
      if ((seen & (1 << k)) == 0 && !name.equals("l") && !name.equals("d")) {
        throw new IOException("\"" + name + "\" is missing or not an integer");
      }
    }
    Map<String, Object> x = rest == null ? Map.of() : rest.asMap();
    return storedPoint(x, t, (int) node, seq, (int) id, (int) kind, l, d, start);
  }

  /** As {@link #num} for the value under the parser. */
  private static long streamedNum(JsonParser p, String key) throws IOException {
    return switch (p.currentToken()) {
      case VALUE_NUMBER_INT -> p.getLongValue();
      case VALUE_STRING -> {
        try {
          yield Long.parseLong(p.getText());
        } catch (NumberFormatException e) {
          throw new IOException("\"" + key + "\" is not an integer: " + p.getText());
        }
      }
      default -> throw new IOException("\"" + key + "\" is missing or not an integer");
    };
  }

  private static SeriesPoints.Point storedPoint(Map<String, Object> p, long t, int node, long seq, int id, int kind,
      long l, double d, long start) throws IOException {
    List<SeriesResult.Exemplar> exemplars = new ArrayList<>();
    if (p.get("exemplars") != null) {
      for (Object o : list(p.get("exemplars"), "exemplars")) {
        Map<String, Object> x = object(o, "an exemplar");
        exemplars.add(new SeriesResult.Exemplar(num(x, "t"), (int) num(x, "kind"), num(x, "l"), decimal(x.get("d"), "d"),
            str(x, "trace_id"), str(x, "span_id"), attributes(x)));
      }
    }
    long[] counts = null;
    if (p.get("counts") != null) {
      List<Object> c = list(p.get("counts"), "counts");
      counts = new long[c.size()];
      for (int k = 0; k < counts.length; k++) {
        if (!(c.get(k) instanceof Long n)) {
          throw new IOException("\"counts\" holds a value that is not an integer: " + c.get(k));
        }
        counts[k] = n;
      }
    }
    SeriesPoints.Exp exp = null;
    if (p.get("exp") != null) {
      Map<String, Object> e = object(p.get("exp"), "exp");
      exp = new SeriesPoints.Exp((int) num(e, "scale"), decimal(e.get("zero"), "zero"), (int) num(e, "pos_offset"),
          doubles(e.get("pos"), "pos"), (int) num(e, "neg_offset"), doubles(e.get("neg"), "neg"));
    }
    return new SeriesPoints.Point(t, node, seq, id, kind, l, d, start, exemplars, counts, doubles(p.get("bounds"), "bounds"), exp, doubles(p.get("quantiles"), "quantiles"),
        doubles(p.get("values"), "values"));
  }

  /** An array of numbers, or null when absent. */
  private static double[] doubles(Object o, String what) throws IOException {
    if (o == null) {
      return null;
    }
    List<Object> l = list(o, what);
    double[] out = new double[l.size()];
    for (int k = 0; k < out.length; k++) {
      out[k] = decimal(l.get(k), what);
    }
    return out;
  }

  /** The answer of {@code GET /api/v1/metrics}. */
  public static MetricList metrics(byte[] body) throws IOException {
    Map<String, Object> doc = object(parse(body), "the answer");
    List<MetricList.Metric> out = new ArrayList<>();
    for (Object o : list(doc.get("metrics"), "metrics")) {
      Map<String, Object> m = object(o, "a metric");
      List<String> keys = new ArrayList<>();
      for (Object k : list(m.get("attribute_keys"), "attribute_keys")) {
        if (!(k instanceof String ks)) {
          throw new IOException("\"attribute_keys\" holds a non-string: " + k);
        }
        keys.add(ks);
      }
      List<List<Double>> bounds = new ArrayList<>();
      for (Object b : list(m.get("bounds"), "bounds")) {
        List<Double> one = new ArrayList<>();
        for (Object x : list(b, "bounds")) {
          one.add(decimal(x, "bounds"));
        }
        bounds.add(one);
      }
      Object mono = m.get("monotonic");
      if (mono != null && !(mono instanceof Boolean)) {
        throw new IOException("\"monotonic\" is not a boolean: " + mono);
      }
      out.add(new MetricList.Metric(str(m, "name"), str(m, "type"), str(m, "unit"), str(m, "description"),
          (String) m.get("temporality"), (Boolean) mono, keys, bounds));
    }
    return new MetricList(out, stats(doc), refused(doc));
  }

  /** The answer of {@code POST /api/v1/entities}. */
  public static EntityList entities(byte[] body) throws IOException {
    Map<String, Object> doc = object(parse(body), "the answer");
    List<EntityList.Entity> out = new ArrayList<>();
    for (Object o : list(doc.get("entities"), "entities")) {
      Map<String, Object> e = object(o, "an entity");
      Long key = Entities.parse(str(e, "entity"));
      if (key == null) {
        throw new IOException("\"entity\" is not 16 hex digits: " + e.get("entity"));
      }
      Map<String, Object> sig = object(e.get("signals"), "signals");
      out.add(new EntityList.Entity(key, str(e, "rule"), entries(e.get("identity"), "identity"),
          (String) e.get("service.name"), num(sig, "logs"), num(sig, "traces"), num(sig, "metrics"),
          num(e, "first_seen"), num(e, "last_seen")));
    }
    Map<String, Object> n = object(doc.get("no_identity"), "no_identity");
    List<String> services = new ArrayList<>();
    for (Object o : list(n.get("services"), "no_identity.services")) {
      services.add(String.valueOf(o));
    }
    List<Long> hashes = null;
    if (n.get("resource_hashes") != null) {
      hashes = new ArrayList<>();
      for (Object o : list(n.get("resource_hashes"), "no_identity.resource_hashes")) {
        Long h = Entities.parse(String.valueOf(o));
        if (h == null) {
          throw new IOException("no_identity.resource_hashes holds " + o + ", not 16 hex digits");
        }
        hashes.add(h);
      }
    }
    return new EntityList(out, (int) num(doc, "total"), new EntityList.NoIdentity(num(n, "resources"),
        num(n, "records"), services, str(n, "hint"), hashes), stats(doc), refused(doc));
  }

  /** The answer of {@code GET /api/v1/services}, with each service's entity keys when the node wrote them. */
  public static ServiceList services(byte[] body) throws IOException {
    Map<String, Object> doc = object(parse(body), "the answer");
    List<ServiceList.Service> out = new ArrayList<>();
    for (Object o : list(doc.get("services"), "services")) {
      Map<String, Object> s = object(o, "a service");
      Map<String, Object> sig = object(s.get("signals"), "signals");
      long[] keys = new long[0];
      if (s.get("entity_keys") != null) {
        List<Object> raw = list(s.get("entity_keys"), "entity_keys");
        keys = new long[raw.size()];
        for (int i = 0; i < keys.length; i++) {
          Long k = Entities.parse(String.valueOf(raw.get(i)));
          if (k == null) {
            throw new IOException("\"entity_keys\" holds a value that is not 16 hex digits: " + raw.get(i));
          }
          keys[i] = k;
        }
      }
      out.add(new ServiceList.Service((String) s.get("service.name"), num(sig, "logs"), num(sig, "traces"),
          num(s, "span_errors"), num(sig, "metrics"), (int) num(s, "entities"), keys));
    }
    return new ServiceList(out, stats(doc), refused(doc));
  }

  /** The answer of {@code GET /api/v1/attributes}. */
  public static AttributeList attributes(byte[] body) throws IOException {
    Map<String, Object> doc = object(parse(body), "the answer");
    List<AttributeList.Key> keys = new ArrayList<>();
    for (Object o : list(doc.get("attributes"), "attributes")) {
      Map<String, Object> k = object(o, "an attribute");
      List<String> types = new ArrayList<>();
      for (Object t : list(k.get("types"), "types")) {
        if (!(t instanceof String ts)) {
          throw new IOException("\"types\" holds a non-string: " + t);
        }
        types.add(ts);
      }
      keys.add(new AttributeList.Key(str(k, "level"), str(k, "key"), types, num(k, "count")));
    }
    return new AttributeList(str(doc, "signal"), num(doc, "records"), keys, stats(doc), refused(doc));
  }

  /**
   * The answer of {@code POST /api/v1/facets}. A value is read back in the type named beside it,
   * so an int64, a double and bytes are themselves again and equal values of two answers are equal
   * (arrays and maps are read as the class comment says).
   */
  public static FacetList facets(byte[] body) throws IOException {
    Map<String, Object> doc = object(parse(body), "the answer");
    List<FacetList.Facet> facets = new ArrayList<>();
    for (Object o : list(doc.get("facets"), "facets")) {
      Map<String, Object> f = object(o, "a facet");
      List<FacetList.ValueCount> values = new ArrayList<>();
      for (Object v : list(f.get("values"), "values")) {
        Map<String, Object> vc = object(v, "a facet value");
        values.add(new FacetList.ValueCount(typed(vc.get("value"), str(vc, "type")), num(vc, "count")));
      }
      facets.add(new FacetList.Facet(str(f, "key"), str(f, "level"), num(f, "count"), num(f, "distinct"), values,
          num(f, "other")));
    }
    List<String> missing = new ArrayList<>();
    for (Object m : list(doc.get("missing"), "missing")) {
      if (!(m instanceof String ms)) {
        throw new IOException("\"missing\" holds a non-string: " + m);
      }
      missing.add(ms);
    }
    return new FacetList(str(doc, "signal"), num(doc, "records"), facets, missing, stats(doc), refused(doc));
  }

  /** A value written in its OTLP type, read back in the {@code type} named beside it. */
  private static Value typed(Object o, String type) throws IOException {
    try {
      return switch (type) {
        case "string" -> new Value.Str((String) o);
        case "int" -> new Value.Int(Long.parseLong((String) o));
        case "double" -> o instanceof String s ? new Value.F64(Double.parseDouble(s))
            : new Value.F64(((Number) o).doubleValue());
        case "bool" -> new Value.Bool((Boolean) o);
        case "bytes" -> new Value.Bytes(java.util.Base64.getDecoder().decode((String) o));
        case "empty" -> Value.Empty.INSTANCE;
        default -> value(o);
      };
    } catch (ClassCastException | IllegalArgumentException | NullPointerException e) {
      throw new IOException("a facet value of type " + type + " reads as " + o);
    }
  }

  /** The answer of {@code POST /api/v1/correlate} (its {@code queries} follow from the frame and are not kept). */
  public static CorrelateResult correlate(byte[] body) throws IOException {
    Map<String, Object> doc = object(parse(body), "the answer");
    Map<String, Object> f = object(doc.get("frame"), "frame");
    List<Frame.Member> members = new ArrayList<>();
    for (Object o : list(f.get("entities"), "entities")) {
      Map<String, Object> m = object(o, "an entity");
      Long key = Entities.parse(str(m, "entity"));
      if (key == null) {
        throw new IOException("\"entity\" is not 16 hex digits: " + m.get("entity"));
      }
      members.add(new Frame.Member(key, (String) m.get("service.name"), entries(m.get("identity"), "identity")));
    }
    List<String> traces = new ArrayList<>();
    for (Object o : list(f.get("traces"), "traces")) {
      if (!(o instanceof String t)) {
        throw new IOException("a trace id is not a string: " + o);
      }
      traces.add(t);
    }
    Map<String, Object> cut = object(doc.get("truncated"), "truncated");
    return new CorrelateResult(new Frame(num(f, "from"), num(f, "to"), members, traces), cut.get("traces") == Boolean.TRUE,
        cut.get("entities") == Boolean.TRUE, (int) num(doc, "anchor_rows"), stats(doc), refused(doc));
  }

  /** The answer of {@code POST /api/v1/map}. */
  public static ServiceMap map(byte[] body) throws IOException {
    Map<String, Object> doc = object(parse(body), "the answer");
    List<ServiceMap.Node> nodes = new ArrayList<>();
    for (Object o : list(doc.get("nodes"), "nodes")) {
      Map<String, Object> n = object(o, "a node");
      nodes.add(new ServiceMap.Node(str(n, "service"), (int) num(n, "entities"), num(n, "spans"), num(n, "errors"),
          decimal(n.get("p50_ms"), "p50_ms"), decimal(n.get("p99_ms"), "p99_ms"), n.get("virtual") == Boolean.TRUE));
    }
    List<ServiceMap.Edge> edges = new ArrayList<>();
    for (Object o : list(doc.get("edges"), "edges")) {
      Map<String, Object> e = object(o, "an edge");
      edges.add(new ServiceMap.Edge(str(e, "from"), str(e, "to"), num(e, "calls"), num(e, "errors"),
          decimal(e.get("p50_ms"), "p50_ms"), decimal(e.get("p99_ms"), "p99_ms"), str(e, "kind")));
    }
    return new ServiceMap(nodes, edges, doc.get("truncated") == Boolean.TRUE, stats(doc), refused(doc));
  }

  /** The answer of {@code GET /api/v1/alerts} (docs/alerting.md), the fields a reader of rules needs. */
  public static AlertList alerts(byte[] body) throws IOException {
    Map<String, Object> doc = object(parse(body), "the answer");
    List<AlertList.Alert> out = new ArrayList<>();
    for (Object o : list(doc.get("alerts"), "alerts")) {
      Map<String, Object> a = object(o, "an alert");
      Map<String, Object> th = object(a.get("threshold"), "threshold");
      boolean above = th.containsKey("above");
      Object line = th.get(above ? "above" : "below");
      String from = null;
      String to = null;
      if (a.get("window") != null) {
        Map<String, Object> w = object(a.get("window"), "window");
        from = str(w, "from");
        to = str(w, "to");
      }
      Object v = a.get("value");
      out.add(new AlertList.Alert(str(a, "name"), str(a, "kind"), str(a, "signal"), str(a, "state"),
          (String) a.get("since"), v == null ? null : decimal(v, "value"), above, decimal(line, "threshold"),
          str(a, "over"), str(a, "filter"), (String) a.get("of_filter"), from, to, (String) a.get("error")));
    }
    return new AlertList(doc.get("enabled") == Boolean.TRUE, (String) doc.get("reload_error"), out);
  }

  private static SeriesResult.Point point(long time, Object v, boolean unsigned) throws IOException {
    return switch (v) {
      case null -> new SeriesResult.Point(time, SeriesResult.NULL, 0, 0);
      case Double d -> new SeriesResult.Point(time, SeriesResult.DOUBLE, 0, d);
      case String t when t.equals("NaN") || t.equals("Infinity") || t.equals("-Infinity") ->
          new SeriesResult.Point(time, SeriesResult.DOUBLE, 0, Double.parseDouble(t));
      case String t -> {
        try {
          yield unsigned ? new SeriesResult.Point(time, SeriesResult.UNSIGNED, Long.parseUnsignedLong(t), 0)
              : new SeriesResult.Point(time, SeriesResult.LONG, Long.parseLong(t), 0);
        } catch (NumberFormatException e) {
          throw new IOException("a point's value is not a number: " + t);
        }
      }
      default -> throw new IOException("a point's value is not a number: " + v);
    };
  }

  private static double decimal(Object o, String what) throws IOException {
    return switch (o) {
      case Double d -> d;
      case Long l -> l;
      case String t when t.equals("NaN") || t.equals("Infinity") || t.equals("-Infinity") -> Double.parseDouble(t);
      case null, default -> throw new IOException("\"" + what + "\" holds a value that is not a number: " + o);
    };
  }

  /** The message of an error answer ({@code {"error": "..."}}), or null if the body has none. */
  public static String error(byte[] body) {
    try {
      return parse(body) instanceof Members m && m.asMap().get("error") instanceof String s ? s : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static LogRow log(Map<String, Object> r, Cursor at) throws IOException {
    long time = num(r, "time_unix_nano");
    Object body = r.get("body");
    return new LogRow(time, at == null ? -1 : at.node(), at == null ? -1 : at.seq(), at == null ? -1 : at.row(),
        num(r, "observed_time_unix_nano"), (int) num(r, "severity_number"), str(r, "severity_text"),
        str(r, "event_name"), body == null ? null : value(body), str(r, "trace_id"), str(r, "span_id"),
        num(r, "flags"), attributes(r), num(r, "dropped_attributes_count"), resource(r), scope(r));
  }

  private static SpanRow span(Map<String, Object> r, Cursor at) throws IOException {
    long start = num(r, "start_time_unix_nano");
    Map<String, Object> status = object(r.get("status"), "status");
    List<SpanRow.Event> events = new ArrayList<>();
    for (Object o : list(r.get("events"), "events")) {
      Map<String, Object> e = object(o, "an event");
      events.add(new SpanRow.Event(num(e, "time_unix_nano"), str(e, "name"), attributes(e),
          num(e, "dropped_attributes_count")));
    }
    List<SpanRow.Link> links = new ArrayList<>();
    for (Object o : list(r.get("links"), "links")) {
      Map<String, Object> l = object(o, "a link");
      links.add(new SpanRow.Link(str(l, "trace_id"), str(l, "span_id"), str(l, "trace_state"), num(l, "flags"),
          attributes(l), num(l, "dropped_attributes_count")));
    }
    return new SpanRow(at == null ? start : at.time(), at == null ? -1 : at.node(), at == null ? -1 : at.seq(),
        at == null ? -1 : at.row(), str(r, "trace_id"), str(r, "span_id"), str(r, "parent_span_id"),
        str(r, "trace_state"), num(r, "flags"), str(r, "name"), (int) num(r, "kind"), start,
        num(r, "end_time_unix_nano"), num(r, "duration_nano"), (int) num(status, "code"), str(status, "message"),
        attributes(r), num(r, "dropped_attributes_count"), events, num(r, "dropped_events_count"), links,
        num(r, "dropped_links_count"), resource(r), scope(r));
  }

  private static Resource resource(Map<String, Object> row) throws IOException {
    Map<String, Object> r = object(row.get("resource"), "resource");
    return new Resource(attributes(r), num(r, "dropped_attributes_count"), (String) r.get("schema_url"), entity(r));
  }

  /** The resource's {@code entity}: 16 hex digits, or null for a resource without identity. */
  private static long entity(Map<String, Object> r) throws IOException {
    if (!r.containsKey("entity")) {
      throw new IOException("\"entity\" is missing from a resource");
    }
    Object o = r.get("entity");
    if (o == null) {
      return Resource.NO_ENTITY;
    }
    Long key = o instanceof String s ? Entities.parse(s) : null;
    if (key == null || key == Resource.NO_ENTITY) {
      throw new IOException("\"entity\" is not 16 hex digits naming an entity: " + o);
    }
    return key;
  }

  private static Scope scope(Map<String, Object> row) throws IOException {
    Map<String, Object> s = object(row.get("scope"), "scope");
    return new Scope(str(s, "name"), str(s, "version"), attributes(s), num(s, "dropped_attributes_count"),
        (String) s.get("schema_url"));
  }

  private static List<Attribute> attributes(Map<String, Object> holder) throws IOException {
    return entries(holder.get("attributes"), "attributes");
  }

  /** A JSON object's members in order; repeated keys are kept (see {@link #parse}). */
  private static List<Attribute> entries(Object o, String what) throws IOException {
    if (!(o instanceof Members m)) {
      throw new IOException(what + " is not an object");
    }
    List<Attribute> out = new ArrayList<>(m.keys.size());
    for (int i = 0; i < m.keys.size(); i++) {
      out.add(new Attribute(m.keys.get(i), value(m.values.get(i))));
    }
    return out;
  }

  private static Value value(Object o) throws IOException {
    return switch (o) {
      case null -> Value.Empty.INSTANCE;
      case String s -> new Value.Str(s);
      case Boolean b -> new Value.Bool(b);
      case Double d -> new Value.F64(d);
      case Long l -> new Value.F64(l);
      case Members m -> new Value.KvList(entries(m, "a value"));
      case List<?> l -> {
        List<Value> items = new ArrayList<>(l.size());
        for (Object x : l) {
          items.add(value(x));
        }
        yield new Value.Array(items);
      }
      default -> throw new IOException("unexpected value " + o);
    };
  }

  private static Stats stats(Map<String, Object> doc) throws IOException {
    Map<String, Object> s = object(doc.get("stats"), "stats");
    return new Stats((int) num(s, "blocks_total"), (int) num(s, "blocks_pruned"), (int) num(s, "blocks_scanned"),
        num(s, "rows_scanned"), num(s, "rows_matched"), num(s, "took_ms"));
  }

  private static List<Refused> refused(Map<String, Object> doc) throws IOException {
    List<Refused> out = new ArrayList<>();
    if (doc.get("refused") != null) {
      for (Object o : list(doc.get("refused"), "refused")) {
        Map<String, Object> r = object(o, "a refused block");
        out.add(new Refused(str(r, "block"), str(r, "reason")));
      }
    }
    return out;
  }

  private static String str(Map<String, Object> m, String key) throws IOException {
    if (!(m.get(key) instanceof String s)) {
      throw new IOException("\"" + key + "\" is missing or not a string");
    }
    return s;
  }

  /** A 64-bit integer written as a decimal string, or a number (block counts, enums). */
  private static long num(Map<String, Object> m, String key) throws IOException {
    Object o = m.get(key);
    if (o instanceof Long l) {
      return l;
    }
    if (o instanceof String s) {
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException e) {
        throw new IOException("\"" + key + "\" is not an integer: " + s);
      }
    }
    throw new IOException("\"" + key + "\" is missing or not an integer");
  }

  private static Map<String, Object> object(Object o, String what) throws IOException {
    if (!(o instanceof Members m)) {
      throw new IOException(what + " is not an object");
    }
    return m.asMap();
  }

  private static List<Object> list(Object o, String what) throws IOException {
    if (!(o instanceof List<?> l)) {
      throw new IOException("\"" + what + "\" is missing or not an array");
    }
    @SuppressWarnings("unchecked")
    List<Object> out = (List<Object>) l;
    return out;
  }

  /** An object's members in order, repeated keys kept (attribute lists may repeat a key). */
  private static final class Members {
    final List<String> keys = new ArrayList<>();
    final List<Object> values = new ArrayList<>();

    /** An object of these keys and values, alternating. */
    static Members of(Object... keysAndValues) {
      Members m = new Members();
      for (int i = 0; i < keysAndValues.length; i += 2) {
        m.keys.add((String) keysAndValues[i]);
        m.values.add(keysAndValues[i + 1]);
      }
      return m;
    }

    Map<String, Object> asMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      for (int i = 0; i < keys.size(); i++) {
        m.putIfAbsent(keys.get(i), values.get(i));
      }
      return m;
    }
  }

  /**
   * Parses a document into Members, List, String, Boolean, Long (integral numbers), Double (other
   * numbers; "NaN" and the infinities arrive as strings) and null.
   */
  private static Object parse(byte[] body) throws IOException {
    try (JsonParser p = JSON.createParser(body)) {
      p.nextToken();
      Object o = read(p, 0);
      if (p.nextToken() != null) {
        throw new IOException("trailing content after the answer");
      }
      return o;
    }
  }

  private static Object read(JsonParser p, int depth) throws IOException {
    if (depth > 64) {
      throw new IOException("the answer is nested deeper than 64 levels");
    }
    JsonToken t = p.currentToken();
    if (t == null) {
      throw new IOException("the answer is empty");
    }
    return switch (t) {
      case START_OBJECT -> {
        Members m = new Members();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          m.keys.add(p.currentName());
          p.nextToken();
          m.values.add(read(p, depth + 1));
        }
        yield m;
      }
      case START_ARRAY -> {
        List<Object> l = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          l.add(read(p, depth + 1));
        }
        yield l;
      }
      case VALUE_STRING -> p.getText();
      case VALUE_NUMBER_INT -> attributeNumber(p);
      case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> null;
      default -> throw new IOException("unexpected " + t + " in the answer");
    };
  }

  /**
   * An integral JSON number: a Long for the counts and enums Mira writes as numbers. A double
   * attribute value that happens to be whole is written by the renderer as {@code 2.0}, so an
   * integral number is never a double value.
   */
  private static Object attributeNumber(JsonParser p) throws IOException {
    return p.getLongValue();
  }
}
