package mira.block;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The module graph the launcher gets. {@code bin/mira} runs {@code -m mira.server}, so only modules
 * reachable through {@code requires} are resolved; the test JVM adds every module on its path and
 * would hide a missing one.
 */
class ModuleGraphTest {
  @Test
  void resolvingMiraBlockAloneBringsArrowsAllocationManager() {
    String path = System.getProperty("jdk.module.path");
    assertThat(path).as("tests run on the module path").isNotBlank();
    ModuleFinder onPath = ModuleFinder.of(Arrays.stream(path.split(File.pathSeparator)).map(Path::of).toArray(Path[]::new));
    Configuration graph = Configuration.empty()
        .resolve(ModuleFinder.compose(ModuleFinder.ofSystem(), onPath), ModuleFinder.of(), Set.of("mira.block"));

    assertThat(graph.findModule("org.apache.arrow.memory.core")).as("positive control").isPresent();
    // RootAllocator finds its allocation manager with Class.forName: absent from the graph, the
    // first allocator of the launched process fails ("No DefaultAllocationManager found").
    assertThat(graph.findModule("org.apache.arrow.memory.unsafe")).isPresent();
  }
}
