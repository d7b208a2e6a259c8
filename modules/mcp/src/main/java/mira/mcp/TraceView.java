package mira.mcp;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mira.query.render.ResponseJson;
import mira.query.result.Attribute;
import mira.query.result.SpanRow;
import mira.query.result.TraceResult;
import mira.query.result.Value;

/**
 * {@code get_trace}'s answer: a summary an agent can reason from without reading every span
 * (services, errors, the critical path, the slowest spans), then the spans in tree order — each
 * parent before its children, siblings by start time, each row with its {@code depth} — up to
 * {@code max_spans}. The summary always covers the whole trace; {@code service} narrows the rows only.
 */
final class TraceView {
  /** Spans listed unless the caller asks for more: the top of the tree, which is where a trace is read from. */
  static final int DEFAULT_MAX_SPANS = 50;
  /** Entries of the summary's lists (error spans, slowest spans). */
  static final int LISTED = 10;

  private TraceView() {}

  /** What the answer holds, for the summary line. */
  record Built(byte[] json, int spans, int listed, int matching, int errors, int services) {}

  static Built build(TraceResult r, String service, int maxSpans) throws IOException {
    List<SpanRow> spans = r.spans();
    Map<String, SpanRow> byId = new HashMap<>();
    for (SpanRow s : spans) {
      byId.putIfAbsent(s.spanId(), s);
    }
    // Children in start order: the result is sorted by start time, then span id.
    Map<String, List<SpanRow>> children = new HashMap<>();
    List<SpanRow> roots = new ArrayList<>();
    for (SpanRow s : spans) {
      String p = s.parentSpanId();
      if (p == null || p.isEmpty() || !byId.containsKey(p) || p.equals(s.spanId())) {
        roots.add(s);
      } else {
        children.computeIfAbsent(p, k -> new ArrayList<>()).add(s);
      }
    }

    List<SpanRow> order = new ArrayList<>(spans.size());
    Map<SpanRow, Integer> depth = new java.util.IdentityHashMap<>();
    Deque<SpanRow> stack = new ArrayDeque<>();
    for (int i = roots.size() - 1; i >= 0; i--) {
      stack.push(roots.get(i));
      depth.put(roots.get(i), 0);
    }
    while (!stack.isEmpty()) {
      SpanRow s = stack.pop();
      order.add(s);
      List<SpanRow> kids = children.getOrDefault(s.spanId(), List.of());
      for (int i = kids.size() - 1; i >= 0; i--) {
        SpanRow k = kids.get(i);
        if (depth.putIfAbsent(k, depth.get(s) + 1) == null) {
          stack.push(k);
        }
      }
    }

    List<SpanRow> matching = new ArrayList<>();
    for (SpanRow s : order) {
      if (service == null || service.equals(serviceOf(s))) {
        matching.add(s);
      }
    }
    List<SpanRow> listed = matching.subList(0, Math.min(maxSpans, matching.size()));

    Map<String, Object> summary = summary(spans, roots, children);
    byte[] rendered = ResponseJson.trace(new TraceResult(r.traceId(), listed, r.stats(), r.refused()));
    @SuppressWarnings("unchecked")
    Map<String, Object> doc = (Map<String, Object>) Tree.parseAnswer(rendered);
    @SuppressWarnings("unchecked")
    List<Object> rows = (List<Object>) doc.get("rows");
    for (int i = 0; i < rows.size(); i++) {
      @SuppressWarnings("unchecked")
      Map<String, Object> row = (Map<String, Object>) rows.get(i);
      Map<String, Object> withDepth = new LinkedHashMap<>();
      withDepth.put("depth", (long) depth.get(listed.get(i)));
      withDepth.put("service", serviceOf(listed.get(i)));
      withDepth.putAll(row);
      rows.set(i, withDepth);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("trace_id", r.traceId());
    out.put("summary", summary);
    if (service != null) {
      out.put("service", service);
    }
    out.put("spans_listed", (long) listed.size());
    out.put("spans_matching", (long) matching.size());
    out.put("rows", rows);
    out.put("stats", doc.get("stats"));
    out.put("refused", doc.get("refused"));
    int errors = ((Number) summary.get("errors")).intValue();
    int services = ((List<?>) summary.get("services")).size();
    return new Built(Tree.bytes(out), spans.size(), listed.size(), matching.size(), errors, services);
  }

  private static Map<String, Object> summary(List<SpanRow> spans, List<SpanRow> roots,
      Map<String, List<SpanRow>> children) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("spans", (long) spans.size());
    if (spans.isEmpty()) {
      out.put("errors", 0L);
      out.put("services", List.of());
      return out;
    }
    long start = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    Map<String, long[]> perService = new TreeMap<>();
    List<SpanRow> failed = new ArrayList<>();
    for (SpanRow s : spans) {
      start = Math.min(start, s.startTimeUnixNano());
      end = Math.max(end, s.endTimeUnixNano());
      long[] c = perService.computeIfAbsent(serviceOf(s), k -> new long[2]);
      c[0]++;
      if (s.statusCode() == 2) {
        c[1]++;
        failed.add(s);
      }
    }
    out.put("start_time_unix_nano", Long.toString(start));
    out.put("duration_nano", Long.toString(end - start));
    out.put("errors", (long) failed.size());
    List<Object> services = new ArrayList<>();
    perService.forEach((name, c) -> services.add(Tree.obj("service", name, "spans", c[0], "errors", c[1])));
    out.put("services", services);
    List<Object> rootList = new ArrayList<>();
    for (SpanRow r : roots.subList(0, Math.min(LISTED, roots.size()))) {
      rootList.add(brief(r));
    }
    out.put("roots", rootList);
    if (roots.size() > LISTED) {
      out.put("roots_not_listed", (long) (roots.size() - LISTED));
    }

    // The errors that start a failure: failed spans none of whose children failed come first,
    // since that is where the cause is; the spans above them only pass the failure on.
    List<Object> errorList = new ArrayList<>();
    failed.sort(Comparator.comparing((SpanRow s) -> hasFailedChild(s, children)).thenComparingLong(SpanRow::startTimeUnixNano));
    for (SpanRow s : failed.subList(0, Math.min(LISTED, failed.size()))) {
      Map<String, Object> b = brief(s);
      b.put("origin", !hasFailedChild(s, children));
      b.put("message", s.statusMessage());
      errorList.add(b);
    }
    out.put("error_spans", errorList);

    // The critical path: from the longest root, down through the child that ends last, which is
    // the one the parent was waiting for when it finished.
    SpanRow at = roots.stream().max(Comparator.comparingLong(SpanRow::durationNano)).orElseThrow();
    List<Object> path = new ArrayList<>();
    while (at != null && path.size() < 64) {
      SpanRow next = children.getOrDefault(at.spanId(), List.of()).stream()
          .max(Comparator.comparingLong(SpanRow::endTimeUnixNano)).orElse(null);
      Map<String, Object> b = brief(at);
      b.put("self_nano", Long.toString(at.durationNano() - (next == null ? 0 : Math.min(at.durationNano(), next.durationNano()))));
      path.add(b);
      at = next;
    }
    out.put("critical_path", path);

    List<SpanRow> slow = new ArrayList<>(spans);
    slow.sort(Comparator.comparingLong(SpanRow::durationNano).reversed());
    List<Object> slowest = new ArrayList<>();
    for (SpanRow s : slow.subList(0, Math.min(5, slow.size()))) {
      slowest.add(brief(s));
    }
    out.put("slowest_spans", slowest);
    return out;
  }

  private static boolean hasFailedChild(SpanRow s, Map<String, List<SpanRow>> children) {
    for (SpanRow k : children.getOrDefault(s.spanId(), List.of())) {
      if (k.statusCode() == 2) {
        return true;
      }
    }
    return false;
  }

  private static Map<String, Object> brief(SpanRow s) {
    return Tree.obj("span_id", s.spanId(), "service", serviceOf(s), "name", s.name(),
        "duration_nano", Long.toString(s.durationNano()));
  }

  /** The span's {@code service.name}, or {@code ""} when its resource has none. */
  static String serviceOf(SpanRow s) {
    for (Attribute a : s.resource().attributes()) {
      if (a.key().equals("service.name") && a.value() instanceof Value.Str v) {
        return v.value();
      }
    }
    return "";
  }
}
