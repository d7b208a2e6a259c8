package mira.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class SourcesTest {
  private static final Sources TWO_OF_THREE = new Sources(3, 2, List.of(
      new Sources.Node("a", "local", true, 3, null),
      new Sources.Node("b", "10.0.0.2:4318", true, 5, null),
      new Sources.Node(null, "10.0.0.3:4318", false, 2000, "timeout after 2s")));

  @Test
  void theClusterIsAppendedAsTheLastMember() {
    String out = new String(TWO_OF_THREE.appendTo("{\"rows\":[]}".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    assertThat(out).isEqualTo("{\"rows\":[],\"cluster\":{\"asked\":3,\"answered\":2,\"partial\":true,\"nodes\":["
        + "{\"node\":\"a\",\"address\":\"local\",\"ok\":true,\"took_ms\":3},"
        + "{\"node\":\"b\",\"address\":\"10.0.0.2:4318\",\"ok\":true,\"took_ms\":5},"
        + "{\"node\":null,\"address\":\"10.0.0.3:4318\",\"ok\":false,\"took_ms\":2000,\"error\":\"timeout after 2s\"}]}}");
    assertThat(new String(TWO_OF_THREE.appendTo("{ }\n".getBytes()), StandardCharsets.UTF_8)).startsWith("{ \"cluster\":{");
    assertThat(TWO_OF_THREE.failures()).containsExactly("10.0.0.3:4318: timeout after 2s");
  }
}
