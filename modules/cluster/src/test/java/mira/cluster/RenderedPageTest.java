package mira.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import mira.query.doc.Cursor;
import org.junit.jupiter.api.Test;

class RenderedPageTest {
  private static String at(long time, int node) {
    return new Cursor(time, node, 0, 0).encode();
  }

  /** A hop answer as a peer writes it; the rows are copied, never read, so any objects do. */
  private static RenderedPage page(String rows, String positions, String next, long matched) throws IOException {
    String doc = "{\"rows\":[" + rows + "],\"positions\":[" + positions + "]"
        + (next == null ? "" : ",\"next\":\"" + next + "\"")
        + ",\"stats\":{\"blocks_total\":2,\"blocks_pruned\":1,\"blocks_scanned\":1,\"rows_scanned\":\"10\","
        + "\"rows_matched\":\"" + matched + "\",\"took_ms\":\"3\"}}";
    return RenderedPage.read(doc.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void rowsAreCopiedInTheTotalOrderAndTheCursorIsTheLastKeptRow() throws IOException {
    RenderedPage a = page("{\"n\":\"a1\",\"x\":{\"y\":[1,\"]\"]}},{\"n\":\"a2\"}",
        "\"" + at(50, 1) + "\",\"" + at(20, 1) + "\"", null, 2);
    RenderedPage b = page("{\"n\":\"b1\"},{\"n\":\"b2\"}", "\"" + at(40, 2) + "\",\"" + at(30, 2) + "\"", null, 2);
    String out = new String(RenderedPage.merge(List.of(a, b), 3, System.nanoTime()), StandardCharsets.UTF_8);
    assertThat(out).startsWith("{\"rows\":[{\"n\":\"a1\",\"x\":{\"y\":[1,\"]\"]}},{\"n\":\"b1\"},{\"n\":\"b2\"}],\"next\":\""
        + at(30, 2) + "\",\"stats\":{\"blocks_total\":4,\"blocks_pruned\":2,\"blocks_scanned\":2,\"rows_scanned\":\"20\","
        + "\"rows_matched\":\"4\",\"took_ms\":\"");
    assertThat(out).doesNotContain("positions").endsWith("\"}}");
  }

  @Test
  void aPageWithANextOfItsOwnKeepsTheAnswerPaged() throws IOException {
    RenderedPage a = page("{\"n\":\"a1\"}", "\"" + at(50, 1) + "\"", at(50, 1), 1);
    RenderedPage b = page("", "", null, 0);
    String out = new String(RenderedPage.merge(List.of(a, b), 5, System.nanoTime()), StandardCharsets.UTF_8);
    assertThat(out).startsWith("{\"rows\":[{\"n\":\"a1\"}],\"next\":\"" + at(50, 1) + "\"");
    String none = new String(RenderedPage.merge(List.of(b), 5, System.nanoTime()), StandardCharsets.UTF_8);
    assertThat(none).startsWith("{\"rows\":[],\"stats\":");
  }

  @Test
  void rowsAndPositionsMustAgree() {
    assertThatThrownBy(() -> page("{\"n\":1},{\"n\":2}", "\"" + at(1, 1) + "\"", null, 2))
        .isInstanceOf(IOException.class).hasMessageContaining("2 rows but 1 positions");
    assertThatThrownBy(() -> page("{\"n\":1}", "\"not a cursor\"", null, 1))
        .isInstanceOf(IOException.class).hasMessageContaining("positions[0]");
  }
}
