package mira.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The dependency direction of docs/architecture.md, checked over the sources: which Mira modules
 * each module may use, and which libraries are fenced out of which layers.
 */
class ModuleDependencyDirectionTest {
  private static final Path MODULES = Path.of(System.getProperty("mira.repo", "..")).resolve("modules");
  private static final Pattern IMPORT = Pattern.compile("^\\s*import\\s+(?:static\\s+)?([\\w.]+)", Pattern.MULTILINE);
  private static final Pattern REQUIRES = Pattern.compile("^\\s*requires\\s+(?:transitive\\s+|static\\s+)*([\\w.]+)\\s*;", Pattern.MULTILINE);

  /** Mira modules each module may require; arrows point at what is required. */
  private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
      Map.entry("proto", Set.of()),
      Map.entry("fs", Set.of()),
      Map.entry("wal", Set.of("fs")),
      Map.entry("block", Set.of("proto", "fs")),
      Map.entry("query", Set.of("block", "proto", "fs")),
      Map.entry("client", Set.of("query", "block", "proto", "fs")),
      Map.entry("cluster", Set.of("client", "query", "block", "proto", "fs")),
      Map.entry("alert", Set.of("query", "block", "proto", "fs")),
      Map.entry("mcp", Set.of("cluster", "client", "query", "block", "proto", "fs")),
      Map.entry("server", Set.of("alert", "mcp", "cluster", "client", "query", "block", "proto", "wal", "fs")),
      Map.entry("tui", Set.of("client", "query", "block", "proto", "fs")),
      Map.entry("cli", Set.of("server", "tui", "alert", "mcp", "cluster", "client", "query", "block", "proto", "wal", "fs")),
      Map.entry("bench", Set.of("server", "mcp", "alert", "cluster", "client", "query", "block", "proto", "wal", "fs")));

  /** Library package prefixes a module must not touch. */
  private static final Map<String, List<String>> FENCED = Map.of(
      "proto", List.of("io.helidon", "org.apache.arrow"),
      "fs", List.of("io.helidon", "org.apache.arrow", "io.opentelemetry", "com.google.protobuf"),
      "wal", List.of("io.helidon", "org.apache.arrow", "io.opentelemetry", "com.google.protobuf"),
      "block", List.of("io.helidon"),
      "query", List.of("io.helidon"),
      "client", List.of("io.helidon"),
      "cluster", List.of("io.helidon"),
      "alert", List.of("io.helidon"),
      "mcp", List.of("io.helidon"),
      "tui", List.of("io.helidon", "mira.server"));

  /**
   * A mention of a Mira type by its package: an import, or a fully-qualified name in code
   * (comments and strings are left out), e.g. {@code mira.block.catalog.BlockName.parse(...)}.
   */
  private static final Pattern QUALIFIED = Pattern.compile("(?<![\\w.])(mira(?:\\.[a-z]\\w*)+)\\.[A-Z]");

  record Use(String module, Path file, String name) {}

  static List<Use> uses() throws IOException {
    List<Use> out = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(MODULES)) {
      for (Path m : dirs.filter(Files::isDirectory).toList()) {
        Path src = m.resolve("src/main/java");
        if (!Files.isDirectory(src)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(src)) {
          for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
            String text = Files.readString(f);
            Matcher i = IMPORT.matcher(text);
            while (i.find()) {
              out.add(new Use(m.getFileName().toString(), f, i.group(1)));
            }
            Matcher q = QUALIFIED.matcher(PackageGraph.code(text));
            while (q.find()) {
              out.add(new Use(m.getFileName().toString(), f, q.group(1)));
            }
            if (f.getFileName().toString().equals("module-info.java")) {
              Matcher r = REQUIRES.matcher(text);
              while (r.find()) {
                out.add(new Use(m.getFileName().toString(), f, r.group(1)));
              }
            }
          }
        }
      }
    }
    return out;
  }

  @Test
  void theScannerSeesKnownDependencies() throws IOException {
    List<Use> uses = uses();
    // Positive controls: if these disappear the scanner is broken, not the code clean.
    assertThat(uses).anyMatch(u -> u.module().equals("server") && u.name().startsWith("io.helidon.webserver"));
    assertThat(uses).anyMatch(u -> u.module().equals("server") && u.name().equals("mira.proto"));
    assertThat(uses).anyMatch(u -> u.module().equals("proto") && u.name().startsWith("com.fasterxml.jackson"));
  }

  @Test
  void miraModulesDependOnlyDownwards() throws IOException {
    List<String> violations = new ArrayList<>();
    for (Use u : uses()) {
      if (!u.name().startsWith("mira.")) {
        continue;
      }
      String target = u.name().split("\\.")[1];
      Set<String> allowed = ALLOWED.get(u.module());
      if (allowed == null) {
        violations.add("module " + u.module() + " is not in the dependency table of this test");
      } else if (!target.equals(u.module()) && ALLOWED.containsKey(target) && !allowed.contains(target)) {
        violations.add(u.file() + ": mira." + u.module() + " uses " + u.name());
      }
    }
    assertThat(violations).isEmpty();
  }

  @Test
  void fencedLibrariesStayOutOfLowerLayers() throws IOException {
    List<String> violations = new ArrayList<>();
    for (Use u : uses()) {
      for (String prefix : FENCED.getOrDefault(u.module(), List.of())) {
        if (u.name().equals(prefix) || u.name().startsWith(prefix + ".")) {
          violations.add(u.file() + ": mira." + u.module() + " uses " + u.name());
        }
      }
    }
    assertThat(violations).isEmpty();
  }
}
