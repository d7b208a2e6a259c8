package mira.query.frame;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import mira.block.read.OpenBlocks;
import mira.proto.wire.Signal;
import mira.query.doc.MapQuery;
import mira.query.prune.Pruning;
import mira.query.prune.SidecarCache;
import mira.query.result.ServiceMap;
import mira.query.scan.Engine;
import mira.query.scan.OpenBlockCache;
import mira.query.scan.ScanThreads;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterTry;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * The columnar map ({@link ColumnarMaps}, from {@link MapPiece}s) against the map through the
 * search ({@link ServiceMaps#rendered}) on random traces whose spans are spread over blocks in
 * different hours: the same nodes and edges, counts, errors, entities and p50/p99 exactly — cold,
 * from kept pieces, and with a budget so small that pieces are dropped as they are kept.
 */
class ColumnarMapTest {
  static final long T0 = Corpus.T0;
  static final long HOUR = ServiceMapOracleTest.HOUR;

  Path dir;

  @AfterTry
  void clean() throws Exception {
    Blocks.deleteTree(dir);
  }

  @Property(tries = 40)
  void equalsTheMapThroughTheSearch(@ForAll long seed) throws Exception {
    dir = Files.createTempDirectory("mira-colmap");
    Random rnd = new Random(seed);
    List<ServiceMapOracleTest.Sp> spans = new ArrayList<>();
    int traces = 5 + rnd.nextInt(60);
    for (int t = 0; t < traces; t++) {
      String trace = ServiceMapOracleTest.hex(rnd, 16);
      long start = T0 + rnd.nextInt(3) * HOUR + rnd.nextInt(1000) * 1_000_000L;
      List<ServiceMapOracleTest.Sp> mine = new ArrayList<>();
      int n = 1 + rnd.nextInt(12);
      for (int i = 0; i < n; i++) {
        ServiceMapOracleTest.Sp parent = mine.isEmpty() || rnd.nextInt(6) == 0 ? null : mine.get(rnd.nextInt(mine.size()));
        String service = parent != null && rnd.nextBoolean() ? parent.service()
            : ServiceMapOracleTest.SERVICES.get(rnd.nextInt(4));
        int kind = 1 + rnd.nextInt(5);
        String virtual = kind == 3 || kind == 4 ? switch (rnd.nextInt(4)) {
          case 0 -> "db.system=postgresql";
          case 1 -> "peer.service=billing";
          case 2 -> "messaging.system=kafka";
          default -> null;
        } : null;
        ServiceMapOracleTest.Sp link = !spans.isEmpty() && rnd.nextInt(8) == 0 ? spans.get(rnd.nextInt(spans.size())) : null;
        // A parent id that names no span at all, now and then.
        String parentId = parent == null ? (rnd.nextInt(10) == 0 ? ServiceMapOracleTest.hex(rnd, 8) : "") : parent.id();
        long at = start + (parent == null ? 0 : rnd.nextInt(3) * HOUR / 2);
        // Durations repeat often (a few distinct values), so quantiles fall on ties.
        long duration = 1_000_000L * (rnd.nextBoolean() ? 1 + rnd.nextInt(5) : 1 + rnd.nextInt(500));
        mine.add(new ServiceMapOracleTest.Sp(trace, ServiceMapOracleTest.hex(rnd, 8), parentId, service,
            rnd.nextInt(2), kind, rnd.nextInt(5) == 0, duration, virtual, link == null ? null : link.trace(),
            link == null ? null : link.id(), at));
      }
      spans.addAll(mine);
    }
    int blocks = 1 + rnd.nextInt(7);
    List<List<ServiceMapOracleTest.Sp>> parts = new ArrayList<>();
    for (int b = 0; b < blocks; b++) {
      parts.add(new ArrayList<>());
    }
    for (ServiceMapOracleTest.Sp s : spans) {
      parts.get(rnd.nextInt(blocks)).add(s);
    }
    int seq = 1;
    for (List<ServiceMapOracleTest.Sp> part : parts) {
      if (!part.isEmpty()) {
        Blocks.publish(dir, Signal.TRACES, "n", seq++, ServiceMapOracleTest.request(part), T0);
      }
    }
    long[][] windows = {{T0 - HOUR, T0 + 6 * HOUR}, {T0 + HOUR, T0 + 2 * HOUR},
        {T0 + rnd.nextInt(3 * 3600) * 1_000_000_000L, T0 + 4 * HOUR}, {T0 + 2 * HOUR, T0 + 2 * HOUR + 1}};
    try (BufferAllocator allocator = new RootAllocator();
        OpenBlockCache readers = new OpenBlockCache(allocator, 4, java.time.Duration.ZERO)) {
      Engine engine = new Engine(dir.toAbsolutePath(), allocator,
          Pruning.withSidecars(new SidecarCache(SidecarCache.DEFAULT_MAX_BYTES)), new ScanThreads(1),
          OpenBlocks.NONE, readers);
      MapPieces kept = new MapPieces(MapPieces.DEFAULT_MAX_BYTES);
      MapPieces tiny = new MapPieces(4_000);
      for (int round = 0; round < 2; round++) {
        for (long[] w : windows) {
          MapQuery q = new MapQuery(w[0], w[1], List.of(), null);
          ServiceMap want = ServiceMaps.rendered(engine, q);
          assertThat(want.truncated()).isFalse();
          for (MapPieces cache : List.of(kept, tiny)) {
            ServiceMap got = ColumnarMaps.run(engine, q, cache);
            assertThat(got.truncated()).isFalse();
            assertThat(got.nodes()).as("nodes, seed %d, window %d..%d", seed, w[0], w[1])
                .containsExactlyElementsOf(want.nodes());
            assertThat(got.edges()).as("edges, seed %d, window %d..%d", seed, w[0], w[1])
                .containsExactlyElementsOf(want.edges());
            assertThat(got.refused()).isEmpty();
          }
        }
      }
      assertThat(kept.size()).isEqualTo(seq - 1);
      assertThat(tiny.bytes()).isLessThanOrEqualTo(4_000);
    }
  }

  @Test
  void theBudgetDropsTheLeastRecentlyUsedAndTheSweepDropsRemovedBlocks() throws Exception {
    dir = Files.createTempDirectory("mira-colmap");
    try {
      List<Path> blocks = new ArrayList<>();
      Random rnd = new Random(7);
      for (int b = 0; b < 3; b++) {
        List<ServiceMapOracleTest.Sp> part = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
          part.add(new ServiceMapOracleTest.Sp(ServiceMapOracleTest.hex(rnd, 16), ServiceMapOracleTest.hex(rnd, 8), "",
              "web", 0, 2, false, 1_000_000L, null, null, null, T0 + i));
        }
        blocks.add(Blocks.publish(dir, Signal.TRACES, "n", b + 1, ServiceMapOracleTest.request(part), T0));
      }
      MapPiece[] pieces = new MapPiece[3];
      MapPiece.Rows[] rows = new MapPiece.Rows[3];
      try (BufferAllocator allocator = new RootAllocator();
          OpenBlockCache readers = new OpenBlockCache(allocator, 4, java.time.Duration.ZERO)) {
        Engine engine = new Engine(dir.toAbsolutePath(), allocator, Pruning.byNameOnly(), new ScanThreads(0),
            OpenBlocks.NONE, readers);
        var sources = engine.sources(Signal.TRACES, Long.MIN_VALUE, Long.MAX_VALUE);
        for (var ref : sources.refs()) {
          int i = blocks.indexOf(ref.dir());
          try (var r = engine.open(sources, ref)) {
            pieces[i] = MapPiece.read(r, ref, Long.MIN_VALUE, Long.MAX_VALUE);
            rows[i] = MapPiece.rows(r, ref, pieces[i]);
          }
        }
      }
      long one = pieces[0].bytes();
      assertThat(one).isGreaterThan(50 * 20L);
      long oneRows = rows[0].bytes();
      MapPieces cache = new MapPieces(2 * one + one / 2, oneRows + oneRows / 2);
      Object[] keys = new Object[3];
      for (int i = 0; i < 3; i++) {
        keys[i] = BlockTallies.key(blocks.get(i));
      }
      cache.put(keys[0], pieces[0]);
      cache.put(keys[1], pieces[1]);
      assertThat(cache.get(keys[0])).isSameAs(pieces[0]); // 0 is now the most recently used
      cache.put(keys[2], pieces[2]);
      assertThat(cache.size()).isEqualTo(2);
      assertThat(cache.get(keys[1])).isNull();
      assertThat(cache.get(keys[0])).isSameAs(pieces[0]);
      assertThat(cache.get(keys[2])).isSameAs(pieces[2]);
      assertThat(cache.bytes()).isEqualTo(pieces[0].bytes() + pieces[2].bytes());
      // Kept rows have their own budget: one block's fits, a second drops the first.
      cache.putRows(keys[0], rows[0]);
      cache.putRows(keys[2], rows[2]);
      assertThat(cache.rowsKept()).isEqualTo(1);
      assertThat(cache.rows(keys[0])).isNull();
      assertThat(cache.rows(keys[2])).isSameAs(rows[2]);

      // Retention removes block 2; the compactor replaces block 0 (same name, a new directory).
      Blocks.deleteTree(blocks.get(2));
      Path aside = blocks.get(0).resolveSibling("aside");
      Files.move(blocks.get(0), aside);
      Files.createDirectory(blocks.get(0));
      cache.sweep();
      assertThat(cache.size()).isZero();
      assertThat(cache.bytes()).isZero();
      assertThat(cache.rowsKept()).isZero();

      // A piece larger than the whole budget is not kept.
      MapPieces small = new MapPieces(one - 1);
      small.put(keys[1], pieces[1]);
      assertThat(small.size()).isZero();
    } finally {
      Blocks.deleteTree(dir);
      dir = null;
    }
  }
}
