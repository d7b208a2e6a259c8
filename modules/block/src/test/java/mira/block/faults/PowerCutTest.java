package mira.block.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import mira.block.catalog.BlockRef;
import mira.block.catalog.Catalog;
import mira.block.catalog.ColdFormat;
import mira.block.catalog.ColdMarker;
import mira.block.cold.Compactor;
import mira.block.logs.LogsDecoder;
import mira.block.publish.Publisher;
import mira.block.read.MappedBlockReader;
import mira.block.retention.Retention;
import mira.block.table.Batch;
import mira.block.testing.ReaderTables;
import mira.fs.Fs;
import mira.fs.testing.FaultyFs;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A power cut at every filesystem call of a publish, a cold rewrite, a reformat and a retention
 * sweep, in turn (but for writes inside a run of writes to one file: the first and last of a run
 * are cut at, see {@link FailedCallTest#skip}).
 * After each cut the directory is left as the worst real cut may leave it ({@link FaultyFs#losePower})
 * and read back on the real filesystem: a block is either whole and verified or not listed, a
 * publish that returned survives, no block is listed twice, a rewrite never leaves a block that
 * reads differently, and the next run of the same step finishes the job.
 */
class PowerCutTest {
  @TempDir Path tmp;

  static final long T0 = 1_767_225_600_000_000_000L;
  static final long HOUR = 3_600_000_000_000L;

  private static ExportLogsServiceRequest logs(String tag, long time, int n) {
    var sl = io.opentelemetry.proto.logs.v1.ScopeLogs.newBuilder();
    for (int i = 0; i < n; i++) {
      sl.addLogRecords(io.opentelemetry.proto.logs.v1.LogRecord.newBuilder().setTimeUnixNano(time + i)
          .setBody(io.opentelemetry.proto.common.v1.AnyValue.newBuilder().setStringValue(tag + " " + i))
          .addAttributes(io.opentelemetry.proto.common.v1.KeyValue.newBuilder().setKey("k")
              .setValue(io.opentelemetry.proto.common.v1.AnyValue.newBuilder().setIntValue(i % 3))));
    }
    return ExportLogsServiceRequest.newBuilder().addResourceLogs(io.opentelemetry.proto.logs.v1.ResourceLogs.newBuilder()
        .setResource(io.opentelemetry.proto.resource.v1.Resource.newBuilder().addAttributes(
            io.opentelemetry.proto.common.v1.KeyValue.newBuilder().setKey("service.name")
                .setValue(io.opentelemetry.proto.common.v1.AnyValue.newBuilder().setStringValue("cut"))))
        .addScopeLogs(sl)).build();
  }

  static Batch batch(String tag, long time) throws Exception {
    byte[] b = logs(tag, time, 40).toByteArray();
    return new LogsDecoder().decode(b, 0, b.length, time);
  }

  /** Every listed logs block, read whole through the verifying reader (throws on any damage). */
  static Map<Long, Map<String, List<Map<String, Object>>>> blocks(Path data, RootAllocator a) throws Exception {
    Map<Long, Map<String, List<Map<String, Object>>>> out = new java.util.TreeMap<>();
    for (BlockRef r : Catalog.list(data, Signal.LOGS, Long.MIN_VALUE, Long.MAX_VALUE)) {
      try (MappedBlockReader reader = MappedBlockReader.open(r, a)) {
        var previous = out.put(r.name().seq(), ReaderTables.all(reader, r.dir()));
        assertThat(previous).as("block %d listed twice", r.name().seq()).isNull();
      }
    }
    return out;
  }



  /** An expired block (seq 0, at T0) and a live one (seq 1, six hours later) in {@code data}. */
  static void oldAndLive(Path data, RootAllocator a) throws Exception {
    Publisher p = new Publisher(data, Signal.LOGS, "n", a);
    p.publish(batch("old", T0), 0, 0);
    p.publish(batch("live", T0 + 6 * HOUR), 1, 0);
  }

  /** Each cut in a fresh directory; {@code k} from 1 to the calls a full run makes. */
  private Path fresh(String what, int k) throws IOException {
    return Files.createDirectories(tmp.resolve(what + "-" + k).resolve("data"));
  }

  @Test
  void aPowerCutDuringPublishesLeavesWholeBlocksOrNone() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      // Reference: what each block reads as when nothing goes wrong.
      Path ref = fresh("publish-ref", 0);
      FaultyFs counting = new FaultyFs(ref.resolveSibling("graves"));
      Publisher rp = new Publisher(ref, Signal.LOGS, "n", a, counting);
      rp.publish(batch("first", T0), 0, 0);
      rp.publish(batch("second", T0 + 2 * HOUR), 1, 0);
      int total = counting.calls();
      List<FaultyFs.Op> ops = counting.history();
      var expected = blocks(ref, a);
      assertThat(expected).hasSize(2);
      assertThat(total).isGreaterThan(20);

      for (int k = 1; k <= total; k++) {
        if (FailedCallTest.skip(FaultyFs.Failure.EIO, ops, k)) {
          continue;
        }
        Path data = fresh("publish", k);
        FaultyFs fs = new FaultyFs(data.resolveSibling("graves")).cutAt(k);
        List<Long> returned = new ArrayList<>();
        try {
          Publisher p = new Publisher(data, Signal.LOGS, "n", a, fs);
          p.publish(batch("first", T0), 0, 0);
          returned.add(0L);
          p.publish(batch("second", T0 + 2 * HOUR), 1, 0);
          returned.add(1L);
        } catch (IOException e) {
          assertThat(fs.isCut()).as("cut at %d: only the cut fails (%s)", k, e).isTrue();
        }
        fs.losePower();

        var after = blocks(data, a);
        for (long seq : returned) {
          assertThat(after).as("cut at %d: block %d was published", k, seq).containsKey(seq);
        }
        for (var e : after.entrySet()) {
          assertThat(e.getValue()).as("cut at %d: block %d whole", k, e.getKey()).isEqualTo(expected.get(e.getKey()));
        }
        // Restart: the staging left behind is swept, and publishing resumes after what is there.
        if (Files.isDirectory(data.resolve(Signal.LOGS.dir()))) {
          Publisher again = new Publisher(data, Signal.LOGS, "n", a);
          again.sweepStaging();
          long next = again.resumeSequence();
          assertThat(next).as("cut at %d", k).isEqualTo(after.isEmpty() ? 0 : after.keySet().stream().max(Long::compare).get() + 1);
          try (Stream<Path> s = Files.list(data.resolve(Signal.LOGS.dir()).resolve(Publisher.STAGING))) {
            assertThat(s.toList()).as("cut at %d: staging swept", k).isEmpty();
          }
        }
      }
      assertThat(a.getAllocatedMemory()).isZero();
    }
  }

  @Test
  void aPowerCutDuringACompactionLeavesTheBlockReadingExactlyAsBefore() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      Path ref = fresh("compact-ref", 0);
      new Publisher(ref, Signal.LOGS, "n", a).publish(batch("rows", T0), 0, 0);
      var expected = blocks(ref, a);
      FaultyFs counting = new FaultyFs(ref.resolveSibling("graves"));
      Path block = Catalog.list(ref, Signal.LOGS, Long.MIN_VALUE, Long.MAX_VALUE).getFirst().dir();
      Compactor.compact(block, "0000abcd", ColdFormat.MIRA, a, counting);
      int total = counting.calls();
      List<FaultyFs.Op> ops = counting.history();
      assertThat(blocks(ref, a)).isEqualTo(expected);
      assertThat(total).isGreaterThan(10);

      for (int k = 1; k <= total; k++) {
        if (FailedCallTest.skip(FaultyFs.Failure.EIO, ops, k)) {
          continue;
        }
        Path data = fresh("compact", k);
        new Publisher(data, Signal.LOGS, "n", a).publish(batch("rows", T0), 0, 0);
        Path b = Catalog.list(data, Signal.LOGS, Long.MIN_VALUE, Long.MAX_VALUE).getFirst().dir();
        FaultyFs fs = new FaultyFs(data.resolveSibling("graves")).cutAt(k);
        try {
          Compactor.compact(b, "0000abcd", ColdFormat.MIRA, a, fs);
        } catch (IOException e) {
          assertThat(fs.isCut()).as("cut at %d: only the cut fails (%s)", k, e).isTrue();
        }
        fs.losePower();
        assertThat(blocks(data, a)).as("cut at %d: reads as before", k).isEqualTo(expected);
        // The next sweep finishes (or redoes) the rewrite, and the block still reads the same.
        Compactor.compact(b, "0000abcd", ColdFormat.MIRA, a, Fs.REAL);
        assertThat(ColdMarker.isCold(b)).isTrue();
        assertThat(blocks(data, a)).as("cut at %d: after the retry", k).isEqualTo(expected);
        try (Stream<Path> s = Files.list(b)) {
          assertThat(s.map(p -> p.getFileName().toString())).as("cut at %d", k).noneMatch(n -> n.endsWith(".cold"));
        }
      }
      assertThat(a.getAllocatedMemory()).isZero();
    }
  }

  @Test
  void aPowerCutDuringARetentionSweepNeverTouchesALiveBlockNorLeavesHalfAnExpiredOne() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      long cutoff = T0 + 5 * HOUR;
      Path ref = fresh("retention-ref", 0);
      oldAndLive(ref, a);
      var expected = blocks(ref, a);
      FaultyFs counting = new FaultyFs(ref.resolveSibling("graves"));
      Retention.sweep(ref, cutoff, counting);
      int total = counting.calls();
      assertThat(blocks(ref, a)).containsOnlyKeys(1L);

      for (int k = 1; k <= total; k++) {
        Path data = fresh("retention", k);
        oldAndLive(data, a);
        FaultyFs fs = new FaultyFs(data.resolveSibling("graves")).cutAt(k);
        try {
          Retention.sweep(data, cutoff, fs);
        } catch (IOException e) {
          assertThat(fs.isCut()).as("cut at %d: only the cut fails (%s)", k, e).isTrue();
        }
        fs.losePower();
        var after = blocks(data, a);
        assertThat(after).as("cut at %d: the live block", k).containsEntry(1L, expected.get(1L));
        if (after.containsKey(0L)) {
          assertThat(after.get(0L)).as("cut at %d: the expired block, if back, is whole", k).isEqualTo(expected.get(0L));
        }
        Retention.sweep(data, cutoff);
        assertThat(blocks(data, a)).as("cut at %d: the next sweep removes it", k).containsOnlyKeys(1L);
      }
    }
  }

  @Test
  void aPowerCutDuringAReformatLeavesTheColdBlockReadingExactlyAsBefore() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      Path ref = fresh("reformat-ref", 0);
      new Publisher(ref, Signal.LOGS, "n", a).publish(batch("rows", T0), 0, 0);
      var expected = blocks(ref, a);
      Path refBlock = Catalog.list(ref, Signal.LOGS, Long.MIN_VALUE, Long.MAX_VALUE).getFirst().dir();
      Compactor.compact(refBlock, "0000abcd", ColdFormat.MIRA, a);
      FaultyFs counting = new FaultyFs(ref.resolveSibling("graves"));
      Compactor.compact(refBlock, "0000abcd", ColdFormat.ARROW, a, counting);
      int total = counting.calls();
      List<FaultyFs.Op> ops = counting.history();
      assertThat(ColdMarker.format(refBlock)).isEqualTo(ColdFormat.ARROW);

      for (int k = 1; k <= total; k++) {
        if (FailedCallTest.skip(FaultyFs.Failure.EIO, ops, k)) {
          continue;
        }
        Path data = fresh("reformat", k);
        new Publisher(data, Signal.LOGS, "n", a).publish(batch("rows", T0), 0, 0);
        Path b = Catalog.list(data, Signal.LOGS, Long.MIN_VALUE, Long.MAX_VALUE).getFirst().dir();
        Compactor.compact(b, "0000abcd", ColdFormat.MIRA, a);
        FaultyFs fs = new FaultyFs(data.resolveSibling("graves")).cutAt(k);
        try {
          Compactor.compact(b, "0000abcd", ColdFormat.ARROW, a, fs);
        } catch (IOException e) {
          assertThat(fs.isCut()).as("cut at %d: only the cut fails (%s)", k, e).isTrue();
        }
        fs.losePower();
        assertThat(blocks(data, a)).as("cut at %d: reads as before", k).isEqualTo(expected);
        Compactor.compact(b, "0000abcd", ColdFormat.ARROW, a, Fs.REAL);
        assertThat(ColdMarker.format(b)).isEqualTo(ColdFormat.ARROW);
        assertThat(blocks(data, a)).as("cut at %d: after the retry", k).isEqualTo(expected);
      }
    }
  }
}
