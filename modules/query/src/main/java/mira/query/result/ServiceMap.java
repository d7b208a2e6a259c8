package mira.query.result;

import java.util.List;

/**
 * The answer of {@code POST /api/v1/map}, before rendering: who calls whom among the spans of a
 * window.
 *
 * @param nodes sorted by service; virtual nodes (databases, queues, external services that send
 *     no spans) are named from the calling span's attributes
 * @param edges sorted by (from, to, kind)
 * @param truncated whether spans past {@code MAX_SPANS} were left out of the count
 */
public record ServiceMap(List<Node> nodes, List<Edge> edges, boolean truncated, Stats stats, List<Refused> refused) {
  public ServiceMap {
    nodes = List.copyOf(nodes);
    edges = List.copyOf(edges);
    refused = List.copyOf(refused);
  }

  /**
   * A service: its spans in the window, errors among them, and their durations' p50 and p99;
   * for a virtual node, the calls made to it.
   */
  public record Node(String service, int entities, long spans, long errors, double p50Ms, double p99Ms,
      boolean virtual) {}

  /**
   * Calls from one service to another; latencies are the callee's server-side spans (for a
   * virtual node, the caller's client spans).
   *
   * @param kind {@code rpc}, {@code messaging} or {@code link}
   */
  public record Edge(String from, String to, long calls, long errors, double p50Ms, double p99Ms, String kind) {}
}
