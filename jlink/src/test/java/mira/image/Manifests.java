package mira.image;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Every Kubernetes object under {@code k8s/}, read with the YAML parser the server's config loader
 * uses, and the few look-ups the manifest checks need. An object is the plain map the parser gives.
 */
final class Manifests {
  final List<Map<String, Object>> objects;

  private Manifests(List<Map<String, Object>> objects) {
    this.objects = objects;
  }

  static Path dir() {
    return Path.of(System.getProperty("mira.repo", "..")).resolve("k8s");
  }

  /** Reads every document of every {@code *.yaml} file in {@code k8s/}. */
  @SuppressWarnings("unchecked")
  static Manifests load() throws IOException {
    List<Map<String, Object>> all = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir())) {
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
        Load load = new Load(LoadSettings.builder().setLabel(f.toString()).setAllowDuplicateKeys(false).build());
        for (Object doc : load.loadAllFromString(Files.readString(f))) {
          if (doc != null) {
            all.add((Map<String, Object>) doc);
          }
        }
      }
    }
    return new Manifests(all);
  }

  /** The one object of this kind and name; fails if there is none or more than one. */
  Map<String, Object> get(String kind, String name) {
    List<Map<String, Object>> found = objects.stream()
        .filter(o -> kind.equals(o.get("kind")) && name.equals(at(o, "metadata", "name"))).toList();
    if (found.size() != 1) {
      throw new AssertionError(found.size() + " objects of kind " + kind + " named " + name + " in " + dir());
    }
    return found.getFirst();
  }

  /** The one object of this kind; fails if there is none or more than one. */
  Map<String, Object> only(String kind) {
    List<Map<String, Object>> found = all(kind);
    if (found.size() != 1) {
      throw new AssertionError(found.size() + " objects of kind " + kind + " in " + dir());
    }
    return found.getFirst();
  }

  List<Map<String, Object>> all(String kind) {
    return objects.stream().filter(o -> kind.equals(o.get("kind"))).toList();
  }

  /** The value at a path of mapping keys, or null where the path leaves the document. */
  static Object at(Object node, String... path) {
    Object n = node;
    for (String key : path) {
      if (!(n instanceof Map<?, ?> m)) {
        return null;
      }
      n = m.get(key);
    }
    return n;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object node, String... path) {
    Object n = at(node, path);
    if (!(n instanceof Map<?, ?>)) {
      throw new AssertionError(String.join(".", path) + " is not a mapping: " + n);
    }
    return (Map<String, Object>) n;
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> list(Object node, String... path) {
    Object n = at(node, path);
    if (!(n instanceof List<?>)) {
      throw new AssertionError(String.join(".", path) + " is not a list: " + n);
    }
    return (List<Map<String, Object>>) n;
  }

  /** A resource quantity in bytes ({@code 2Gi}, {@code 512Mi}, {@code 1G}) or millicores ({@code 1}, {@code 500m}). */
  static long quantity(Object q, boolean bytes) {
    String s = String.valueOf(q);
    String[][] units = bytes
        ? new String[][] {{"Ki", "1024"}, {"Mi", "1048576"}, {"Gi", "1073741824"}, {"Ti", "1099511627776"},
            {"k", "1000"}, {"M", "1000000"}, {"G", "1000000000"}, {"T", "1000000000000"}}
        : new String[][] {{"m", "1"}};
    for (String[] u : units) {
      if (s.endsWith(u[0])) {
        return Long.parseLong(s.substring(0, s.length() - u[0].length())) * Long.parseLong(u[1]);
      }
    }
    return Long.parseLong(s) * (bytes ? 1 : 1000);
  }
}
