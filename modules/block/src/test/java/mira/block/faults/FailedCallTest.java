package mira.block.faults;

import static mira.block.faults.PowerCutTest.HOUR;
import static mira.block.faults.PowerCutTest.T0;
import static mira.block.faults.PowerCutTest.batch;
import static mira.block.faults.PowerCutTest.blocks;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import mira.block.catalog.Catalog;
import mira.block.catalog.ColdFormat;
import mira.block.catalog.ColdMarker;
import mira.block.cold.Compactor;
import mira.block.publish.Publisher;
import mira.block.publish.UndurableBlockException;
import mira.block.retention.Retention;
import mira.fs.testing.FaultyFs;
import mira.fs.testing.FaultyFs.Failure;
import mira.fs.testing.FaultyFs.Op;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every filesystem call of a publish, a cold rewrite, a reformat and a retention sweep failing in
 * turn (EIO, and for writes a short write), the process going on: a failed publish leaves nothing
 * listed and its retry publishes the block once; a publish that failed after its rename reports
 * the block as visible, and it is whole; a failed rewrite or sweep leaves every block reading as
 * before, and running the step again finishes it.
 */
class FailedCallTest {
  @TempDir Path tmp;

  private Path fresh(String what, int k, Failure f) throws IOException {
    return Files.createDirectories(tmp.resolve(what + "-" + k + "-" + f).resolve("data"));
  }

  /** The kinds of the calls a publish makes, on a fresh directory with the publisher already constructed. */
  private List<Op> publishCalls(RootAllocator a) throws Exception {
    Path data = fresh("publish-count", 0, Failure.EIO);
    FaultyFs fs = new FaultyFs(data.resolveSibling("graves"));
    Publisher p = new Publisher(data, Signal.LOGS, "n", a, fs);
    int before = fs.calls();
    p.publish(batch("rows", T0), 0, 0);
    return fs.history().subList(before, fs.calls());
  }

  /**
   * Which calls to fail: every call but the writes inside a run of writes to one file (the first
   * and the last of a run are kept: failing one in the middle takes the same path), and short
   * writes only at writes (elsewhere they fail as EIO does).
   */
  static boolean skip(Failure f, List<Op> ops, int k) {
    Op op = ops.get(k - 1);
    if (f == Failure.SHORT_WRITE && op != Op.WRITE) {
      return true;
    }
    return op == Op.WRITE && k > 1 && k < ops.size() && ops.get(k - 2) == Op.WRITE && ops.get(k) == Op.WRITE;
  }

  @Test
  void aPublishFailingAtAnyCallIsInvisibleOrWholeAndItsRetryPublishesOnce() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      Path ref = fresh("publish-ref", 0, Failure.EIO);
      new Publisher(ref, Signal.LOGS, "n", a).publish(batch("rows", T0), 0, 0);
      var expected = blocks(ref, a);
      List<Op> ops = publishCalls(a);
      int calls = ops.size();
      assertThat(calls).isGreaterThan(10);
      assertThat(ops).contains(Op.WRITE, Op.FORCE, Op.RENAME, Op.FSYNC_DIR);
      for (Failure f : new Failure[] {Failure.EIO, Failure.SHORT_WRITE}) {
        for (int k = 1; k <= calls; k++) {
          if (skip(f, ops, k)) {
            continue;
          }
          Path data = fresh("publish", k, f);
          FaultyFs fs = new FaultyFs(data.resolveSibling("graves"));
          Publisher p = new Publisher(data, Signal.LOGS, "n", a, fs);
          fs.failCall(fs.calls() + k, f);
          boolean visible;
          try {
            p.publish(batch("rows", T0), 0, 0);
            visible = true;
          } catch (UndurableBlockException e) {
            visible = true;
            p.makeDurable(e.block());
          } catch (IOException e) {
            visible = false;
            assertThat(e).as("call %d (%s)", k, f).hasMessageContaining("injected");
          }
          var after = blocks(data, a);
          if (visible) {
            assertThat(after).as("call %d (%s): reported visible, and whole", k, f).isEqualTo(expected);
          } else {
            assertThat(after).as("call %d (%s): a failed publish leaves nothing listed", k, f).isEmpty();
            p.publish(batch("rows", T0), 0, 0);
            assertThat(blocks(data, a)).as("call %d (%s): the retry publishes it once", k, f).isEqualTo(expected);
          }
        }
      }
    }
  }

  @Test
  void aRewriteOrReformatFailingAtAnyCallLeavesTheBlockReadingAsBefore() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      for (ColdFormat from : new ColdFormat[] {null, ColdFormat.MIRA}) {
        ColdFormat to = from == null ? ColdFormat.MIRA : ColdFormat.ARROW;
        Path ref = fresh("rewrite-ref-" + to, 0, Failure.EIO);
        new Publisher(ref, Signal.LOGS, "n", a).publish(batch("rows", T0), 0, 0);
        var expected = blocks(ref, a);
        Path refBlock = Catalog.list(ref, Signal.LOGS, Long.MIN_VALUE, Long.MAX_VALUE).getFirst().dir();
        if (from != null) {
          Compactor.compact(refBlock, "0000abcd", from, a);
        }
        FaultyFs counting = new FaultyFs(ref.resolveSibling("graves"));
        Compactor.compact(refBlock, "0000abcd", to, a, counting);
        List<Op> ops = counting.history();
        int calls = ops.size();
        for (Failure f : new Failure[] {Failure.EIO, Failure.SHORT_WRITE}) {
          for (int k = 1; k <= calls; k++) {
            if (skip(f, ops, k)) {
              continue;
            }
            Path data = fresh("rewrite-" + to, k, f);
            new Publisher(data, Signal.LOGS, "n", a).publish(batch("rows", T0), 0, 0);
            Path b = Catalog.list(data, Signal.LOGS, Long.MIN_VALUE, Long.MAX_VALUE).getFirst().dir();
            if (from != null) {
              Compactor.compact(b, "0000abcd", from, a);
            }
            FaultyFs fs = new FaultyFs(data.resolveSibling("graves")).failCall(k, f);
            try {
              Compactor.compact(b, "0000abcd", to, a, fs);
            } catch (IOException e) {
              assertThat(e).as("call %d (%s)", k, f).hasMessageContaining("injected");
            }
            assertThat(blocks(data, a)).as("call %d (%s) to %s: reads as before", k, f, to).isEqualTo(expected);
            Compactor.compact(b, "0000abcd", to, a);
            assertThat(ColdMarker.format(b)).isEqualTo(to);
            assertThat(blocks(data, a)).as("call %d (%s) to %s: after the retry", k, f, to).isEqualTo(expected);
          }
        }
      }
    }
  }

  @Test
  void aRetentionSweepFailingAtAnyCallNeverTouchesALiveBlock() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      long cutoff = T0 + 5 * HOUR;
      Path ref = fresh("retention-ref", 0, Failure.EIO);
      PowerCutTest.oldAndLive(ref, a);
      var expected = blocks(ref, a);
      FaultyFs counting = new FaultyFs(ref.resolveSibling("graves"));
      Retention.sweep(ref, cutoff, counting);
      int calls = counting.calls();
      for (int k = 1; k <= calls; k++) {
        Path data = fresh("retention", k, Failure.EIO);
        PowerCutTest.oldAndLive(data, a);
        try {
          Retention.sweep(data, cutoff, new FaultyFs(data.resolveSibling("graves")).failCall(k, Failure.EIO));
        } catch (IOException e) {
          assertThat(e).as("call %d", k).hasMessageContaining("injected");
        }
        var after = blocks(data, a);
        assertThat(after).as("call %d: the live block", k).containsEntry(1L, expected.get(1L));
        if (after.containsKey(0L)) {
          assertThat(after.get(0L)).as("call %d: the expired block, if still listed, is whole", k).isEqualTo(expected.get(0L));
        }
        Retention.sweep(data, cutoff);
        assertThat(blocks(data, a)).as("call %d: the next sweep removes it", k).containsOnlyKeys(1L);
      }
    }
  }
}
