package mira.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class SourcesTest {
  private static final Sources TWO_OF_THREE = new Sources(3, 2, List.of(
      new Sources.Node("a", "local", true, 3_400, null),
      new Sources.Node("b", "10.0.0.2:4318", true, 5_999, null),
      new Sources.Node(null, "10.0.0.3:4318", false, 2_000_012, "timeout after 2s")));

  @Test
  void theClusterIsAppendedAsTheLastMember() {
    String out = new String(TWO_OF_THREE.appendTo("{\"rows\":[]}".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    assertThat(out).isEqualTo("{\"rows\":[],\"cluster\":{\"asked\":3,\"answered\":2,\"partial\":true,\"nodes\":["
        + "{\"node\":\"a\",\"address\":\"local\",\"ok\":true,\"took_ms\":3,\"took_us\":3400},"
        + "{\"node\":\"b\",\"address\":\"10.0.0.2:4318\",\"ok\":true,\"took_ms\":5,\"took_us\":5999},"
        + "{\"node\":null,\"address\":\"10.0.0.3:4318\",\"ok\":false,\"took_ms\":2000,\"took_us\":2000012,\"error\":\"timeout after 2s\"}]}}");
    assertThat(new String(TWO_OF_THREE.appendTo("{ }\n".getBytes()), StandardCharsets.UTF_8)).startsWith("{ \"cluster\":{");
    assertThat(TWO_OF_THREE.failures()).containsExactly("10.0.0.3:4318: timeout after 2s");
  }

  @Test
  void timingIsWrittenOnlyWhenTheSourcesCarryIt() {
    Sources timed = new Sources(3, 2, TWO_OF_THREE.nodes(), new Sources.Timing(120, 310, 4_100, 6_020, 6_400,
        List.of(new Sources.PeerTiming("10.0.0.2:4318", 5_100, 5_700, 5_999))));
    String out = new String(timed.appendTo("{}".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    assertThat(out).endsWith("\"error\":\"timeout after 2s\"}],\"timing\":{\"parsed_us\":120,\"asked_us\":310,"
        + "\"local_us\":4100,\"gathered_us\":6020,\"merged_us\":6400,\"peers\":[{\"address\":\"10.0.0.2:4318\","
        + "\"headers_us\":5100,\"body_us\":5700,\"read_us\":5999}]}}}");
    assertThat(new String(TWO_OF_THREE.appendTo("{}".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
        .doesNotContain("timing");
  }
}
