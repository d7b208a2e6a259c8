package mira.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/config.md documents exactly the keys the loader accepts, with their defaults. */
class ConfigDocTest {
  private static final Path DOC = Path.of("../../docs/config.md");

  @Test
  void everyKeyIsDocumentedWithItsDefaultAndFlag() throws Exception {
    List<String> rows = Files.readAllLines(DOC).stream().filter(l -> l.startsWith("| `")).toList();
    assertThat(rows).hasSize(Key.values().length);
    for (Key k : Key.values()) {
      String row = rows.stream().filter(r -> r.startsWith("| `" + k.path() + "` |")).findFirst()
          .orElseThrow(() -> new AssertionError("docs/config.md has no row for " + k.path()));
      String[] cells = row.split("\\|");
      String documentedDefault = cells[2].trim();
      if (!k.defaultValue().isEmpty()) {
        assertThat(documentedDefault).as(k.path()).isEqualTo("`" + k.defaultValue() + "`");
      }
      assertThat(cells[3].trim()).as(k.path()).isEqualTo(k.flag().map(f -> "`" + f + "`").orElse(""));
    }
  }
}
