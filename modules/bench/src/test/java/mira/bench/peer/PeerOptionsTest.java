package mira.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class PeerOptionsTest {
  @Test
  void defaultsAskEveryClass() {
    PeerOptions o = PeerOptions.parse(new String[] {"--data-dir", "/d"});
    assertThat(o.dataDir).isEqualTo(Path.of("/d"));
    assertThat(o.classes).containsExactly(PeerClass.values());
    assertThat(o.iterations).isEqualTo(20);
    assertThat(o.warmup).isEqualTo(3);
  }

  @Test
  void reuseIsAFlag() {
    PeerOptions o = PeerOptions.parse(new String[] {"--reuse", "--duckdb", "/tmp/x.duckdb", "--data-dir", "/d"});
    assertThat(o.reuse).isTrue();
    assertThat(o.duckdb).isEqualTo("/tmp/x.duckdb");
  }

  @Test
  void classesAreChosenByLabel() {
    PeerOptions o = PeerOptions.parse(new String[] {"--data-dir", "/d", "--classes", "substring,trace_by_id"});
    assertThat(o.classes).isEqualTo(List.of(PeerClass.SUBSTRING, PeerClass.TRACE_BY_ID));
  }

  @Test
  void refusesWhatItDoesNotKnow() {
    assertThatThrownBy(() -> PeerOptions.parse(new String[] {"--iterations", "3"})).hasMessageContaining("--data-dir");
    assertThatThrownBy(() -> PeerOptions.parse(new String[] {"--data-dir", "/d", "--classes", "tail"}))
        .hasMessageContaining("no class \"tail\"");
    assertThatThrownBy(() -> PeerOptions.parse(new String[] {"--data-dir", "/d", "--iterations", "0"}))
        .hasMessageContaining(">= 1");
    assertThatThrownBy(() -> PeerOptions.parse(new String[] {"--data-dir", "/d", "--trace-id", "abc"}))
        .hasMessageContaining("32 hex digits");
    assertThatThrownBy(() -> PeerOptions.parse(new String[] {"--data-dir", "/d", "--memory-limit", "lots"}))
        .hasMessageContaining("not a size");
    assertThatThrownBy(() -> PeerOptions.parse(new String[] {"--data-dir", "/d", "--frobnicate", "1"}))
        .hasMessageContaining("unknown option");
    assertThatThrownBy(() -> PeerOptions.parse(new String[] {"--data-dir", "/d", "--reuse"}))
        .hasMessageContaining("--reuse needs --duckdb");
  }
}
