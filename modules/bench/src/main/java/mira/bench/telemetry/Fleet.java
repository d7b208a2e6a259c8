package mira.bench.telemetry;

import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The services and pods the telemetry comes from: a fixed catalogue of services, a seeded number of
 * pods for each (one OTLP resource per pod), who calls whom, and which database each one uses.
 *
 * <p>Calls only go from a service to one later in the catalogue, so the call graph has no cycles
 * and a trace always ends. Immutable once built; safe to share between threads.
 */
public final class Fleet {
  /** Service names; the first two are the entry points every ordinary trace starts at. */
  static final String[] NAMES = {
    "frontend", "api-gateway", "auth", "users", "session", "cart", "checkout", "orders", "payment",
    "fraud", "pricing", "currency", "tax", "quote", "shipping", "inventory", "catalog", "search",
    "recommendation", "ads", "reviews", "media", "thumbnails", "geo", "loyalty", "invoicing",
    "ledger", "email", "notification", "audit", "feature-flags", "analytics", "scheduler", "export",
    "assistant", "llm-gateway",
  };

  /** The assistant's path: {@code frontend → assistant → llm-gateway}, where GenAI spans live. */
  static final int ASSISTANT = indexOf("assistant");
  static final int LLM_GATEWAY = indexOf("llm-gateway");

  private static final String[] LANGUAGES = {"java", "java", "java", "go", "go", "python", "nodejs", "dotnet"};
  private static final String[] DATABASES = {"postgresql", "postgresql", "mysql", "redis", "mongodb", null, null};
  private static final String[] NODES_ZONES = {"eu-west-1a", "eu-west-1b", "eu-west-1c"};

  final Service[] services;
  final Pod[] pods;

  /** One service: its routes, the services it calls, its database (null for none). */
  record Service(int index, String name, String language, String version, String database, String[] routes,
      int[] downstream, int firstPod, int podCount) {}

  /** One pod of a service, i.e. one OTLP resource. */
  record Pod(int index, int service, String podName, Resource resource, KeyValue hostName) {}

  private static int indexOf(String name) {
    for (int i = 0; i < NAMES.length; i++) {
      if (NAMES[i].equals(name)) return i;
    }
    throw new AssertionError(name);
  }

  /**
   * Builds the fleet for {@code seed}: 2 to 8 pods per service, 1 to 3 downstream services each
   * (fewer near the end of the catalogue).
   */
  public Fleet(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed ^ 0x5EEDF1EE7L);
    services = new Service[NAMES.length];
    List<Pod> all = new ArrayList<>();
    for (int s = 0; s < NAMES.length; s++) {
      String name = NAMES[s];
      String language = LANGUAGES[rnd.nextInt(LANGUAGES.length)];
      String version = "1." + rnd.nextInt(30) + "." + rnd.nextInt(10);
      String database = s == ASSISTANT || s == LLM_GATEWAY ? null : DATABASES[rnd.nextInt(DATABASES.length)];
      String[] routes = routes(name, rnd);
      int[] downstream = downstream(s, rnd);
      int podCount = 2 + rnd.nextInt(7);
      String deployHash = Long.toHexString(rnd.nextLong() | 0x8000_0000_0000_0000L).substring(0, 10);
      services[s] = new Service(s, name, language, version, database, routes, downstream, all.size(), podCount);
      for (int p = 0; p < podCount; p++) {
        String podName = name + "-" + deployHash + "-" + suffix(rnd);
        String node = "ip-10-0-" + rnd.nextInt(16) + "-" + (10 + rnd.nextInt(240)) + ".eu-west-1.compute.internal";
        Resource resource = Resource.newBuilder()
            .addAttributes(Kv.of("service.name", name))
            .addAttributes(Kv.of("service.namespace", "shop"))
            .addAttributes(Kv.of("service.version", version))
            .addAttributes(Kv.of("service.instance.id", uuid(rnd)))
            .addAttributes(Kv.of("deployment.environment.name", "production"))
            .addAttributes(Kv.of("k8s.cluster.name", "prod-eu-west-1"))
            .addAttributes(Kv.of("k8s.namespace.name", "shop"))
            .addAttributes(Kv.of("k8s.deployment.name", name))
            .addAttributes(Kv.of("k8s.pod.name", podName))
            .addAttributes(Kv.of("k8s.pod.uid", uuid(rnd)))
            .addAttributes(Kv.of("k8s.node.name", node))
            .addAttributes(Kv.of("cloud.provider", "aws"))
            .addAttributes(Kv.of("cloud.region", "eu-west-1"))
            .addAttributes(Kv.of("cloud.availability_zone", NODES_ZONES[rnd.nextInt(NODES_ZONES.length)]))
            .addAttributes(Kv.of("host.name", node))
            .addAttributes(Kv.of("telemetry.sdk.name", "opentelemetry"))
            .addAttributes(Kv.of("telemetry.sdk.language", language))
            .addAttributes(Kv.of("telemetry.sdk.version", "1." + (40 + rnd.nextInt(20)) + ".0"))
            .build();
        all.add(new Pod(all.size(), s, podName, resource, Kv.of("host.name", node)));
      }
    }
    pods = all.toArray(new Pod[0]);
  }

  /** How many services there are. */
  public int serviceCount() {
    return services.length;
  }

  /** How many pods (OTLP resources) there are, across every service. */
  public int podCount() {
    return pods.length;
  }

  /** The services a trace starts at (the first two of the catalogue; see TraceBuilder). */
  public static final List<String> ENTRY = List.of(NAMES[0], NAMES[1]);

  /**
   * The services that {@code name} calls, in the order they are called (a name twice if it is
   * called twice); the assistant's own path ({@code frontend → assistant → llm-gateway}) is not
   * among them.
   */
  public List<String> downstream(String name) {
    List<String> out = new ArrayList<>();
    for (int d : services[indexOf(name)].downstream()) {
      out.add(NAMES[d]);
    }
    return out;
  }

  /** The name of service {@code s}, 0 ≤ s < {@link #serviceCount()}. */
  public String serviceName(int s) {
    return services[s].name();
  }

  private static String[] routes(String name, SplittableRandom rnd) {
    String[] verbs = {"", "/{id}", "/search", "/batch", "/{id}/items", "/recent"};
    int n = 2 + rnd.nextInt(4);
    String[] r = new String[n];
    for (int i = 0; i < n; i++) {
      r[i] = "/api/v1/" + name + verbs[i % verbs.length];
    }
    return r;
  }

  private static int[] downstream(int s, SplittableRandom rnd) {
    if (s == ASSISTANT) return new int[] {LLM_GATEWAY};
    int remaining = ASSISTANT - s - 1;  // ordinary services never call the assistant's path
    if (remaining <= 0) return new int[0];
    int n = Math.min(remaining, s < 2 ? 3 : rnd.nextInt(4));
    int[] d = new int[n];
    for (int i = 0; i < n; i++) {
      d[i] = s + 1 + rnd.nextInt(remaining);
    }
    return d;
  }

  private static String suffix(SplittableRandom rnd) {
    String alphabet = "bcdfghjklmnpqrstvwxz2456789";
    char[] c = new char[5];
    for (int i = 0; i < c.length; i++) c[i] = alphabet.charAt(rnd.nextInt(alphabet.length()));
    return new String(c);
  }

  static String uuid(SplittableRandom rnd) {
    String a = String.format("%016x", rnd.nextLong());
    String b = String.format("%016x", rnd.nextLong());
    return a.substring(0, 8) + "-" + a.substring(8, 12) + "-4" + a.substring(13, 16) + "-a" + b.substring(1, 4) + "-"
        + b.substring(4);
  }
}
