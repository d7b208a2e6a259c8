package mira.tui;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import mira.query.result.SpanRow;
import mira.query.result.TraceResult;

/**
 * A trace drawn as a waterfall: one line per span in tree order (children under their parent by
 * start time), its name indented by depth, its service, and a bar on the trace's time axis. Error
 * spans are red and marked {@code !}. A span whose parent is missing starts a root; a parent cycle
 * (corrupt ids) cannot loop, every span is drawn once.
 */
final class Waterfall {
  private Waterfall() {}

  static List<String> draw(TraceResult t, int w, int h, int top) {
    List<SpanRow> spans = t.spans();
    List<String> out = new ArrayList<>();
    if (spans.isEmpty()) {
      out.add(Text.style(Text.DIM, "  trace " + t.traceId() + " has no spans"));
      return out;
    }
    long t0 = Long.MAX_VALUE;
    long t1 = Long.MIN_VALUE;
    for (SpanRow s : spans) {
      t0 = Math.min(t0, s.startTimeUnixNano());
      t1 = Math.max(t1, s.endTimeUnixNano());
    }
    long total = Math.max(1, t1 - t0);
    List<int[]> order = order(spans);
    int label = Math.min(48, Math.max(20, w / 3));
    int svc = 12;
    int dur = 9;
    int axis = Math.max(10, w - label - svc - dur - 4);
    out.add(Text.style(Text.BOLD, Text.fit("trace " + t.traceId(), label + svc + 2)) + Text.fit(
        View.duration(total), dur) + " " + Text.style(Text.DIM, "0" + " ".repeat(Math.max(0, axis - 1 - View.duration(total).length()))
        + View.duration(total)));
    int from = Math.min(top, Math.max(0, order.size() - 1));
    for (int k = from; k < order.size() && out.size() < h; k++) {
      SpanRow s = spans.get(order.get(k)[0]);
      int depth = order.get(k)[1];
      boolean err = s.statusCode() == 2;
      String name = "  ".repeat(Math.min(depth, 12)) + (err ? "! " : "") + Text.safe(s.name());
      int a = (int) ((s.startTimeUnixNano() - t0) * axis / total);
      int len = Math.max(1, (int) (Math.max(0, s.durationNano()) * axis / total));
      a = Math.min(a, axis - 1);
      len = Math.min(len, axis - a);
      String bar = " ".repeat(a) + "█".repeat(len);
      String line = Text.fit(err ? Text.style(Text.RED, name) : name, label) + " "
          + Text.fit(Text.style(Text.CYAN, Text.safe(View.service(s.resource().attributes()))), svc) + " "
          + Text.fit(View.duration(s.durationNano()), dur) + " " + (err ? Text.style(Text.RED, bar) : bar);
      out.add(line);
    }
    return out;
  }

  /** Indexes of spans in tree order with their depth. */
  static List<int[]> order(List<SpanRow> spans) {
    Map<String, Integer> byId = new HashMap<>();
    for (int i = 0; i < spans.size(); i++) {
      byId.putIfAbsent(spans.get(i).spanId(), i);
    }
    Map<Integer, List<Integer>> children = new HashMap<>();
    List<Integer> roots = new ArrayList<>();
    for (int i = 0; i < spans.size(); i++) {
      Integer p = byId.get(spans.get(i).parentSpanId());
      if (p == null || p == i) {
        roots.add(i);
      } else {
        children.computeIfAbsent(p, k -> new ArrayList<>()).add(i);
      }
    }
    Comparator<Integer> byStart = Comparator.comparingLong(i -> spans.get(i).startTimeUnixNano());
    roots.sort(byStart);
    children.values().forEach(l -> l.sort(byStart));
    List<int[]> out = new ArrayList<>();
    Set<Integer> seen = new HashSet<>();
    for (Integer r : roots) {
      walk(r, 0, children, seen, out);
    }
    // Spans caught in a parent cycle have no root: draw them too, once each.
    List<Integer> rest = new ArrayList<>();
    for (int i = 0; i < spans.size(); i++) {
      if (!seen.contains(i)) {
        rest.add(i);
      }
    }
    rest.sort(byStart);
    for (Integer r : rest) {
      walk(r, 0, children, seen, out);
    }
    return out;
  }

  private static void walk(int i, int depth, Map<Integer, List<Integer>> children, Set<Integer> seen, List<int[]> out) {
    if (!seen.add(i)) {
      return;
    }
    out.add(new int[] {i, depth});
    for (Integer c : children.getOrDefault(i, List.of())) {
      walk(c, depth + 1, children, seen, out);
    }
  }
}
