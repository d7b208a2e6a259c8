package mira.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log under failed I/O: a roll whose open fails, and what {@link Wal#bytes()} counts. */
class WalFaultTest {
  @TempDir Path dir;

  record Got(int channel, long seq, String body) {}

  private static final int MAX = 1 << 20;
  private static final long SEGMENT = 4096;

  /** Real segment files, except that the n-th create (1-based) throws. */
  static final class FailNthCreate implements SegmentFiles {
    private final int failAt;
    private int calls;

    FailNthCreate(int failAt) {
      this.failAt = failAt;
    }

    @Override
    public FileChannel create(Path path) throws IOException {
      if (++calls == failAt) {
        throw new IOException("injected: no space left on device (create #" + calls + ")");
      }
      return REAL.create(path);
    }
  }

  private static long append(Wal w, int channel, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    return w.append(channel, b, 0, b.length, s -> { });
  }

  private static String body(int i) {
    return ("frame " + i + " ").repeat(40);
  }

  private List<Path> segments() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".wal")).sorted().toList();
    }
  }

  @Test
  void aRollWhoseOpenFailsKeepsTheOldSegmentCurrentAndEverySyncWorking() throws Exception {
    List<Got> acknowledged = new ArrayList<>();
    // Create #1 is the segment started by open; #2 is the first roll.
    try (Wal w = Wal.open(dir, 1, MAX, new long[1], (c, s, b) -> true, SEGMENT, new FailNthCreate(2)).wal()) {
      boolean rollFailed = false;
      for (int i = 0; i < 40; i++) {
        try {
          long seq = append(w, 0, body(i));
          acknowledged.add(new Got(0, seq, body(i)));
        } catch (WalException e) {
          assertThat(e).hasMessageContaining("injected");
          assertThat(rollFailed).as("only one roll fails").isFalse();
          rollFailed = true;
          assertThatCode(w::sync).as("a sync right after the failed roll").doesNotThrowAnyException();
        }
      }
      assertThat(rollFailed).isTrue();
      assertThat(segments()).as("the roll was retried by the next append").hasSizeGreaterThan(2);
      assertThatCode(w::sync).doesNotThrowAnyException();
      long seq = append(w, 0, "after the syncs");
      acknowledged.add(new Got(0, seq, "after the syncs"));
      assertThatCode(w::sync).doesNotThrowAnyException();
    }
    List<Got> replayed = new ArrayList<>();
    Wal.open(dir, 1, MAX, new long[1],
        (c, s, b) -> replayed.add(new Got(c, s, new String(b, StandardCharsets.UTF_8))), SEGMENT).wal().close();
    assertThat(replayed).containsExactlyElementsOf(acknowledged);
  }

  @Test
  void aFailedRollLeavesNoSequenceGapAndNoHalfFrame() throws Exception {
    try (Wal w = Wal.open(dir, 1, MAX, new long[1], (c, s, b) -> true, SEGMENT, new FailNthCreate(2)).wal()) {
      long last = -1;
      for (int i = 0; i < 40; i++) {
        try {
          long seq = append(w, 0, body(i));
          assertThat(seq).as("sequences stay dense across the failed roll").isEqualTo(last + 1);
          last = seq;
        } catch (WalException e) {
          assertThat(w.pendingCount(0)).isEqualTo((int) (last + 1));
        }
      }
    }
    Wal.Opened o = Wal.open(dir, 1, MAX, new long[1], (c, s, b) -> true, SEGMENT);
    o.wal().close();
    assertThat(o.replayed().damaged()).isZero();
  }

  @Test
  void bytesCountsWholeFramesOnOpenAndOnReclaimAlike() throws Exception {
    try (Wal w = Wal.open(dir, 1, MAX, new long[1], (c, s, b) -> true, SEGMENT).wal()) {
      for (int i = 0; i < 5; i++) {
        append(w, 0, body(i));
      }
    }
    // A crash mid-frame leaves a torn tail: on disk, but never a frame.
    Path first = segments().getFirst();
    try (FileChannel ch = FileChannel.open(first, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
      ch.write(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7}));
    }
    List<Long> seqs = new ArrayList<>();
    Wal.Opened o = Wal.open(dir, 1, MAX, new long[1], (c, s, b) -> seqs.add(s), SEGMENT);
    try (Wal w = o.wal()) {
      assertThat(o.replayed().damaged()).isEqualTo(1);
      long goodFrames = Files.size(first) - 7;
      assertThat(w.bytes()).isEqualTo(goodFrames);
      w.published(0, seqs.stream().mapToLong(Long::longValue).toArray());
      assertThat(w.reclaim()).as("what reclaim frees is what open counted").isEqualTo(goodFrames);
      assertThat(segments()).doesNotContain(first);
      long onDisk = 0;
      for (Path p : segments()) {
        onDisk += Files.size(p);
      }
      assertThat(w.bytes()).as("the frames left: the publication record in the current segment").isEqualTo(onDisk)
          .isPositive();
    }
  }
}
