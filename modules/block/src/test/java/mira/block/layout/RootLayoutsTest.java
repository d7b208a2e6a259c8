package mira.block.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import mira.block.column.Column;
import mira.block.logs.LogsBatch;
import mira.block.table.Batch;
import mira.block.traces.TracesBatch;
import org.junit.jupiter.api.Test;

/** The writers' root tables are the layout's, column for column. */
class RootLayoutsTest {
  @Test
  void theLogsAndSpansTablesAreBuiltFromTheLayout() {
    check(new LogsBatch(), TableFiles.LOGS, RootLayouts.LOGS);
    check(new TracesBatch(), TableFiles.SPANS, RootLayouts.SPANS);
  }

  @Test
  void neverNullNamesTheNonNullableColumns() {
    assertThat(RootLayouts.neverNull(RootLayouts.LOGS)).contains("time_unix_nano", "resource_id")
        .doesNotContain("severity_number", "observed_time_unix_nano");
    assertThat(RootLayouts.neverNull(RootLayouts.SPANS)).contains("kind", "status_code", "duration_nano")
        .doesNotContain("flags", "parent_span_id");
  }

  private static void check(Batch batch, String file, List<Col> layout) {
    var root = batch.tables()[Batch.ROOT];
    assertThat(root.file()).isEqualTo(file);
    List<Column> cols = List.of(root.columns());
    assertThat(cols).hasSize(layout.size());
    for (int i = 0; i < cols.size(); i++) {
      assertThat(cols.get(i).name()).isEqualTo(layout.get(i).name());
      // A dictionary column keeps its nulls in its index column; the wrapper itself reports false.
      if (!(cols.get(i) instanceof mira.block.column.DictColumn)) {
        assertThat(cols.get(i).nullable()).as(cols.get(i).name()).isEqualTo(layout.get(i).nullable());
      }
    }
  }
}
