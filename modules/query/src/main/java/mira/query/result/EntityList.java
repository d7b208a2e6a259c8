package mira.query.result;

import java.util.List;

/**
 * The answer of {@code POST /api/v1/entities}, before rendering: what emitted records in a
 * window, one entry per entity key, and a count of what could not be told apart.
 *
 * @param entities sorted by service name, then most records first, then key; at most the limit
 * @param total how many entities matched before the limit
 * @param noIdentity the resources with records in the window and no identity
 * @param stats what the scan cost (rows: records of all three signals read; matched: those counted)
 * @param refused damaged blocks that were skipped
 */
public record EntityList(List<Entity> entities, int total, NoIdentity noIdentity, Stats stats, List<Refused> refused) {
  public EntityList {
    entities = List.copyOf(entities);
    refused = List.copyOf(refused);
  }

  /** The listing's order: by service name (none last), then most records first, then key. */
  public static final java.util.Comparator<Entity> ORDER = java.util.Comparator
      .comparing((Entity x) -> x.serviceName() == null ? "\uffff" : x.serviceName())
      .thenComparing(x -> -(x.logs() + x.spans() + x.points()))
      .thenComparing(x -> Long.toUnsignedString(x.key(), 16));

  /** Whether entities were left out by the limit. */
  public boolean truncated() {
    return total > entities.size();
  }

  /**
   * One entity.
   *
   * @param key its {@code resources.key}, never 0
   * @param rule the identity rule that matched ({@code service.instance}, {@code k8s.pod}, ...)
   * @param identity the identifying attributes the key was hashed from
   * @param serviceName the {@code service.name} of its newest resource, or null
   * @param logs log records in the window
   * @param spans spans in the window
   * @param points metric data points in the window
   * @param firstSeen the earliest record time in the window (ns)
   * @param lastSeen the latest (ns)
   */
  public record Entity(long key, String rule, List<Attribute> identity, String serviceName, long logs, long spans,
      long points, long firstSeen, long lastSeen) {
    public Entity {
      identity = List.copyOf(identity);
    }
  }

  /**
   * Resources without identity (entity key 0), which no entity term or expansion can select.
   *
   * @param resources distinct attribute lists
   * @param records their records in the window, all signals
   * @param services their {@code service.name}s, sorted (absent for most: service.name alone gives an identity)
   * @param hint what would give them one
   * @param resourceHashes a 64-bit hash of each of those attribute lists (keys sorted; every node
   *     hashes alike), sorted: how a replica counts once a resource that several nodes saw; null
   *     when the answer did not carry them (only a peer's answer does)
   */
  public record NoIdentity(long resources, long records, List<String> services, String hint, List<Long> resourceHashes) {
    public NoIdentity {
      services = List.copyOf(services);
      resourceHashes = resourceHashes == null ? null : List.copyOf(resourceHashes);
    }

    /** Without the hashes. */
    public NoIdentity(long resources, long records, List<String> services, String hint) {
      this(resources, records, services, hint, null);
    }
  }
}
