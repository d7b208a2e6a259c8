package mira.query.frame;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import mira.query.entity.Identity;
import mira.query.result.Attribute;
import mira.query.result.EntityList;
import mira.query.result.ServiceList;

/** The entity and service listings built from one {@link Census}. */
public final class Listings {
  private Listings() {}

  /** The entities of {@code c}, the first {@code limit} of them in {@link EntityList}'s order. */
  public static EntityList entities(Census.Result c, int limit) {
    List<EntityList.Entity> all = new ArrayList<>();
    long noIdResources = 0;
    long noIdRecords = 0;
    TreeSet<String> noIdServices = new TreeSet<>();
    List<Long> noIdHashes = new ArrayList<>();
    for (Map.Entry<Object, Census.Tally> e : c.groups().entrySet()) {
      Census.Tally t = e.getValue();
      String service = Identity.text(t.attributes(), "service.name");
      if (t.key() == 0) {
        noIdResources++;
        noIdHashes.add(hash(t.attributes()));
        noIdRecords += t.records(0) + t.records(1) + t.records(2);
        if (service != null) {
          noIdServices.add(service);
        }
        continue;
      }
      Identity id = Identity.of(t.attributes());
      all.add(new EntityList.Entity(t.key(), id.rule(), id.attributes(), service, t.records(0), t.records(1),
          t.records(2), t.first(), t.last()));
    }
    all.sort(EntityList.ORDER);
    String hint = noIdResources == 0 ? "" : "these resources carry none of the identifying attributes, so no entity "
        + "term or correlation can select them; set " + String.join(", ", Identity.FIXES)
        + " (or at least service.name) in the SDK's resource";
    return new EntityList(all.subList(0, Math.min(limit, all.size())), all.size(),
        new EntityList.NoIdentity(noIdResources, noIdRecords, new ArrayList<>(noIdServices), hint,
            noIdHashes.stream().sorted().toList()), c.stats(),
        c.refused());
  }

  /**
   * A resource's attribute list as 64 bits (FNV-1a over the keys sorted, each with its typed value):
   * equal lists hash alike on every node, so nodes' resources without identity can be counted once.
   */
  static long hash(List<Attribute> attributes) {
    List<Attribute> sorted = new ArrayList<>(attributes);
    sorted.sort((a, b) -> a.key().compareTo(b.key()));
    long h = 0xcbf29ce484222325L;
    for (Attribute a : sorted) {
      for (byte b : (a.key() + '\u0000' + a.value() + '\u0000').getBytes(StandardCharsets.UTF_8)) {
        h = (h ^ (b & 0xff)) * 0x100000001b3L;
      }
    }
    return h;
  }

  /** The services of {@code c}. */
  public static ServiceList services(Census.Result c) {
    Map<String, long[]> counts = new HashMap<>();
    Map<String, Set<Long>> entities = new HashMap<>();
    for (Census.Tally t : c.groups().values()) {
      String name = Identity.text(t.attributes(), "service.name");
      long[] n = counts.computeIfAbsent(name, k -> new long[4]);
      n[0] += t.records(0);
      n[1] += t.records(1);
      n[2] += t.errors();
      n[3] += t.records(2);
      Set<Long> keys = entities.computeIfAbsent(name, k -> new HashSet<>());
      if (t.key() != 0) {
        keys.add(t.key());
      }
    }
    List<ServiceList.Service> out = new ArrayList<>();
    counts.forEach((name, n) -> {
      long[] keys = entities.get(name).stream().mapToLong(Long::longValue).sorted().toArray();
      out.add(new ServiceList.Service(name, n[0], n[1], n[2], n[3], keys.length, keys));
    });
    out.sort(ServiceList.ORDER);
    return new ServiceList(out, c.stats(), c.refused());
  }
}
