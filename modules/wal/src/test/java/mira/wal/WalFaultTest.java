package mira.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
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
import mira.fs.Fs;
import mira.fs.testing.FaultyFs;
import mira.fs.testing.FaultyFs.Failure;
import mira.fs.testing.FaultyFs.Op;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log under failed I/O: a roll whose open fails, a failed fsync, and what {@link Wal#bytes()} counts. */
class WalFaultTest {
  @TempDir Path dir;

  record Got(int channel, long seq, String body) {}

  private static final int MAX = 1 << 20;
  private static final long SEGMENT = 4096;

  /** Real files, except that the n-th segment create (1-based) throws. */
  private FaultyFs failNthCreate(int n) throws IOException {
    return new FaultyFs(dir.resolve("graves")).fail(Op.CREATE, n, Failure.ENOSPC);
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
    try (Wal w = Wal.open(dir, 1, MAX, new long[1], (c, s, b) -> true, SEGMENT, failNthCreate(2)).wal()) {
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
    try (Wal w = Wal.open(dir, 1, MAX, new long[1], (c, s, b) -> true, SEGMENT, failNthCreate(2)).wal()) {
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

  @Test
  void aFailedFsyncStopsAppendsUntilTheFramesBeforeItAreInBlocksThenTheLogHeals() throws Exception {
    FaultyFs fs = new FaultyFs(dir.resolve("graves")).fail(Op.FORCE, 1, Failure.EIO);
    List<Long> before = new ArrayList<>();
    try (Wal w = Wal.open(dir, 1, MAX, new long[1], (c, s, b) -> true, SEGMENT, fs).wal()) {
      for (int i = 0; i < 3; i++) {
        before.add(append(w, 0, body(i)));
      }
      assertThatThrownBy(w::sync).hasMessageContaining("injected EIO");
      assertThat(w.failure()).contains("Input/output error");
      assertThatThrownBy(() -> append(w, 0, "refused")).isInstanceOf(WalException.class)
          .hasMessageContaining("could not be made durable").hasMessageContaining("3 exports");
      int forces = fs.calls(Op.FORCE);
      assertThatCode(w::sync).as("quiet while frames from before the failure are pending").doesNotThrowAnyException();
      assertThat(fs.calls(Op.FORCE)).as("a poisoned segment is never forced again").isEqualTo(forces);
      w.published(0, new long[] {before.get(0), before.get(1)});
      w.sync();
      assertThat(w.failure()).as("one frame still pending").isNotNull();
      w.published(0, new long[] {before.get(2)});
      w.sync();
      assertThat(w.failure()).as("healed once every frame before the failure is in a block").isNull();
      long after = append(w, 0, "after");
      w.sync();
      assertThat(fs.calls(Op.FORCE)).isGreaterThan(forces);
      assertThat(w.reclaim()).as("the poisoned segment is deleted").isPositive();
      assertThat(after).isGreaterThan(before.get(2));
    }
    List<String> replayed = new ArrayList<>();
    Wal.open(dir, 1, MAX, new long[1], (c, s, b) -> replayed.add(new String(b, StandardCharsets.UTF_8)), SEGMENT)
        .wal().close();
    assertThat(replayed).containsExactly("after");
  }

  /**
   * Power cut at every call in turn while frames are appended, synced, rolled, published and
   * reclaimed: after restart every frame appended before a sync that returned is replayed exactly
   * as written (unless a block took it first), nothing else is, and no frame comes back twice.
   */
  @Test
  void aPowerCutAtAnyCallLosesNoFrameThatASyncCovered() throws Exception {
    int total = scenario(new FaultyFs(dir.resolve("graves-count")), Path.of("count")).calls;
    assertThat(total).as("the scenario makes enough calls to be worth cutting").isGreaterThan(30);
    for (int k = 1; k <= total; k++) {
      Path d = dir.resolve("cut-" + k);
      FaultyFs fs = new FaultyFs(dir.resolve("graves-" + k)).cutAt(k);
      Outcome o = scenario(fs, d);
      fs.losePower();
      Reopened r = reopen(d);
      java.util.Map<Long, String> replayed = r.replayed();
      List<Long> order = r.order();
      assertThat(order).as("cut at call %d: no frame twice", k).doesNotHaveDuplicates();
      for (long seq : o.durable) {
        if (!o.published.contains(seq)) {
          assertThat(replayed).as("cut at call %d: synced frame %d", k, seq).containsEntry(seq, o.sent.get(seq));
        }
      }
      for (var e : replayed.entrySet()) {
        assertThat(o.sent).as("cut at call %d: only frames that were appended", k).containsEntry(e.getKey(), e.getValue());
      }
    }
  }

  /** What a restart on the real filesystem replays: by sequence, in order, and the open's report. */
  private record Reopened(java.util.Map<Long, String> replayed, List<Long> order, Wal.Opened opened) {}

  private Reopened reopen(Path sub) throws IOException {
    java.util.Map<Long, String> replayed = new java.util.HashMap<>();
    List<Long> order = new ArrayList<>();
    Wal.Opened opened = Wal.open(dir.resolve(sub), 1, MAX, new long[1], (c, s, b) -> {
      order.add(s);
      return replayed.put(s, new String(b, StandardCharsets.UTF_8)) == null;
    }, SEGMENT);
    opened.wal().close();
    return new Reopened(replayed, order, opened);
  }

  /** What a scenario run saw before the power went (or before it finished). */
  private static final class Outcome {
    final java.util.Map<Long, String> sent = new java.util.HashMap<>();
    final java.util.Set<Long> durable = new java.util.HashSet<>();
    final java.util.Set<Long> published = new java.util.HashSet<>();
    int calls;
  }

  private Outcome scenario(FaultyFs fs, Path sub) throws IOException {
    Outcome o = new Outcome();
    Path d = dir.resolve(sub);
    java.util.Set<Long> sinceSync = new java.util.HashSet<>();
    Wal w;
    try {
      w = Wal.open(d, 1, MAX, new long[1], (c, s, b) -> true, SEGMENT, fs).wal();
    } catch (FaultyFs.PowerCut e) {
      return o;
    }
    try {
      for (int i = 0; i < 30; i++) {
        String b = body(i);
        long seq = append(w, 0, b);
        o.sent.put(seq, b);
        sinceSync.add(seq);
        if (i % 4 == 3) {
          w.sync();
          o.durable.addAll(sinceSync);
          sinceSync.clear();
        }
        if (i % 10 == 9) {
          long[] done = o.durable.stream().filter(x -> !o.published.contains(x)).mapToLong(Long::longValue).toArray();
          w.published(0, done);
          for (long x : done) {
            o.published.add(x);
          }
          w.reclaim();
        }
      }
      w.close();
      o.durable.addAll(sinceSync);
    } catch (FaultyFs.PowerCut e) {
      // The machine is off: whatever the scenario did not see succeed is not counted.
    } catch (WalException e) {
      if (!(e.getCause() instanceof FaultyFs.PowerCut)) {
        throw e;
      }
    }
    o.calls = fs.calls();
    return o;
  }

  /**
   * Every call of the scenario failing in turn (EIO, and at writes a short write), the process
   * going on: an append that threw left nothing (no frame, no half frame), every append that
   * returned is replayed after a clean close exactly as written unless a block took it, nothing
   * twice.
   */
  @Test
  void aFailureAtAnyCallLosesNoAcknowledgedFrameAndLeavesNoHalfFrame() throws Exception {
    FaultyFs counting = new FaultyFs(dir.resolve("graves-fcount"));
    scenarioGoingOn(counting, Path.of("fcount"));
    List<Op> ops = counting.history();
    for (Failure f : List.of(Failure.EIO, Failure.SHORT_WRITE)) {
      for (int k = 1; k <= ops.size(); k++) {
        if (f == Failure.SHORT_WRITE && ops.get(k - 1) != Op.WRITE) {
          continue;
        }
        Path d = Path.of("fail-" + f + "-" + k);
        FaultyFs fs = new FaultyFs(dir.resolve("graves-f" + f + k)).failCall(k, f);
        Outcome o = scenarioGoingOn(fs, d);
        if (o == null) {
          continue; // the open itself failed: nothing was appended
        }
        Reopened r = reopen(d);
        java.util.Map<Long, String> replayed = r.replayed();
        List<Long> order = r.order();
        String what = "call " + k + " (" + ops.get(k - 1) + ") " + f;
        assertThat(order).as(what).doesNotHaveDuplicates();
        assertThat(r.opened().replayed().damaged()).as("%s: no half frame", what).isZero();
        for (var e : o.sent.entrySet()) {
          if (!o.published.contains(e.getKey())) {
            assertThat(replayed).as("%s: acknowledged frame %d", what, e.getKey()).containsEntry(e.getKey(), e.getValue());
          }
        }
        assertThat(o.sent).as("%s: only acknowledged frames come back", what).containsAllEntriesOf(replayed);
      }
    }
  }

  /** The scenario with failures answered as the pipeline does (that call fails, the next goes on). */
  private Outcome scenarioGoingOn(FaultyFs fs, Path sub) throws IOException {
    Outcome o = new Outcome();
    Wal w;
    try {
      w = Wal.open(dir.resolve(sub), 1, MAX, new long[1], (c, s, b) -> true, SEGMENT, fs).wal();
    } catch (IOException e) {
      return null;
    }
    for (int i = 0; i < 30; i++) {
      String b = body(i);
      try {
        long seq = append(w, 0, b);
        o.sent.put(seq, b);
      } catch (WalException e) {
        // Refused: the sender retries; nothing of it may be in the log.
      }
      if (i % 4 == 3) {
        try {
          w.sync();
        } catch (IOException e) {
          // The log is failed until its frames are in blocks (aFailedFsyncStops...).
        }
      }
      if (i % 10 == 9) {
        long[] done = o.sent.keySet().stream().filter(x -> !o.published.contains(x)).mapToLong(Long::longValue).toArray();
        w.published(0, done);
        for (long x : done) {
          o.published.add(x);
        }
        try {
          w.reclaim();
        } catch (IOException e) {
          // Retried at the next interval.
        }
      }
    }
    try {
      w.close();
    } catch (IOException e) {
      // A clean close that could not force: the bytes are still in the kernel, as after a crash.
    }
    return o;
  }
}
