package mira.block.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import mira.block.column.FixedColumn;
import mira.block.column.ListColumn;
import org.junit.jupiter.api.Test;

class InternerTest {
  static Table table() {
    return Table.builder("t.arrow")
        .addInterned(FixedColumn.u32("id", false), Batch.ROOT)
        .add(new ListColumn("key", false, FixedColumn.f64("item", false)))
        .build();
  }

  static byte[] doubles(double... v) {
    ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
    for (double d : v) {
      b.putDouble(d);
    }
    return b.array();
  }

  static int intern(Interner i, double... v) {
    byte[] b = doubles(v);
    return i.intern(b, 0, b.length);
  }

  @Test
  void equalKeysShareARowAndDistinctBytesDoNot() {
    Interner i = new Interner(table());
    assertThat(intern(i, 1, 2, 3)).isZero();
    assertThat(intern(i)).isEqualTo(1);
    assertThat(intern(i, 1, 2, 3)).isZero();
    assertThat(intern(i, 0.0)).isEqualTo(2);
    assertThat(intern(i, -0.0)).as("compared as bytes, not as numbers").isEqualTo(3);
    assertThat(intern(i, 1, 2)).as("a prefix is another key").isEqualTo(4);
    assertThat(intern(i)).isEqualTo(1);
    assertThat(i.size()).isEqualTo(5);
    FixedColumn id = (FixedColumn) i.table().column(0);
    for (int r = 0; r < i.size(); r++) {
      assertThat(id.getInt(r)).as("id is the row").isEqualTo(r);
    }
  }

  @Test
  void thousandsOfKeysSurviveGrowthAndReindexing() {
    Interner i = new Interner(table());
    for (int k = 0; k < 5000; k++) {
      assertThat(intern(i, k, k / 2.0)).isEqualTo(k);
    }
    Interner again = new Interner(i.table().copy());
    for (int k = 4999; k >= 0; k--) {
      assertThat(intern(again, k, k / 2.0)).as("a copy indexes the rows it holds").isEqualTo(k);
    }
    assertThat(again.size()).isEqualTo(5000);
  }

  @Test
  void aPlanMapsSharedKeysToExistingRowsAndNumbersNewOnesInOrder() {
    Interner block = new Interner(table());
    intern(block, 1);
    intern(block, 2);
    Interner batch = new Interner(table());
    intern(batch, 3);
    intern(batch, 2);
    intern(batch, 4);
    int[] map = block.plan(batch);
    assertThat(map).containsExactly(2, 1, 3);
    AppendPlan plan = new AppendPlan(new int[5], new int[0], new int[0], new int[0],
        new int[][] {null, null, null, null, map});
    block.appendNew(batch, plan, map);
    assertThat(block.size()).isEqualTo(4);
    FixedColumn id = (FixedColumn) block.table().column(0);
    assertThat(new int[] {id.getInt(0), id.getInt(1), id.getInt(2), id.getInt(3)}).containsExactly(0, 1, 2, 3);
    assertThat(intern(block, 3)).isEqualTo(2);
    assertThat(intern(block, 4)).isEqualTo(3);
  }

  @Test
  void aTableWithMoreThanIdAndKeyIsRefused() {
    Table t = Table.builder("x.arrow").add(FixedColumn.u32("id", false)).add(FixedColumn.u32("other", false)).build();
    assertThatThrownBy(() -> new Interner(t)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aKeyOfPartValuesIsRefused() {
    Interner i = new Interner(table());
    assertThatThrownBy(() -> i.intern(new byte[12], 0, 12)).isInstanceOf(IllegalArgumentException.class);
  }
}
