package mira.query.result;

import java.util.List;

/**
 * The answer of {@code GET /api/v1/services}, before rendering: every {@code service.name} with
 * records in a window.
 *
 * @param services sorted by name; resources without a service.name last, as a null name
 */
public record ServiceList(List<Service> services, Stats stats, List<Refused> refused) {
  public ServiceList {
    services = List.copyOf(services);
    refused = List.copyOf(refused);
  }

  /** The listing's order: by name, resources without a service.name last. */
  public static final java.util.Comparator<Service> ORDER = java.util.Comparator
      .comparing((Service s) -> s.name() == null ? 1 : 0).thenComparing(s -> s.name() == null ? "" : s.name());

  /**
   * One service.
   *
   * @param name its service.name, or null for resources without one
   * @param logs log records in the window
   * @param spans spans
   * @param errors spans with status ERROR
   * @param points metric data points
   * @param entities distinct entities (non-zero keys) that reported under this name
   * @param entityKeys those entities' keys, sorted unsigned — what a replica merging several nodes'
   *     listings needs to count an entity seen by two of them once; empty when not known
   */
  public record Service(String name, long logs, long spans, long errors, long points, int entities,
      long[] entityKeys) {
    public Service(String name, long logs, long spans, long errors, long points, int entities) {
      this(name, logs, spans, errors, points, entities, new long[0]);
    }
  }
}
