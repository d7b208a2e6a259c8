package mira.query.entity;

import java.util.ArrayList;
import java.util.List;
import mira.block.table.CanonicalText;
import mira.query.result.Attribute;
import mira.query.result.Value;

/**
 * Which identity rule gave a resource its entity key, and the attributes it hashed: the same
 * precedence the writer applies ({@code mira.block.table.EntityKey}), read back from the stored
 * attributes so an answer can say why two resources are one entity.
 *
 * @param rule {@code service.instance}, {@code k8s.pod}, {@code container}, {@code host.process},
 *     {@code host} or {@code service}; null when none applies (the resource has no identity)
 * @param attributes the identifying attributes, in the rule's order, values as canonical text
 */
public record Identity(String rule, List<Attribute> attributes) {
  /** The attributes that give a resource an identity, most specific first: the fix to name. */
  public static final List<String> FIXES = List.of("service.instance.id", "k8s.pod.uid", "container.id", "host.id");

  public Identity {
    attributes = List.copyOf(attributes);
  }

  /** The identity of a resource with these attributes (the last of a repeated key wins, as at ingest). */
  public static Identity of(List<Attribute> attrs) {
    String service = text(attrs, "service.name");
    String instance = text(attrs, "service.instance.id");
    if (service != null && instance != null) {
      return make("service.instance", attrs, "service.name", "service.instance.id", "service.namespace");
    }
    if (text(attrs, "k8s.pod.uid") != null) {
      return make("k8s.pod", attrs, "k8s.pod.uid", "k8s.container.name");
    }
    if (text(attrs, "container.id") != null) {
      return make("container", attrs, "container.id");
    }
    String host = text(attrs, "host.id") != null ? "host.id" : text(attrs, "host.name") != null ? "host.name" : null;
    if (host != null) {
      return make(text(attrs, "process.pid") != null ? "host.process" : "host", attrs, host, "process.pid");
    }
    if (service != null) {
      return make("service", attrs, "service.name", "service.namespace");
    }
    return new Identity(null, List.of());
  }

  private static Identity make(String rule, List<Attribute> attrs, String... keys) {
    List<Attribute> out = new ArrayList<>(keys.length);
    for (String k : keys) {
      String v = text(attrs, k);
      if (v != null) {
        out.add(new Attribute(k, new Value.Str(v)));
      }
    }
    return new Identity(rule, out);
  }

  /** The canonical text of the last attribute {@code key}, or null if there is none. */
  public static String text(List<Attribute> attrs, String key) {
    for (int i = attrs.size() - 1; i >= 0; i--) {
      Attribute a = attrs.get(i);
      String t = a.key().equals(key) ? text(a.value()) : null;
      if (t != null) {
        return t;
      }
    }
    return null;
  }

  /** A scalar's canonical text (how the writer hashes it); null for values with none. */
  static String text(Value v) {
    return switch (v) {
      case Value.Str s -> s.value();
      case Value.Int i -> Long.toString(i.value());
      case Value.F64 d -> CanonicalText.ofDouble(d.value());
      case Value.Bool b -> Boolean.toString(b.value());
      case Value.Bytes b -> java.util.Base64.getEncoder().encodeToString(b.value());
      default -> null;
    };
  }
}
