package mira.block.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import mira.block.catalog.BlockName;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/** Checks that Mira's block reader reads a block exactly as Arrow Java's own reader does. */
public final class MappedReads {
  private MappedReads() {}

  /** Removes {@code root} and everything under it (jqwik properties get no {@code @TempDir}). */
  public static void deleteTree(Path root) throws java.io.IOException {
    try (java.util.stream.Stream<Path> s = java.nio.file.Files.walk(root)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        java.nio.file.Files.delete(p);
      }
    }
  }

  /** Reads every table of {@code blockDir} both ways and asserts equal values and no leak. */
  public static void assertReadsLikeArrow(Signal signal, Path blockDir) throws Exception {
    BlockRef ref = new BlockRef(signal, BlockName.parse(blockDir.getFileName().toString()).orElseThrow(), blockDir);
    var expected = ReaderTables.allWithArrow(blockDir);
    try (BufferAllocator a = new RootAllocator()) {
      try (BlockReader r = BlockReader.open(ref, a)) {
        assertThat(ReaderTables.all(r, blockDir)).isEqualTo(expected);
      }
      assertThat(a.getAllocatedMemory()).as("released on close").isZero();
    }
  }
}
