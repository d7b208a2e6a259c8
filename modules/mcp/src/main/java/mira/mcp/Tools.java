package mira.mcp;

import static mira.mcp.Tree.obj;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import mira.cluster.Cluster;
import mira.cluster.Sources;
import mira.query.doc.Cursor;
import mira.query.result.Row;
import mira.query.render.AttributeJson;
import mira.query.render.EntityJson;
import mira.query.render.FrameJson;
import mira.query.render.MapJson;
import mira.query.render.ResponseJson;
import mira.query.render.SeriesJson;
import mira.query.result.AttributeList;
import mira.query.result.BusyException;
import mira.query.result.FacetList;
import mira.query.result.CorrelateResult;
import mira.query.result.EntityList;
import mira.query.result.ServiceList;
import mira.query.result.ServiceMap;
import mira.query.result.MetricList;
import mira.query.result.QueryException;
import mira.query.result.SearchResult;
import mira.query.result.SeriesResult;
import mira.query.result.TraceResult;

/**
 * The tools: each one a call of the same typed operation the HTTP API makes, its answer rendered
 * by the same renderer. Arguments go to the query grammar as they are, so a wrong one is refused
 * with the grammar's own message naming it (a tool result with {@code isError}, not a protocol error).
 */
final class Tools {
  /** Rows per {@code query_records} answer unless the caller asks for more: a page an agent can read whole. */
  static final long DEFAULT_LIMIT = 20;

  private static final String Q = "filter text, e.g. service.name=checkout severity_number>=17 \"timeout\" "
      + "(= != > >= < <= ~contains ?exists, -negates; a bare word searches the text)";

  private final Cluster cluster;
  private final java.util.function.Supplier<byte[]> alerts;

  Tools(Cluster cluster, java.util.function.Supplier<byte[]> alerts) {
    this.cluster = cluster;
    this.alerts = alerts;
  }

  /**
   * What a call produced: the typed answer as JSON and a one-line summary of it; {@code list}
   * names the member whose entries the budget may leave out, {@code rest} says how to get them
   * (null: a larger {@code max_tokens}).
   */
  record Answer(byte[] json, String summary, String list, Budget.Rest rest) {
    Answer(byte[] json, String summary) {
      this(json, summary, null, null);
    }
  }

  /** A tool's arguments were wrong, or the engine refused them; {@code message} names why. */
  static final class Refusal extends Exception {
    Refusal(String message) {
      super(message);
    }
  }

  /** The tools/list entries, built once: they depend on nothing but this class. */
  private static final List<Object> LIST = build();

  /** The names of the tools, for {@link #exists}. */
  private static final java.util.Set<Object> NAMES = LIST.stream().map(t -> ((Map<?, ?>) t).get("name"))
      .collect(java.util.stream.Collectors.toUnmodifiableSet());

  /** The tools/list entries (shared: callers write them out, never change them). */
  static List<Object> list() {
    return LIST;
  }

  private static List<Object> build() {
    List<Object> out = new ArrayList<>();
    out.add(tool("query_records", "Search logs or spans",
        "Logs or spans in a time window matching the query grammar's where terms, newest first. "
            + "Page with after = the answer's next.",
        obj("signal", prop("string", "logs or traces", List.of("logs", "traces")),
            "from", prop("string", "start of the window: ns since the epoch, RFC 3339, or relative like -15m", null),
            "to", prop("string", "end of the window (default now)", null),
            "where", obj("type", "array", "description", "terms of the query grammar (docs/api.md), all must hold",
                "items", obj("type", "object")),
            "q", prop("string", Q, null),
            "limit", obj("type", "integer", "minimum", 1, "maximum", 10_000,
                "description", "rows per page (default " + DEFAULT_LIMIT + ")"),
            "after", prop("string", "the next cursor of the previous page", null)),
        List.of("signal"), "rows"));
    out.add(tool("get_trace", "Get a trace",
        "One trace, from all of retention: a summary of the whole trace (services with span and error "
            + "counts, the error spans with the ones where a failure started first, the critical path, the "
            + "slowest spans), then its spans in tree order (each parent before its children, with depth), "
            + "the first max_spans of them.",
        obj("trace_id", prop("string", "32 lowercase hex digits", null),
            "service", prop("string", "list only the spans of this service.name (the summary stays whole)", null),
            "max_spans", obj("type", "integer", "minimum", 1, "maximum", 100_000,
                "description", "spans listed (default " + TraceView.DEFAULT_MAX_SPANS + ")")),
        List.of("trace_id"), "rows"));
    out.add(tool("list_metrics", "List metrics", "The metrics with a data point in the window (passing q, if "
            + "given): name, type, unit, temporality, the point attribute keys.",
        obj("from", prop("string", "start of the window (default the last hour)", null),
            "to", prop("string", "end of the window (default now)", null),
            "q", prop("string", "filter text over the points' and resources' attributes, e.g. service.name=checkout",
                null)),
        List.of(), "metrics"));
    out.add(tool("query_metric", "Query a metric",
        "Series of one metric; with step and fn (rate, increase, last, min, max, count, avg, quantile) one "
            + "value per step, optionally grouped by attributes.",
        obj("name", prop("string", "the metric name (histograms: name.count / name.sum, or name with fn quantile)", null),
            "from", prop("string", "start of the window", null),
            "to", prop("string", "end of the window (default now)", null),
            "where", obj("type", "array", "items", obj("type", "object"), "description", "terms of the query grammar"),
            "q", prop("string", "filter text over the series' attributes, e.g. service.name=checkout", null),
            "step", prop("string", "bucket width, e.g. 1m", null),
            "fn", prop("string", "function per step", null),
            "quantile", obj("type", "number", "minimum", 0, "maximum", 1),
            "group_by", obj("type", "array", "items", obj("type", "string")),
            "agg", prop("string", "how grouped series combine: sum, avg, min, max, count", null),
            "max_series", obj("type", "integer", "minimum", 1),
            "max_points", obj("type", "integer", "minimum", 1)),
        List.of("name"), "series"));
    out.add(tool("list_services", "List services",
        "Every service.name with records in the window: logs, spans, metric points, span errors, entities.",
        obj("from", prop("string", "start of the window (default the last hour)", null),
            "to", prop("string", "end of the window (default now)", null)),
        List.of(), "services"));
    out.add(tool("list_entities", "List entities",
        "The entities (pods, service instances, hosts, containers) with records in the window, with the "
            + "identity rule that names them, record counts per signal and first/last seen; resources "
            + "without identity are counted with the attribute that would fix them.",
        obj("from", prop("string", "start of the window (default the last hour)", null),
            "to", prop("string", "end of the window (default now)", null),
            "where", obj("type", "array", "items", obj("type", "object"), "description",
                "attr and entity terms over the resource"),
            "q", prop("string", "filter text over resource attributes, e.g. k8s.namespace.name=prod", null),
            "limit", obj("type", "integer", "minimum", 1, "maximum", 10_000)),
        List.of(), "entities"));
    out.add(tool("correlate", "Correlate",
        "What else happened around some records: from an anchor query (or an earlier answer's frame), "
            + "expanders traces (the anchor's traces, whole), peers (every entity in those traces) and "
            + "{\"around\": \"5s\"} widen a frame; the answer's queries.logs / queries.traces go to "
            + "query_records unchanged and return the frame's records.",
        obj("anchor", obj("type", "object", "description",
                "a query_records argument object: signal, from, to, q or where, limit"),
            "frame", obj("type", "object", "description", "the frame of an earlier correlate answer, to continue from"),
            "expand", obj("type", "array", "description", "\"traces\", \"peers\", {\"around\": \"5s\"}, in order"),
            "max_traces", obj("type", "integer", "minimum", 1, "maximum", 10_000),
            "max_entities", obj("type", "integer", "minimum", 1, "maximum", 10_000)),
        List.of(), "frame", "object"));
    out.add(tool("service_map", "Service map",
        "Who calls whom among the spans of a window: services and the databases and queues they call, "
            + "with calls, errors and p50/p99 latency per edge.",
        obj("from", prop("string", "start of the window (default the last hour, or the frame's)", null),
            "to", prop("string", "end of the window", null),
            "where", obj("type", "array", "items", obj("type", "object"), "description", "span terms"),
            "q", prop("string", Q, null),
            "frame", obj("type", "object", "description", "count only the spans of this correlate frame")),
        List.of(), "nodes"));
    out.add(tool("list_attributes", "List attribute keys",
        "The attribute keys carried by the logs or spans of a window, each with its level (resource, scope "
            + "or record), the value types seen and how many records carry it; records is the total. Use it to "
            + "learn which keys q and where can filter on, then attribute_values for a key's values.",
        obj("signal", prop("string", "logs or traces", List.of("logs", "traces")),
            "from", prop("string", "start of the window (default the last hour)", null),
            "to", prop("string", "end of the window (default now)", null)),
        List.of("signal"), "attributes"));
    out.add(tool("attribute_values", "Top values of an attribute",
        "The most frequent values of one attribute key among the logs or spans a filter selects, with "
            + "exact counts, per level the key was seen at; other counts the records whose value is not "
            + "listed and distinct the number of values (raise limit for more).",
        obj("signal", prop("string", "logs or traces", List.of("logs", "traces")),
            "key", prop("string", "the attribute key, e.g. service.name or http.route", null),
            "from", prop("string", "start of the window (default the last hour)", null),
            "to", prop("string", "end of the window (default now)", null),
            "q", prop("string", Q, null),
            "where", obj("type", "array", "items", obj("type", "object"), "description", "terms of the query grammar"),
            "limit", obj("type", "integer", "minimum", 1, "maximum", 10_000,
                "description", "values listed (default " + mira.query.doc.Documents.DEFAULT_FACET_LIMIT + ")")),
        List.of("signal", "key"), "facets"));
    out.add(tool("list_alerts", "List alerts",
        "Every alert rule of this node, firing or not: state (ok, pending, firing, error), since, the last "
            + "value and counts, the rule's filter text and link (send filter with the window to query_records "
            + "to see the rows that were counted), the last delivery per target, and why an evaluation failed. "
            + "enabled is false when alerting is off.",
        obj(), List.of(), "alerts"));
    return out;
  }

  private static Map<String, Object> prop(String type, String description, List<String> choices) {
    Map<String, Object> p = obj("type", type, "description", description);
    if (choices != null) {
      p.put("enum", new ArrayList<Object>(choices));
    }
    return p;
  }

  private static Map<String, Object> tool(String name, String title, String description, Map<String, Object> props,
      List<String> required, String resultKey) {
    return tool(name, title, description, props, required, resultKey, "array");
  }

  private static Map<String, Object> tool(String name, String title, String description, Map<String, Object> props,
      List<String> required, String resultKey, String resultType) {
    Map<String, Object> all = new LinkedHashMap<>(props);
    Budget.declare(all);
    Map<String, Object> input = obj("type", "object", "properties", all, "additionalProperties", false);
    if (!required.isEmpty()) {
      input.put("required", new ArrayList<Object>(required));
    }
    return obj("name", name, "title", title, "description", description, "inputSchema", input,
        "outputSchema", obj("type", "object", "properties", obj(resultKey, obj("type", resultType)),
            "required", List.of(resultKey)),
        "annotations", obj("readOnlyHint", true, "openWorldHint", false));
  }

  /** True if {@code name} is a tool. */
  static boolean exists(String name) {
    return NAMES.contains(name);
  }

  /**
   * A cluster answer as a tool's: the document with its sources, and the summary saying which
   * nodes answered — a partial answer names the missing nodes and why, in the text an agent reads.
   */
  private static <T> Answer answer(Cluster.Answer<T> a, Function<T, byte[]> render, String summary, String list) {
    return answer(a, render, summary, list, null);
  }

  private static <T> Answer answer(Cluster.Answer<T> a, Function<T, byte[]> render, String summary, String list,
      Budget.Rest rest) {
    byte[] doc = render.apply(a.result());
    Sources s = a.sources();
    if (s == null) {
      return new Answer(doc, summary, list, rest);
    }
    String nodes = s.partial()
        ? "; PARTIAL: " + s.answered() + " of " + s.asked() + " nodes answered (" + String.join("; ", s.failures()) + ")"
        : "; all " + s.asked() + " nodes answered";
    return new Answer(s.appendTo(doc), summary + nodes, list, rest);
  }

  /**
   * Calls tool {@code name}: the two budget arguments are taken out, the rest go to the engine,
   * and the answer is fitted to the budget ({@link Budget}).
   */
  Answer call(String name, Map<String, Object> arguments) throws Refusal, IOException {
    Map<String, Object> args = new LinkedHashMap<>(arguments);
    Budget.Limits limits = Budget.take(args);
    Answer a = compute(name, args);
    if (!(Tree.parseAnswer(a.json()) instanceof Map<?, ?> m)) {
      return a;
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> doc = (Map<String, Object>) m;
    Budget.Shaped shaped = Budget.shape(doc, limits, a.list(), a.rest());
    return new Answer(shaped.json(), a.summary() + shaped.note());
  }

  private Answer compute(String name, Map<String, Object> args) throws Refusal, IOException {
    try {
      return switch (name) {
        case "query_records" -> {
          Map<String, Object> doc = new LinkedHashMap<>(args);
          doc.putIfAbsent("limit", DEFAULT_LIMIT);
          Cluster.Answer<SearchResult> a = cluster.search(Tree.bytes(doc));
          SearchResult r = a.result();
          // A budget cut continues right after the last row kept: its place in the order is the cursor.
          Budget.Rest rest = (d, kept, needed) -> {
            Row last = r.rows().get(kept - 1);
            String after = new Cursor(last.time(), last.node(), last.seq(), last.row()).encode();
            d.put("next", after);
            return "call again with after=" + after + " for the rest";
          };
          yield answer(a, ResponseJson::search, r.rows().size() + " rows"
              + (r.next() != null ? "; more: call again with after = next" : "") + "; " + r.stats().blocksScanned()
              + " of " + r.stats().blocksTotal() + " blocks read", "rows", rest);
        }
        case "get_trace" -> {
          for (String k : args.keySet()) {
            if (!k.equals("trace_id") && !k.equals("service") && !k.equals("max_spans")) {
              throw new Refusal("unknown argument \"" + k + "\"; get_trace takes trace_id, service, max_spans");
            }
          }
          if (!(args.get("trace_id") instanceof String id)) {
            throw new Refusal("get_trace needs trace_id: a string of 32 hex digits");
          }
          Object max = args.getOrDefault("max_spans", (long) TraceView.DEFAULT_MAX_SPANS);
          if (!(max instanceof Long n) || n < 1 || n > 100_000) {
            throw new Refusal("\"max_spans\" must be a whole number from 1 to 100000, not " + max);
          }
          String service = text(args, "service");
          Cluster.Answer<TraceResult> a = cluster.trace(id);
          TraceView.Built[] built = new TraceView.Built[1];
          Function<TraceResult, byte[]> render = t -> {
            try {
              built[0] = TraceView.build(t, service, (int) (long) n);
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
            return built[0].json();
          };
          Answer shaped = answer(a, render, "", "rows", (d, kept, needed) ->
              "call again with max_spans=" + kept + " and service=<one of summary.services> to read one service's "
                  + "spans, or max_tokens=" + (needed / Budget.CHARS_PER_TOKEN + 1) + " for all " + built[0].listed());
          TraceView.Built b = built[0];
          String line = b.spans() + " spans in " + b.services() + " services, " + b.errors() + " with errors; "
              + (b.listed() < b.matching()
                  ? "listed the first " + b.listed() + " of " + b.matching() + " in tree order (max_spans=" + b.matching()
                      + " lists all)"
                  : "listed " + (service == null ? "all" : "the " + b.matching() + " of " + service) + " in tree order");
          yield new Answer(shaped.json(), line + shaped.summary(), shaped.list(), shaped.rest());
        }
        case "list_metrics" -> {
          for (String k : args.keySet()) {
            if (!k.equals("from") && !k.equals("to") && !k.equals("q")) {
              throw new Refusal("unknown argument \"" + k + "\"; list_metrics takes from, to, q");
            }
          }
          Cluster.Answer<MetricList> a = cluster.metrics(text(args, "from"), text(args, "to"), text(args, "q"));
          yield answer(a, SeriesJson::metrics, a.result().metrics().size() + " metrics", "metrics");
        }
        case "query_metric" -> {
          Cluster.Answer<SeriesResult> a = cluster.series(Tree.bytes(args));
          SeriesResult r = a.result();
          yield answer(a, SeriesJson::series, r.series().size() + " series"
              + (r.droppedSeries() > 0 ? "; " + r.droppedSeries() + " more left out by max_series" : ""), "series");
        }
        case "list_services" -> {
          for (String k : args.keySet()) {
            if (!k.equals("from") && !k.equals("to")) {
              throw new Refusal("unknown argument \"" + k + "\"; list_services takes from, to");
            }
          }
          Cluster.Answer<ServiceList> a = cluster.services(text(args, "from"), text(args, "to"));
          yield answer(a, EntityJson::services, a.result().services().size() + " services", "services");
        }
        case "list_entities" -> {
          Cluster.Answer<EntityList> a = cluster.entities(Tree.bytes(args));
          EntityList r = a.result();
          yield answer(a, EntityJson::entities, r.entities().size() + " entities"
              + (r.truncated() ? " of " + r.total() + "; raise limit for the rest" : "")
              + (r.noIdentity().resources() > 0 ? "; " + r.noIdentity().resources() + " resources without identity" : ""),
              "entities");
        }
        case "correlate" -> {
          Cluster.Answer<CorrelateResult> a = cluster.correlate(Tree.bytes(args));
          CorrelateResult r = a.result();
          yield answer(a, FrameJson::correlate, r.anchorRows() + " anchor rows; frame of "
              + r.frame().entities().size() + " entities and " + r.frame().traces().size() + " traces"
              + (r.tracesTruncated() || r.entitiesTruncated() ? " (truncated)" : "")
              + "; send queries.logs or queries.traces to query_records", null);
        }
        case "service_map" -> {
          Cluster.Answer<ServiceMap> a = cluster.map(Tree.bytes(args));
          ServiceMap r = a.result();
          yield answer(a, MapJson::map, r.nodes().size() + " nodes, " + r.edges().size() + " edges"
              + (r.truncated() ? " (truncated: too many spans in the window)" : ""), "edges");
        }
        case "list_attributes" -> {
          for (String k : args.keySet()) {
            if (!k.equals("signal") && !k.equals("from") && !k.equals("to")) {
              throw new Refusal("unknown argument \"" + k + "\"; list_attributes takes signal, from, to");
            }
          }
          Cluster.Answer<AttributeList> a = cluster.attributes(text(args, "signal"), text(args, "from"), text(args, "to"));
          AttributeList r = a.result();
          yield answer(a, AttributeJson::attributes, r.keys().size() + " keys over " + r.records() + " "
              + r.signal() + " records", "attributes");
        }
        case "attribute_values" -> {
          Map<String, Object> doc = new LinkedHashMap<>(args);
          Object key = doc.remove("key");
          if (!(key instanceof String k) || k.isEmpty()) {
            throw new Refusal("attribute_values needs key: the attribute key whose values to count");
          }
          doc.put("keys", List.of(k));
          Cluster.Answer<FacetList> a = cluster.facets(Tree.bytes(doc));
          FacetList r = a.result();
          yield answer(a, AttributeJson::facets, facetSummary(k, r), null);
        }
        case "list_alerts" -> {
          if (!args.isEmpty()) {
            throw new Refusal("list_alerts takes no arguments");
          }
          byte[] doc = alerts.get();
          yield new Answer(doc, alertSummary(doc), "alerts", null);
        }
        default -> throw new IllegalArgumentException("no tool " + name);
      };
    } catch (QueryException e) {
      throw new Refusal(e.getMessage());
    } catch (BusyException e) {
      throw new Refusal("every query slot is busy; retry in a second (" + e.getMessage() + ")");
    }
  }

  /** {@code http.route (record): 3 of 4 distinct values listed over 120 records; 7 more records in other values (raise limit)}. */
  static String facetSummary(String key, FacetList r) {
    if (r.facets().isEmpty()) {
      return "no record of the " + r.records() + " " + r.signal() + " records selected carries " + key;
    }
    StringBuilder out = new StringBuilder();
    for (FacetList.Facet f : r.facets()) {
      if (!out.isEmpty()) {
        out.append("; ");
      }
      out.append(key).append(" (").append(f.level()).append("): ").append(f.values().size()).append(" of ")
          .append(f.distinct()).append(" distinct values over ").append(f.count()).append(" of ")
          .append(r.records()).append(" records");
      if (f.other() > 0) {
        out.append(", ").append(f.other()).append(" more records in values not listed (raise limit for them)");
      }
    }
    return out.toString();
  }

  /** {@code 3 rules: 1 firing (checkout-errors), 0 pending, 1 error (p95)}, or that alerting is off. */
  static String alertSummary(byte[] doc) throws IOException {
    Map<?, ?> d = (Map<?, ?>) Tree.parse(doc);
    if (!Boolean.TRUE.equals(d.get("enabled"))) {
      return "alerting is off on this node (alert.rules is not set)";
    }
    List<?> rules = (List<?>) d.get("alerts");
    Map<String, List<String>> by = new LinkedHashMap<>();
    for (String s : List.of("firing", "pending", "error")) {
      by.put(s, new ArrayList<>());
    }
    for (Object o : rules) {
      Map<?, ?> r = (Map<?, ?>) o;
      List<String> l = by.get((String) r.get("state"));
      if (l != null) {
        l.add((String) r.get("name"));
      }
    }
    StringBuilder out = new StringBuilder(rules.size() + " rules");
    for (Map.Entry<String, List<String>> e : by.entrySet()) {
      out.append(out.indexOf(":") < 0 ? ": " : ", ").append(e.getValue().size()).append(' ').append(e.getKey());
      if (!e.getValue().isEmpty()) {
        out.append(" (").append(String.join(", ", e.getValue())).append(')');
      }
    }
    if (d.get("reload_error") != null) {
      out.append("; the last reload failed: ").append(d.get("reload_error"));
    }
    return out.toString();
  }

  private static String text(Map<String, Object> args, String key) throws Refusal {
    Object v = args.get(key);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s)) {
      throw new Refusal("\"" + key + "\" must be a string");
    }
    return s;
  }
}
