package mira.query.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.UInt4Vector;

/**
 * Children grouped by parent, in both forms (binary search over a parent column that never
 * decreases, a counting sort over one that does), against grouping by brute force.
 */
class ChildrenTest {
  @Property(tries = 300)
  void childrenOfTheSelectedParentsInTableOrder(@ForAll @Size(max = 60) List<@IntRange(min = 0, max = 11) Integer> parents,
      @ForAll boolean sort, @ForAll @Size(12) List<Boolean> selection, @ForAll boolean all) {
    int[] p = parents.stream().mapToInt(Integer::intValue).toArray();
    if (sort) {
      Arrays.sort(p);
    }
    boolean[] selected = new boolean[12];
    for (int i = 0; i < 12; i++) {
      selected[i] = selection.get(i);
    }
    Statistics.label("form").collect(all ? "all" : sorted(p) ? "sorted" : "unsorted");
    try (BufferAllocator a = new RootAllocator(); UInt4Vector v = new UInt4Vector("parent_id", a)) {
      v.allocateNew(Math.max(1, p.length));
      for (int i = 0; i < p.length; i++) {
        v.set(i, p[i]);
      }
      v.setValueCount(p.length);
      Children c = Children.of(IntReader.of(v), p.length, 12, all ? null : selected);
      for (int parent = 0; parent < 12; parent++) {
        List<Integer> want = new ArrayList<>();
        if (all || selected[parent]) {
          for (int j = 0; j < p.length; j++) {
            if (p[j] == parent) {
              want.add(j);
            }
          }
        }
        List<Integer> got = new ArrayList<>();
        for (int k = 0; k < c.count(parent); k++) {
          got.add(c.row(parent, k));
        }
        assertThat(got).as("children of %d", parent).isEqualTo(want);
      }
    }
  }

  static boolean sorted(int[] p) {
    for (int i = 1; i < p.length; i++) {
      if (p[i] < p[i - 1]) {
        return false;
      }
    }
    return true;
  }
}
