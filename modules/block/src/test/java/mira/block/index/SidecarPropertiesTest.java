package mira.block.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import mira.block.index.ZoneIndex.Answer;
import mira.block.index.ZoneIndex.Op;
import mira.block.table.Batch;
import mira.block.table.CanonicalText;
import mira.block.testing.MappedReads;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The sidecars can only err towards more work: over random published blocks of every signal,
 * whenever brute force over the block's stored values (read back with Arrow Java's reader) finds
 * a match for a probe, the index read from the block's files answers "maybe".
 */
class SidecarPropertiesTest {
  @Provide
  Arbitrary<IndexedBlocks.Request> requests() {
    return IndexedBlocks.anySignal();
  }

  @Property(tries = 100)
  void theSidecarsNeverAnswerNoWhereTheBlockHasAMatch(@ForAll("requests") IndexedBlocks.Request req) throws Exception {
    Path data = Files.createTempDirectory("mira-sidecars");
    try {
      Batch batch = IndexedBlocks.decode(req);
      if (batch.isEmpty()) {
        return;
      }
      Path dir = IndexedBlocks.publish(data, batch);
      checkTrace(dir, req);
      List<Oracle.Attr> attrs = Oracle.attributes(dir);
      checkAttr(dir, attrs);
      checkZone(dir, req, attrs);
    } finally {
      MappedReads.deleteTree(data);
    }
  }

  private static void checkTrace(Path dir, IndexedBlocks.Request req) throws Exception {
    List<byte[]> ids = Oracle.traceIds(dir, req.signal());
    TraceIndex idx = TraceIndex.read(dir);
    if (ids.isEmpty()) {
      assertThat(dir.resolve(TraceIndex.FILE)).as("no trace ids, no trace.idx").doesNotExist();
      return;
    }
    assertThat(idx.known()).as(idx.toString()).isTrue();
    for (byte[] id : ids) {
      assertThat(idx.mightContain(id)).as("a trace id of the block").isTrue();
    }
  }

  /** Equality probes: each stored value's canonical text and other spellings of it, plus strays. */
  private static Set<String> probes(List<Oracle.Attr> attrs) {
    Set<String> p = new LinkedHashSet<>(List.of("200", "503", "abc", "", "NaN", "1e400", "true", "0"));
    for (Oracle.Attr a : attrs) {
      switch (a.type()) {
        case 1 -> p.add((String) a.value());
        case 2 -> {
          long v = (Long) a.value();
          p.addAll(List.of(Long.toString(v), v + ".0", "+" + v, v + "e0", Double.toString(v)));
          if (v >= 0) {
            p.add("0" + v);
          }
        }
        case 3 -> {
          double d = (Double) a.value();
          p.add(Double.toString(d));
          p.add(CanonicalText.ofDouble(d));
        }
        case 4 -> {
          p.add(a.value().toString());
          p.add(a.value().toString().toUpperCase());
        }
        case 7 -> p.add(Base64.getEncoder().encodeToString((byte[]) a.value()));
        default -> { }
      }
    }
    return p;
  }

  private static Map<String, List<Oracle.Attr>> byKey(List<Oracle.Attr> attrs) {
    Map<String, List<Oracle.Attr>> m = new HashMap<>();
    for (Oracle.Attr a : attrs) {
      m.computeIfAbsent(a.key(), k -> new ArrayList<>()).add(a);
    }
    m.putIfAbsent("absent.key", List.of());
    return m;
  }

  private static void checkAttr(Path dir, List<Oracle.Attr> attrs) {
    AttrIndex idx = AttrIndex.read(dir);
    assertThat(idx.known()).as(idx.toString()).isTrue();
    assertThat(idx.hasDouble()).isEqualTo(attrs.stream().anyMatch(a -> a.type() == 3));
    Set<String> probes = probes(attrs);
    for (Map.Entry<String, List<Oracle.Attr>> e : byKey(attrs).entrySet()) {
      for (String probe : probes) {
        boolean match = false;
        for (Oracle.Attr a : e.getValue()) {
          if (Oracle.eqMatches(a, probe)) {
            match = true;
            break;
          }
        }
        boolean maybe = idx.mightContain(e.getKey(), probe);
        if (match) {
          assertThat(maybe).as("attr.idx on " + e.getKey() + " = \"" + probe + "\" over " + e.getValue()).isTrue();
        }
        Statistics.label("attr.idx").collect(match ? "match" : maybe ? "maybe, no match" : "pruned");
      }
    }
  }

  /** Ordered probes: each stored number, its neighbours as integers and as doubles, and strays. */
  private static List<Number> bounds(Iterable<Object> values) {
    List<Number> b = new ArrayList<>(List.of(0L, -1L, 500L, 0.5, -0.0, Long.MAX_VALUE, Long.MIN_VALUE, 0x1p53, Double.NaN,
        Double.POSITIVE_INFINITY));
    for (Object o : values) {
      if (o instanceof Long v) {
        b.addAll(List.of(v, v - 1, v + 1, (double) v, v + 0.5, v - 0.5));
      } else if (o instanceof Double d) {
        b.addAll(List.of(d, Math.nextUp(d), Math.nextDown(d), (long) (double) d, (long) (double) d + 1));
      }
    }
    return b;
  }

  private static void checkZone(Path dir, IndexedBlocks.Request req, List<Oracle.Attr> attrs) throws Exception {
    ZoneIndex idx = ZoneIndex.read(dir);
    assertThat(idx.known()).as(idx.toString()).isTrue();
    // Attributes: every key of the block (and one it lacks), over every level.
    Map<String, List<Object>> attrValues = new HashMap<>();
    for (Map.Entry<String, List<Oracle.Attr>> e : byKey(attrs).entrySet()) {
      List<Object> vs = new ArrayList<>();
      for (Oracle.Attr a : e.getValue()) {
        Object v = Oracle.orderedValue(a);
        if (v != null) {
          vs.add(v);
        }
      }
      attrValues.put(e.getKey(), vs);
    }
    check(idx, true, attrValues);
    // Root columns, as the index's specification lists them.
    Map<String, List<Object>> columns = Oracle.rootColumns(dir, req.signal());
    assertThat(idx.columns()).as("columns covered").isEqualTo(columns.keySet());
    check(idx, false, columns);
  }

  private static void check(ZoneIndex idx, boolean attribute, Map<String, List<Object>> values) {
    List<Object> all = new ArrayList<>();
    values.values().forEach(all::addAll);
    List<Number> bounds = bounds(all);
    for (Map.Entry<String, List<Object>> e : values.entrySet()) {
      for (Number bound : bounds) {
        for (Op op : Op.values()) {
          boolean match = false;
          for (Object v : e.getValue()) {
            if (Oracle.ordered(v, op, bound)) {
              match = true;
              break;
            }
          }
          Answer a = bound instanceof Long l ? idx.mayOverlap(e.getKey(), attribute, op, l)
              : idx.mayOverlap(e.getKey(), attribute, op, bound.doubleValue());
          if (match) {
            assertThat(a).as("zone.idx " + (attribute ? "attribute " : "column ") + e.getKey() + " " + op + " "
                + bound + " over " + e.getValue()).isEqualTo(Answer.MAYBE);
          }
          Statistics.label("zone.idx").collect(match ? "match" : a == Answer.MAYBE ? "maybe, no match" : "pruned");
        }
      }
    }
  }
}
