package mira.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RowFieldsTest {
  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void readsTheSpansOwnIdNotALinksOrAnAttributes() {
    byte[] row = b("{\"trace_id\":\"t\",\"attributes\":[{\"key\":\"span_id\",\"value\":{\"stringValue\":\"attr\"}}],"
        + "\"links\":[{\"span_id\":\"link\"}],\"span_id\":\"own\",\"start_time_unix_nano\":\"42\"}");
    assertThat(RowFields.topLevelString(row, "span_id")).isEqualTo("own");
    assertThat(RowFields.topLevelString(row, "start_time_unix_nano")).isEqualTo("42");
  }

  @Test
  void anAbsentFieldIsNull() {
    assertThat(RowFields.topLevelString(b("{\"links\":[{\"span_id\":\"link\"}]}"), "span_id")).isNull();
  }
}
