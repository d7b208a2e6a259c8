package mira.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

class WalTest {
  @TempDir Path dir;

  record Got(int channel, long seq, String body) {}

  private static final int MAX = 1 << 20;

  private Wal.Opened open(long[] watermarks, List<Got> into) throws IOException {
    return Wal.open(dir, 3, MAX, watermarks, (c, s, b) -> into.add(new Got(c, s, new String(b, StandardCharsets.UTF_8))), 4096);
  }

  private static long append(Wal w, int channel, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    return w.append(channel, b, 0, b.length, s -> { });
  }

  private List<Path> segments() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".wal")).sorted().toList();
    }
  }

  @Test
  void framesAtOrAboveTheirChannelsWatermarkAreReplayedWithTheirSequence() throws Exception {
    try (Wal w = open(new long[3], new ArrayList<>()).wal()) {
      assertThat(append(w, 0, "a")).isEqualTo(0);
      assertThat(append(w, 1, "b")).isEqualTo(1);
      assertThat(append(w, 0, "c")).isEqualTo(2);
      assertThat(append(w, 2, "d")).isEqualTo(3);
    }
    List<Got> got = new ArrayList<>();
    Wal.Opened o = open(new long[] {1, 2, 0}, got);
    try (Wal w = o.wal()) {
      assertThat(got).containsExactly(new Got(0, 2, "c"), new Got(2, 3, "d"));
      assertThat(o.replayed().replayed()).isEqualTo(2);
      assertThat(o.replayed().skipped()).isEqualTo(2);
      assertThat(o.replayed().damaged()).isZero();
      assertThat(w.pendingCount(0)).as("replayed frames are pending again").isEqualTo(1);
      assertThat(append(w, 1, "e")).as("new sequences continue above every frame seen").isEqualTo(4);
    }
  }

  @Test
  void theOnlyWatermarkABlockMayClaimIsTheOldestPendingFrameItDoesNotHold() throws Exception {
    try (Wal w = open(new long[3], new ArrayList<>()).wal()) {
      for (int i = 0; i < 6; i++) {
        append(w, 0, "x" + i);
      }
      // Shard A holds 0, 2, 4; shard B holds 1, 3, 5 and has not published.
      assertThat(w.watermarkFor(0, new long[] {0, 2, 4})).isEqualTo(1);
      w.published(0, new long[] {0, 2, 4});
      // (Publication records take sequences too, so "one past everything handed out" is next.)
      assertThat(w.watermarkFor(0, new long[] {1, 3, 5})).as("B holds every pending frame").isEqualTo(w.nextSequence());
      w.published(0, new long[] {1, 3, 5});
      assertThat(w.pendingCount(0)).isZero();
      assertThat(w.watermarkFor(1, new long[0])).as("another channel with nothing pending").isEqualTo(w.nextSequence());
    }
  }

  @Test
  void thenRunsInsideTheLockWithTheFramesSequence() throws Exception {
    try (Wal w = open(new long[3], new ArrayList<>()).wal()) {
      List<Long> order = new ArrayList<>();
      byte[] b = {1};
      long s = w.append(1, b, 0, 1, seq -> {
        order.add(seq);
        assertThat(w.pendingCount(1)).as("pending before the caller queues it").isEqualTo(1);
      });
      assertThat(order).containsExactly(s);
    }
  }

  @Test
  void segmentsRollAndAreDeletedOnlyWhenEveryFrameInThemIsPublished() throws Exception {
    try (Wal w = open(new long[3], new ArrayList<>()).wal()) {
      List<Long> seqs = new ArrayList<>();
      String big = "y".repeat(1500);
      for (int i = 0; i < 9; i++) {
        seqs.add(append(w, i % 2, big));
      }
      int before = segments().size();
      assertThat(before).as("4 KiB segments of 1.5 KB frames").isGreaterThanOrEqualTo(4);
      assertThat(w.reclaim()).as("nothing published yet").isZero();
      w.published(0, new long[] {0, 2});
      w.published(1, new long[] {1, 3, 5});
      long freed = w.reclaim();
      assertThat(freed).isPositive();
      assertThat(segments().size()).isLessThan(before);
      // Frame 4 is still pending, so its segment and everything after it stay.
      List<Got> got = new ArrayList<>();
      w.close();
      try (Wal again = open(new long[] {0, 0, 0}, got).wal()) {
        assertThat(got).extracting(Got::seq).contains(4L, 6L, 7L, 8L).doesNotContain(0L, 1L, 2L);
      }
    }
  }

  @Test
  void onceEveryFrameIsPublishedTheCurrentSegmentIsRetiredAndTheLogGoesOn() throws Exception {
    List<Long> seqs = new ArrayList<>();
    try (Wal w = open(new long[3], new ArrayList<>()).wal()) {
      String frame = "z".repeat(600);
      seqs.add(append(w, 0, frame));
      assertThat(w.retireBytes()).as("a quarter of the 4 KiB test segment").isEqualTo(1024);
      w.published(0, new long[] {seqs.get(0)});
      w.reclaim();
      assertThat(segments()).as("under the retire size the current segment stays").hasSize(1);
      assertThat(w.bytes()).isPositive();

      seqs.add(append(w, 1, frame));
      assertThat(w.reclaim()).as("a frame is pending: nothing to retire").isZero();
      w.published(1, new long[] {seqs.get(1)});
      long freed = w.reclaim();
      assertThat(freed).as("every frame and publication record held").isPositive();
      assertThat(w.bytes()).isZero();
      List<Path> left = segments();
      assertThat(left).as("one empty segment to append to").hasSize(1);
      assertThat(Files.size(left.get(0))).isZero();

      // The log goes on in the fresh segment, and what is not published is replayed.
      seqs.add(append(w, 2, "after"));
      assertThat(seqs.get(2)).isGreaterThan(seqs.get(1));
      w.sync();
    }
    List<Got> got = new ArrayList<>();
    try (Wal again = open(new long[3], got).wal()) {
      assertThat(got).containsExactly(new Got(2, seqs.get(2), "after"));
    }
  }

  @Test
  void aTornTailIsReportedAndEverythingBeforeItReplays() throws Exception {
    try (Wal w = open(new long[3], new ArrayList<>()).wal()) {
      append(w, 0, "one");
      append(w, 0, "two");
      append(w, 0, "three");
    }
    Path seg = segments().getFirst();
    long size = Files.size(seg);
    try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
      ch.truncate(size - 3);
    }
    List<Got> got = new ArrayList<>();
    Wal.Opened o = open(new long[3], got);
    try (Wal w = o.wal()) {
      assertThat(got).extracting(Got::body).containsExactly("one", "two");
      assertThat(o.replayed().damaged()).isEqualTo(1);
      assertThat(o.replayed().notes().getFirst()).contains("torn frame");
      assertThat(append(w, 0, "four")).as("the torn frame's sequence is never reused").isEqualTo(2);
    }
    // Appends went to a new segment: the torn one is not written after.
    assertThat(Files.size(seg)).isEqualTo(size - 3);
  }

  @Test
  void aFlippedBitIsCaughtByTheChecksum() throws Exception {
    try (Wal w = open(new long[3], new ArrayList<>()).wal()) {
      append(w, 0, "first frame");
      append(w, 0, "second frame");
      append(w, 0, "third frame");
    }
    Path seg = segments().getFirst();
    byte[] b = Files.readAllBytes(seg);
    int secondBody = (Frame.HEADER + 11 + Frame.TRAILER) + Frame.HEADER + 3;
    b[secondBody] ^= 0x10;
    Files.write(seg, b);
    List<Got> got = new ArrayList<>();
    Wal.Opened o = open(new long[3], got);
    o.wal().close();
    assertThat(got).extracting(Got::body).containsExactly("first frame");
    assertThat(o.replayed().notes().getFirst()).contains("checksum mismatch");
    assertThat(o.replayed().unreadableBytes()).isEqualTo(b.length - (Frame.HEADER + 11 + Frame.TRAILER));
  }

  @Test
  void aFrameLongerThanTheLimitIsNeitherWrittenNorBelieved() throws Exception {
    try (Wal w = open(new long[3], new ArrayList<>()).wal()) {
      byte[] huge = new byte[MAX + 1];
      assertThatThrownBy(() -> w.append(0, huge, 0, huge.length, s -> { })).isInstanceOf(IllegalArgumentException.class);
      append(w, 0, "ok");
    }
    Path seg = segments().getFirst();
    byte[] b = Files.readAllBytes(seg);
    // Claim a length past the limit in the header: the frame is refused by length, not by CRC.
    java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(16, MAX + 1);
    Files.write(seg, b);
    List<Got> got = new ArrayList<>();
    Wal.Opened o = open(new long[3], got);
    o.wal().close();
    assertThat(got).isEmpty();
    assertThat(o.replayed().notes().getFirst()).contains("outside");
  }

  @Test
  void sequencesResumeAboveEveryWatermarkEvenWhenTheLogIsEmpty() throws Exception {
    try (Wal w = open(new long[] {100, 5, 0}, new ArrayList<>()).wal()) {
      assertThat(append(w, 1, "z")).isEqualTo(100);
    }
  }

  @Test
  void recoveringAcceptsAppendsAndPublicationsBeforeItsFramesAreReplayed() throws Exception {
    try (Wal w = open(new long[3], new ArrayList<>()).wal()) {
      for (int i = 0; i < 40; i++) {
        append(w, i % 3, "frame " + i);
      }
    }
    Wal.Recovering r = Wal.recover(dir, 3, MAX, new long[3], 4096, mira.fs.Fs.REAL);
    try (Wal w = r.wal()) {
      assertThat(r.frames()).isEqualTo(40);
      assertThat(w.pendingCount(0)).as("found frames are pending before they are replayed").isEqualTo(14);
      long fresh = append(w, 1, "new");
      assertThat(fresh).as("appends continue above every frame found").isEqualTo(40);
      List<Got> got = new ArrayList<>();
      Replayed replayed = r.replay((c, s, b) -> {
        // The consumer publishes what it is handed while replay goes on, as the flushers do.
        w.published(c, new long[] {s});
        return got.add(new Got(c, s, new String(b, StandardCharsets.UTF_8)));
      });
      assertThat(replayed.replayed()).isEqualTo(40);
      assertThat(got).hasSize(40);
      assertThat(got.get(17)).isEqualTo(new Got(2, 17, "frame 17"));
      assertThat(got).extracting(Got::seq).isSorted();
      assertThat(w.pendingCount(0)).isZero();
      assertThat(w.pendingCount(1)).as("only the new frame").isEqualTo(1);
      assertThatThrownBy(() -> r.replay((c, s, b) -> true)).isInstanceOf(IllegalStateException.class);
    }
    List<Got> again = new ArrayList<>();
    try (Wal w = open(new long[3], again).wal()) {
      assertThat(again).as("published during replay, so skipped by the next open").containsExactly(new Got(1, 40, "new"));
    }
  }

  @Test
  void aFrameChangedBetweenOpenAndReplayIsRefusedAndSaidSo() throws Exception {
    try (Wal w = open(new long[3], new ArrayList<>()).wal()) {
      append(w, 0, "first");
      append(w, 0, "second");
    }
    Path seg = segments().getFirst();
    Wal.Recovering r = Wal.recover(dir, 3, MAX, new long[3], 4096, mira.fs.Fs.REAL);
    byte[] b = Files.readAllBytes(seg);
    b[b.length - 6] ^= 0x01; // inside the second frame's body
    Files.write(seg, b);
    List<String> got = new ArrayList<>();
    try (Wal w = r.wal()) {
      Replayed replayed = r.replay((c, s, body) -> got.add(new String(body, StandardCharsets.UTF_8)));
      assertThat(got).containsExactly("first");
      assertThat(replayed.rejected()).isEqualTo(1);
      assertThat(replayed.notes()).anyMatch(n -> n.contains("changed after the log was opened"));
      assertThat(w.pendingCount(0)).as("the refused frame is retired").isEqualTo(1);
    }
  }

  @Test
  void aFrameTheHandlerRefusesIsRetired() throws Exception {
    try (Wal w = open(new long[3], new ArrayList<>()).wal()) {
      append(w, 2, "undecodable");
    }
    Wal.Opened o = Wal.open(dir, 3, MAX, new long[3], (c, s, b) -> false, 4096);
    try (Wal w = o.wal()) {
      assertThat(o.replayed().rejected()).isEqualTo(1);
      assertThat(w.pendingCount(2)).as("retired, so it cannot pin the watermark").isZero();
      assertThat(w.watermarkFor(2, new long[0])).isEqualTo(1);
    }
  }

  @Test
  void framesAboveTheWatermarkThatABlockHoldsAreNotReplayed() throws Exception {
    try (Wal w = open(new long[3], new ArrayList<>()).wal()) {
      append(w, 0, "a"); // 0: held by shard B, never published (the crash comes first)
      append(w, 0, "b"); // 1: held by shard A
      append(w, 0, "c"); // 2: held by shard A
      long wm = w.watermarkFor(0, new long[] {1, 2});
      assertThat(wm).isZero();
      w.published(0, new long[] {1, 2}); // A's block is durable, named with wal_hi = 0
    }
    List<Got> got = new ArrayList<>();
    try (Wal w = open(new long[] {0, 0, 0}, got).wal()) {
      assertThat(got).as("only the frame no block holds").extracting(Got::body).containsExactly("a");
    }
  }

  @Test
  void bytesCountsFramesOnDisk() throws Exception {
    try (Wal w = open(new long[3], new ArrayList<>()).wal()) {
      append(w, 0, "12345");
      assertThat(w.bytes()).isEqualTo(Frame.HEADER + 5 + Frame.TRAILER);
      w.sync();
    }
  }
}
