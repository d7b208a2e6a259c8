package mira.query.series;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The caps hold while collecting, and give what collecting everything and then truncating would:
 * the smallest max_series keys, the newest max_points points of each, and exact counts of what
 * was left out — whatever the order points arrive in and however they are split into blocks.
 */
class SeriesCapsTest {
  record In(int block, String key, long time, int id) {}

  @Provide
  Arbitrary<List<In>> points() {
    return Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.of("a", "b", "c", "d", "e", "f", "g"),
            Arbitraries.longs().between(0, 20), Arbitraries.integers().between(0, 1_000_000))
        .as(In::new).list().ofMaxSize(300);
  }

  @Property(tries = 300)
  void capsHoldWhileScanningAndMatchSortThenTruncate(@ForAll("points") List<In> in,
      @ForAll @IntRange(min = 1, max = 6) int maxSeries, @ForAll @IntRange(min = 1, max = 8) int maxPoints) {
    // Blocks are collected separately, then merged, as the scan does.
    Map<Integer, SeriesSet> blocks = new TreeMap<>();
    int uid = 0;
    List<In> unique = new ArrayList<>();
    for (In p : in) {
      In q = new In(p.block(), p.key(), p.time(), uid++); // point ids unique, as in a store
      unique.add(q);
      SeriesSet local = blocks.computeIfAbsent(q.block(), b -> new SeriesSet(maxSeries));
      Series s = local.get(q.key());
      if (s == null && local.admit(q.key())) {
        s = new Series(q.key(), "gauge", "", "", List.of(), List.of(), maxPoints);
        local.put(q.key(), s);
      }
      if (s != null) {
        s.add(new Series.Point(q.time(), 0, q.block(), q.id(), Series.LONG, 0, 0, Series.NO_EXEMPLARS));
        assertThat(s.held()).isLessThan(2 * maxPoints);
      }
      assertThat(local.size()).isLessThanOrEqualTo(maxSeries);
    }
    SeriesSet global = new SeriesSet(maxSeries);
    for (SeriesSet b : blocks.values()) {
      global.merge(b);
      assertThat(global.size()).isLessThanOrEqualTo(maxSeries);
    }

    // Brute force: every point, grouped, sorted, truncated.
    TreeMap<String, List<In>> all = new TreeMap<>();
    for (In p : unique) {
      all.computeIfAbsent(p.key(), k -> new ArrayList<>()).add(p);
    }
    List<String> keys = new ArrayList<>(all.keySet());
    List<String> kept = keys.subList(0, Math.min(maxSeries, keys.size()));
    Map<String, List<String>> want = new HashMap<>();
    Map<String, Long> wantDropped = new HashMap<>();
    for (String k : kept) {
      List<In> ps = new ArrayList<>(all.get(k));
      ps.sort((a, b) -> mira.query.doc.Cursor.compare(b.time(), 0, b.block(), b.id(), a.time(), 0, a.block(), a.id()));
      List<In> newest = ps.subList(0, Math.min(maxPoints, ps.size()));
      List<String> ids = new ArrayList<>();
      for (In p : newest.reversed()) {
        ids.add(p.time() + "/" + p.block() + "/" + p.id());
      }
      want.put(k, ids);
      wantDropped.put(k, (long) (ps.size() - newest.size()));
    }

    List<String> gotKeys = new ArrayList<>();
    Map<String, List<String>> got = new HashMap<>();
    Map<String, Long> gotDropped = new HashMap<>();
    for (Series s : global.series()) {
      gotKeys.add(s.name);
      List<String> ids = new ArrayList<>();
      for (Series.Point p : s.finish()) {
        ids.add(p.time() + "/" + p.seq() + "/" + p.id());
      }
      got.put(s.name, ids);
      gotDropped.put(s.name, s.dropped());
    }
    assertThat(gotKeys).isEqualTo(kept);
    assertThat(got).isEqualTo(want);
    assertThat(gotDropped).isEqualTo(wantDropped);
    assertThat(global.droppedSeries()).isEqualTo(new TreeSet<>(keys).size() - kept.size());
  }
}
