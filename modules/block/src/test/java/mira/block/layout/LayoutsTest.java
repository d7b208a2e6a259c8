package mira.block.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import mira.block.column.Column;
import mira.block.logs.LogsBatch;
import mira.block.metrics.MetricsBatch;
import mira.block.table.Batch;
import mira.block.table.LayoutTables;
import mira.block.table.Table;
import mira.block.traces.TracesBatch;
import org.junit.jupiter.api.Test;

/** The writers' tables are the layout's, table for table and column for column. */
class LayoutsTest {
  @Test
  void everyTableOfEveryBatchIsItsLayout() {
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (Batch batch : List.of(new LogsBatch(), new TracesBatch(), new MetricsBatch())) {
      for (Table t : batch.tables()) {
        TableLayout layout = Layouts.of(t.file());
        List<Column> cols = List.of(t.columns());
        assertThat(cols).as(t.file()).hasSize(layout.columns().size());
        for (int i = 0; i < cols.size(); i++) {
          Col want = layout.columns().get(i);
          assertThat(cols.get(i).name()).as(t.file()).isEqualTo(want.name());
          // A dictionary column keeps its nulls in its index column (LayoutOnDiskTest checks the stored field).
          if (!(cols.get(i) instanceof mira.block.column.DictColumn)) {
            assertThat(cols.get(i).nullable()).as(t.file() + " " + want.name()).isEqualTo(want.nullable());
          }
        }
        seen.add(t.file());
      }
    }
    assertThat(seen).isEqualTo(Layouts.files()).hasSize(22);
  }

  @Test
  void neverNullNamesTheNonNullableColumns() {
    assertThat(Layouts.LOGS.neverNull()).contains("time_unix_nano", "resource_id")
        .doesNotContain("severity_number", "observed_time_unix_nano");
    assertThat(Layouts.SPANS.neverNull()).contains("kind", "status_code", "duration_nano")
        .doesNotContain("flags", "parent_span_id");
  }

  @Test
  void aRoleForAColumnTheLayoutLacksIsRefused() {
    assertThatThrownBy(() -> LayoutTables.build(Layouts.SPAN_EVENTS, LayoutTables.Role.rows("no_such", 0)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no_such");
    assertThatThrownBy(() -> Layouts.of("nothing.arrow")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nothing.arrow");
  }
}
