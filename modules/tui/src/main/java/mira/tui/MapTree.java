package mira.tui;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import mira.query.result.ServiceMap;

/**
 * The service map as a tree a terminal can draw and {@code Enter} can act on: a depth-first walk
 * from the entry service, each service's callees under it by descending call volume (the hot path
 * reads first). A service already on the path (a retry loop, a cycle) is shown once more, marked,
 * and not expanded, so the walk ends; one already drawn elsewhere is marked the same way. Services
 * the walk never reaches are appended at depth zero: the map never leaves one out.
 */
final class MapTree {
  private MapTree() {}

  enum Mark {
    /** Drawn with its callees under it. */
    NONE,
    /** Already on the path from the entry: a cycle, not expanded. */
    CYCLE,
    /** Drawn earlier under another caller, not expanded again. */
    SEEN,
    /** Not reachable from the entry. */
    UNREACHED
  }

  /**
   * One line of the tree.
   *
   * @param edge the call that leads here from the line's parent, or null at depth zero
   * @param node the service's own counts, or null if the map has no node for it
   */
  record Line(int depth, String service, ServiceMap.Edge edge, ServiceMap.Node node, Mark mark) {}

  /**
   * The entry: among services no other service calls, the one making the most calls (then the one
   * with the most spans, then by name); when every service is called (a cycle), the busiest.
   */
  static String entry(ServiceMap m) {
    Set<String> called = new HashSet<>();
    Map<String, Long> calls = new HashMap<>();
    for (ServiceMap.Edge e : m.edges()) {
      if (!e.from().equals(e.to())) {
        called.add(e.to());
      }
      calls.merge(e.from(), e.calls(), Long::sum);
    }
    Comparator<ServiceMap.Node> busiest = Comparator.<ServiceMap.Node>comparingLong(n -> calls.getOrDefault(n.service(), 0L))
        .thenComparingLong(ServiceMap.Node::spans).reversed().thenComparing(ServiceMap.Node::service);
    return m.nodes().stream().filter(n -> !called.contains(n.service()) && !n.virtual()).min(busiest)
        .or(() -> m.nodes().stream().min(busiest)).map(ServiceMap.Node::service)
        .orElse(m.edges().isEmpty() ? null : m.edges().getFirst().from());
  }

  /** The tree from {@code entry}, then every service it does not reach. */
  static List<Line> walk(ServiceMap m, String entry) {
    Map<String, ServiceMap.Node> nodes = new HashMap<>();
    Set<String> all = new LinkedHashSet<>();
    for (ServiceMap.Node n : m.nodes()) {
      nodes.put(n.service(), n);
      all.add(n.service());
    }
    Map<String, List<ServiceMap.Edge>> callees = new HashMap<>();
    for (ServiceMap.Edge e : m.edges()) {
      callees.computeIfAbsent(e.from(), k -> new ArrayList<>()).add(e);
      all.add(e.from());
      all.add(e.to());
    }
    Comparator<ServiceMap.Edge> byVolume = Comparator.comparingLong(ServiceMap.Edge::calls).reversed()
        .thenComparing(ServiceMap.Edge::to).thenComparing(ServiceMap.Edge::kind);
    callees.values().forEach(l -> l.sort(byVolume));
    List<Line> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    if (entry != null) {
      visit(entry, 0, null, nodes, callees, new HashSet<>(), seen, out);
    }
    for (String s : all) {
      if (!seen.contains(s)) {
        out.add(new Line(0, s, null, nodes.get(s), Mark.UNREACHED));
      }
    }
    return out;
  }

  // Recursion depth is bounded by the number of services: each is expanded at most once.
  private static void visit(String service, int depth, ServiceMap.Edge via, Map<String, ServiceMap.Node> nodes,
      Map<String, List<ServiceMap.Edge>> callees, Set<String> path, Set<String> seen, List<Line> out) {
    if (path.contains(service)) {
      out.add(new Line(depth, service, via, nodes.get(service), Mark.CYCLE));
      return;
    }
    if (!seen.add(service)) {
      out.add(new Line(depth, service, via, nodes.get(service), Mark.SEEN));
      return;
    }
    out.add(new Line(depth, service, via, nodes.get(service), Mark.NONE));
    path.add(service);
    for (ServiceMap.Edge e : callees.getOrDefault(service, List.of())) {
      visit(e.to(), depth + 1, e, nodes, callees, path, seen, out);
    }
    path.remove(service);
  }

  /** A line as the pane shows it: the tree on the left, the counts (of the edge, else the node) on the right. */
  static String text(Line l, int w) {
    String tree = l.depth() == 0 ? (l.mark() == Mark.UNREACHED ? "· " : "") : "  ".repeat(l.depth() - 1) + "└─ ";
    String mark = switch (l.mark()) {
      case CYCLE -> Text.style(Text.YELLOW, " ↻ on the path, not expanded");
      case SEEN -> Text.style(Text.DIM, " ↑ shown above");
      default -> "";
    };
    boolean virtual = l.node() != null && l.node().virtual();
    String name = Text.safe(l.service()) + (virtual ? Text.style(Text.DIM, " (no spans of its own)") : "");
    String counts;
    if (l.edge() != null) {
      ServiceMap.Edge e = l.edge();
      counts = e.kind() + " calls " + e.calls() + "  err " + (e.errors() > 0 ? Text.style(Text.RED, Long.toString(e.errors()))
          : "0") + "  p99 " + ms(e.p99Ms());
    } else if (l.node() != null) {
      ServiceMap.Node n = l.node();
      counts = "spans " + n.spans() + "  err " + (n.errors() > 0 ? Text.style(Text.RED, Long.toString(n.errors())) : "0")
          + "  p99 " + ms(n.p99Ms());
    } else {
      counts = "";
    }
    int right = Math.min(Text.width(counts), Math.max(0, w - 20));
    return Text.fit(tree + name + mark, Math.max(1, w - right - 1)) + " " + Text.fit(counts, right);
  }

  static String ms(double v) {
    return Double.isNaN(v) ? "-" : v >= 1000 ? String.format(java.util.Locale.ROOT, "%.2fs", v / 1000)
        : String.format(java.util.Locale.ROOT, "%.1fms", v);
  }
}
