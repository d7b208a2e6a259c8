package mira.proto.json;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The project runs tests on the module path; this fails if a build change quietly stops that. */
class ModulePathTest {

  @Test
  void testsRunInsideModuleMiraProto() {
    assertThat(getClass().getModule().isNamed()).isTrue();
    assertThat(getClass().getModule()).isSameAs(OtlpJson.class.getModule());
    assertThat(OtlpJson.class.getModule().getName()).isEqualTo("mira.proto");
  }
}
