package mira.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No package of Mira's main sources reaches itself through the packages it uses (Kafka's
 * import-control, at package level): each module's packages form a layered graph a newcomer can
 * read bottom-up.
 */
class PackageCycleTest {
  private static final Path MODULES = Path.of(System.getProperty("mira.repo", "..")).resolve("modules");

  static List<Path> mainRoots() throws IOException {
    List<Path> roots = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(MODULES)) {
      for (Path m : dirs.filter(Files::isDirectory).sorted().toList()) {
        roots.add(m.resolve("src/main/java"));
      }
    }
    return roots;
  }

  @Test
  void mainSourcesHaveNoPackageCycle() throws IOException {
    PackageGraph g = PackageGraph.of(mainRoots());
    // The scanner sees the tree: known edges must be there, or an empty answer proves nothing.
    assertThat(g.edges).containsKey("mira.query.scan");
    assertThat(g.edges.get("mira.query.scan")).containsKey("mira.query.result");
    assertThat(g.edges.get("mira.block.cold")).containsKey("mira.block.catalog");
    List<String> cycles = g.cycles().stream().map(g::describe).toList();
    assertThat(cycles).isEmpty();
  }

  @Test
  void aCycleThroughImportsIsFound() {
    PackageGraph g = new PackageGraph();
    g.add(Path.of("A.java"), "package mira.x.a;\nimport mira.x.b.B;\nclass A { B b; }\n");
    g.add(Path.of("B.java"), "package mira.x.b;\nimport mira.x.c.C;\nclass B { C c; }\n");
    g.add(Path.of("C.java"), "package mira.x.c;\nimport static mira.x.a.A.NAME;\nclass C {}\n");
    g.add(Path.of("D.java"), "package mira.x.d;\nimport mira.x.a.A;\nclass D {}\n");
    assertThat(g.cycles()).containsExactly(Set.of("mira.x.a", "mira.x.b", "mira.x.c"));
    assertThat(g.describe(g.cycles().get(0))).contains("mira.x.c -> mira.x.a (C.java)");
  }

  @Test
  void aCycleThroughAFullyQualifiedNameIsFound() {
    PackageGraph g = new PackageGraph();
    g.add(Path.of("Ingest.java"), "package mira.y.ingest;\nimport mira.y.block.Block;\nclass Ingest {}\n");
    g.add(Path.of("Block.java"), "package mira.y.block;\nclass Block { Object o = mira.y.ingest.Ingest.class; }\n");
    assertThat(g.cycles()).containsExactly(Set.of("mira.y.block", "mira.y.ingest"));
  }

  @Test
  void namesInCommentsAndStringsAreNotUses() {
    PackageGraph g = new PackageGraph();
    g.add(Path.of("A.java"), "package mira.z.a;\nimport mira.z.b.B;\nclass A {}\n");
    g.add(Path.of("B.java"), "package mira.z.b;\n/** See {@link mira.z.a.A}. */\nclass B {\n"
        + "  // mira.z.a.A\n  String s = \"mira.z.a.A\";\n  String t = \"\"\"\n    mira.z.a.A\n    \"\"\";\n}\n");
    assertThat(g.cycles()).isEmpty();
    assertThat(g.edges.get("mira.z.a")).containsKey("mira.z.b");
  }
}
