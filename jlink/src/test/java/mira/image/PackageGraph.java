package mira.image;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which package of Mira's main sources uses which, read from the sources: imports (static and
 * wildcard too) and fully-qualified names in code, with comments and string literals left out. Its
 * strongly connected components of more than one package are the package cycles.
 */
final class PackageGraph {
  private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
  /** A package name followed by a type name: {@code mira.a.b.Type}. */
  private static final Pattern TYPE_USE = Pattern.compile("(?<![\\w.])(mira(?:\\.[a-z]\\w*)+)\\.[A-Z]");
  private static final Pattern WILDCARD = Pattern.compile("^\\s*import\\s+(?:static\\s+)?(mira(?:\\.[a-z]\\w*)+)\\.\\*\\s*;",
      Pattern.MULTILINE);

  /** For each package, the packages it uses, and for each edge one file that shows it. */
  final Map<String, Map<String, Path>> edges = new TreeMap<>();

  /** Reads every {@code .java} file under {@code roots} (module-info files excluded). */
  static PackageGraph of(List<Path> roots) throws IOException {
    PackageGraph g = new PackageGraph();
    for (Path root : roots) {
      if (!Files.isDirectory(root)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(root)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")
            && !p.getFileName().toString().equals("module-info.java")).toList()) {
          g.add(f, Files.readString(f));
        }
      }
    }
    return g;
  }

  void add(Path file, String text) {
    Matcher p = PACKAGE.matcher(text);
    if (!p.find()) {
      return;
    }
    String pkg = p.group(1);
    Map<String, Path> out = edges.computeIfAbsent(pkg, k -> new TreeMap<>());
    String code = code(text);
    for (Pattern pattern : List.of(TYPE_USE, WILDCARD)) {
      Matcher m = pattern.matcher(code);
      while (m.find()) {
        String used = m.group(1);
        if (!used.equals(pkg)) {
          out.putIfAbsent(used, file);
        }
      }
    }
  }

  /** The cycles: each a sorted set of two or more packages that reach each other. */
  List<Set<String>> cycles() {
    // Tarjan's algorithm, iterative over an explicit stack so deep graphs cannot overflow.
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    List<Set<String>> out = new ArrayList<>();
    int[] next = {0};
    for (String start : edges.keySet()) {
      if (index.containsKey(start)) {
        continue;
      }
      Deque<Object[]> work = new ArrayDeque<>();
      work.push(new Object[] {start, successors(start).iterator()});
      index.put(start, next[0]);
      low.put(start, next[0]++);
      stack.push(start);
      onStack.add(start);
      while (!work.isEmpty()) {
        Object[] frame = work.peek();
        String v = (String) frame[0];
        @SuppressWarnings("unchecked")
        java.util.Iterator<String> it = (java.util.Iterator<String>) frame[1];
        if (it.hasNext()) {
          String w = it.next();
          if (!index.containsKey(w)) {
            index.put(w, next[0]);
            low.put(w, next[0]++);
            stack.push(w);
            onStack.add(w);
            work.push(new Object[] {w, successors(w).iterator()});
          } else if (onStack.contains(w)) {
            low.put(v, Math.min(low.get(v), index.get(w)));
          }
          continue;
        }
        work.pop();
        if (!work.isEmpty()) {
          String parent = (String) work.peek()[0];
          low.put(parent, Math.min(low.get(parent), low.get(v)));
        }
        if (low.get(v).equals(index.get(v))) {
          Set<String> component = new TreeSet<>();
          String w;
          do {
            w = stack.pop();
            onStack.remove(w);
            component.add(w);
          } while (!w.equals(v));
          if (component.size() > 1) {
            out.add(component);
          }
        }
      }
    }
    return out;
  }

  /** Describes a cycle by its edges, each with a file that makes it. */
  String describe(Set<String> cycle) {
    StringBuilder b = new StringBuilder("cycle among " + cycle + ":");
    for (String from : cycle) {
      for (Map.Entry<String, Path> e : edges.getOrDefault(from, Map.of()).entrySet()) {
        if (cycle.contains(e.getKey())) {
          b.append("\n  ").append(from).append(" -> ").append(e.getKey()).append(" (").append(e.getValue()).append(')');
        }
      }
    }
    return b.toString();
  }

  private Set<String> successors(String pkg) {
    // Only packages with sources of their own are nodes; a name that matches none is not Mira's.
    Set<String> out = new TreeSet<>();
    for (String s : edges.getOrDefault(pkg, Map.of()).keySet()) {
      if (edges.containsKey(s)) {
        out.add(s);
      }
    }
    return out;
  }

  /** The text with comments and string, text-block and char literals blanked out. */
  static String code(String text) {
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
        while (i < n && text.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
        int end = text.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
        out.append(' ');
      } else if (c == '"' && text.startsWith("\"\"\"", i)) {
        int end = text.indexOf("\"\"\"", i + 3);
        i = end < 0 ? n : end + 3;
        out.append("\"\"");
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < n && text.charAt(j) != c && text.charAt(j) != '\n') {
          j += text.charAt(j) == '\\' ? 2 : 1;
        }
        i = j + 1;
        out.append(c).append(c);
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }
}
