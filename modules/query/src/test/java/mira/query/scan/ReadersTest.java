package mira.query.scan;

import mira.block.layout.TableFiles;
import mira.block.catalog.ColdMarker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import mira.block.catalog.BlockName;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.read.TableView;
import mira.proto.wire.Signal;
import mira.query.table.Tables;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Blocks held open between queries: shared, bounded, closed when idle, gone or gone cold, and never
 * under a query that still holds one. The allocator is closed after each test, which fails if any
 * block was left open or any buffer leaked.
 */
class ReadersTest {
  @TempDir Path data;
  final BufferAllocator allocator = new RootAllocator();

  @AfterEach
  void close() {
    allocator.close();
  }

  BlockRef publish(long seq) throws Exception {
    Path dir = Blocks.publish(data, Signal.LOGS, "n", seq,
        mira.query.scan.RefusedBlockTest.logs("b" + seq, Corpus.T0 + seq * 100, 3), Corpus.T0);
    return new BlockRef(Signal.LOGS, BlockName.parse(dir.getFileName().toString()).orElseThrow(), dir);
  }

  static int rows(BlockReader r) throws Exception {
    return Tables.rows(r, TableFiles.LOGS);
  }

  @Test
  void aBlockReadByManyQueriesIsOpenedAndVerifiedOnce() throws Exception {
    BlockRef b = publish(1);
    try (OpenBlockCache readers = new OpenBlockCache(allocator, 4, Duration.ofMinutes(1))) {
      TableView first;
      try (BlockReader r = readers.open(b)) {
        first = r.table(TableFiles.LOGS).orElseThrow();
        assertThat(rows(r)).isEqualTo(3);
      }
      for (int i = 0; i < 5; i++) {
        try (BlockReader r = readers.open(b)) {
          assertThat(r.table(TableFiles.LOGS).orElseThrow()).as("the same loaded table").isSameAs(first);
        }
      }
      assertThat(readers.blocksOpened()).isEqualTo(1);
      assertThat(readers.openBlocks()).isEqualTo(1);
    }
  }

  @Test
  void beyondItsBoundTheLeastRecentlyUsedBlockIsClosedButNotUnderAQueryHoldingIt() throws Exception {
    BlockRef a = publish(1);
    BlockRef b = publish(2);
    BlockRef c = publish(3);
    try (OpenBlockCache readers = new OpenBlockCache(allocator, 2, Duration.ofMinutes(1))) {
      BlockReader held = readers.open(a);
      assertThat(rows(held)).isEqualTo(3);
      try (BlockReader r = readers.open(b)) {
        rows(r);
      }
      try (BlockReader r = readers.open(c)) {
        rows(r);
      }
      assertThat(readers.openBlocks()).isEqualTo(2);
      // a was the least recently used and left the cache, but its query still reads it.
      assertThat(rows(held)).isEqualTo(3);
      held.close();
      try (BlockReader r = readers.open(a)) {
        assertThat(rows(r)).isEqualTo(3);
      }
      assertThat(readers.blocksOpened()).as("a was opened again").isEqualTo(4);
    }
  }

  @Test
  void aReleasedLeaseCannotBeRead() throws Exception {
    BlockRef a = publish(1);
    try (OpenBlockCache readers = new OpenBlockCache(allocator, 2, Duration.ofMinutes(1))) {
      BlockReader r = readers.open(a);
      r.close();
      r.close();
      assertThatThrownBy(() -> r.table(TableFiles.LOGS)).isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void theSweepClosesIdleBlocksAndBlocksThatAreGoneOrHaveGoneCold() throws Exception {
    BlockRef idle = publish(1);
    BlockRef gone = publish(2);
    BlockRef cold = publish(3);
    BlockRef busy = publish(4);
    try (OpenBlockCache readers = new OpenBlockCache(allocator, 8, Duration.ofHours(1))) {
      for (BlockRef b : List.of(idle, gone, cold)) {
        try (BlockReader r = readers.open(b)) {
          rows(r);
        }
      }
      BlockReader holding = readers.open(busy);
      rows(holding);
      readers.sweep();
      assertThat(readers.openBlocks()).as("nothing idle for an hour yet").isEqualTo(4);

      delete(gone.dir());
      Files.createFile(cold.dir().resolve(ColdMarker.FILE));
      readers.sweep();
      assertThat(readers.openBlocks()).isEqualTo(2);
      delete(busy.dir());
      readers.sweep();
      assertThat(readers.openBlocks()).isEqualTo(1);
      assertThat(rows(holding)).as("a query keeps reading the block it holds").isEqualTo(3);
      holding.close();
    }
    try (OpenBlockCache readers = new OpenBlockCache(allocator, 8, Duration.ZERO)) {
      try (BlockReader r = readers.open(idle)) {
        rows(r);
      }
      readers.sweep();
      assertThat(readers.openBlocks()).isZero();
    }
  }

  @Test
  void aColdBlockIsClosedAsSoonAsNoQueryHoldsIt() throws Exception {
    BlockRef cold = publish(1);
    Files.createFile(cold.dir().resolve(ColdMarker.FILE));
    try (OpenBlockCache readers = new OpenBlockCache(allocator, 8, Duration.ofHours(1))) {
      try (BlockReader r = readers.open(cold)) {
        assertThat(rows(r)).isEqualTo(3);
        assertThat(readers.openBlocks()).isEqualTo(1);
      }
      assertThat(readers.openBlocks()).as("its tables would be inflated in memory").isZero();
    }
  }

  @Test
  void manyQueriesShareBlocksFromManyThreads() throws Exception {
    List<BlockRef> blocks = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      blocks.add(publish(i));
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (OpenBlockCache readers = new OpenBlockCache(allocator, 3, Duration.ofMinutes(1))) {
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int seed = t;
        done.add(pool.submit(() -> {
          int n = 0;
          for (int i = 0; i < 300; i++) {
            try (BlockReader r = readers.open(blocks.get((seed + i * 7) % blocks.size()))) {
              n += rows(r);
            }
          }
          return n;
        }));
      }
      for (Future<Integer> f : done) {
        assertThat(f.get()).isEqualTo(900);
      }
      assertThat(readers.openBlocks()).isLessThanOrEqualTo(3);
    } finally {
      pool.shutdownNow();
    }
  }

  static void delete(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      for (Path f : s.toList()) {
        Files.delete(f);
      }
    }
    Files.delete(dir);
  }
}
