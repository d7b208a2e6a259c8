package mira.block.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.zip.CRC32C;
import mira.block.index.ZoneIndex.Answer;
import mira.block.index.ZoneIndex.Op;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.catalog.BlockName;
import mira.block.table.Batch;
import mira.block.testing.SampleRequests;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sidecar files as files: published with the block, and every kind of damage — missing, short,
 * foreign magic, future version, any flipped bit — reads as "unknown, scan the block".
 */
class SidecarFilesTest {
  @TempDir Path data;

  private Path publish(Signal signal, com.google.protobuf.MessageLite req) throws Exception {
    byte[] b = req.toByteArray();
    Batch batch = mira.block.Decoders.decode(signal, b, 0, b.length, SampleRequests.T0);
    return IndexedBlocks.publish(data.resolve(signal.dir() + "-" + System.nanoTime()), batch);
  }

  @Test
  void publishWritesTheSidecarsOfEachSignalInsideTheBlock() throws Exception {
    Path logs = publish(Signal.LOGS, SampleRequests.logs(50, 1));
    Path traces = publish(Signal.TRACES, SampleRequests.traces(50, 1));
    Path metrics = publish(Signal.METRICS, SampleRequests.metrics(20, 1));
    for (Path dir : List.of(logs, traces)) {
      assertThat(dir.resolve(TraceIndex.FILE)).isRegularFile();
    }
    assertThat(metrics.resolve(TraceIndex.FILE)).as("metrics blocks carry no trace.idx").doesNotExist();
    for (Path dir : List.of(logs, traces, metrics)) {
      assertThat(dir.resolve(AttrIndex.FILE)).isRegularFile();
      assertThat(dir.resolve(ZoneIndex.FILE)).isRegularFile();
      assertThat(dir.getParent().getParent().resolve(".staging")).isEmptyDirectory();
    }
    // And a block reader hands them out.
    BlockRef ref = new BlockRef(Signal.TRACES, BlockName.parse(traces.getFileName().toString()).orElseThrow(), traces);
    try (BufferAllocator a = new RootAllocator(); BlockReader r = BlockReader.open(ref, a)) {
      assertThat(r.traceIndex().known()).isTrue();
      assertThat(r.attrIndex().mightContain("exception.type", "java.lang.NullPointerException")).isTrue();
      assertThat(r.attrIndex().mightContain("exception.type", "java.lang.OutOfMemoryError")).isFalse();
      assertThat(r.zoneIndex().mayOverlap("duration_nano", false, Op.GT, 1_000_000_000L)).isEqualTo(Answer.NO);
      assertThat(r.zoneIndex().mayOverlap("duration_nano", false, Op.GT, 100L)).isEqualTo(Answer.MAYBE);
    }
  }

  @Test
  void aBlockWithoutTraceIdsWritesNoTraceIndex() throws Exception {
    var untraced = SampleRequests.logs(10, 1).toBuilder();
    untraced.getResourceLogsBuilderList().forEach(r -> r.getScopeLogsBuilderList()
        .forEach(s -> s.getLogRecordsBuilderList().forEach(l -> l.clearTraceId().clearSpanId())));
    Path dir = publish(Signal.LOGS, untraced.build());
    assertThat(dir.resolve(TraceIndex.FILE)).doesNotExist();
    assertThat(TraceIndex.read(dir).known()).isFalse();
    assertThat(TraceIndex.read(dir).mightContain(new byte[16])).as("no file means scan").isTrue();
  }

  @Test
  void traceIndexBitsAreTenPerDistinctId() throws Exception {
    // 4000 spans in runs of 4 per trace: 1000 distinct ids.
    Path dir = publish(Signal.TRACES, SampleRequests.traces(4000, 7));
    TraceIndex idx = TraceIndex.read(dir);
    assertThat(idx.keys()).isEqualTo(1000);
    assertThat(idx.bits()).isEqualTo(10_048); // 10 × 1000, rounded up to whole 64-bit words
    assertThat(Files.size(dir.resolve(TraceIndex.FILE))).isEqualTo(8 + 8 + 16 + 10_048 / 8 + 4);
  }

  /** One sidecar kind: its file, and how to read a directory with it as unknown-or-not. */
  private record Kind(String file, Function<Path, Boolean> known, Function<Path, Boolean> answersMaybeToAll) {}

  private static final List<Kind> KINDS = List.of(
      new Kind(TraceIndex.FILE, d -> TraceIndex.read(d).known(), d -> {
        TraceIndex t = TraceIndex.read(d);
        byte[] id = new byte[16];
        for (int i = 0; i < 200; i++) {
          id[i % 16] ^= (byte) (i * 31 + 7);
          if (!t.mightContain(id)) {
            return false;
          }
        }
        return true;
      }),
      new Kind(AttrIndex.FILE, d -> AttrIndex.read(d).known(), d -> {
        AttrIndex a = AttrIndex.read(d);
        for (int i = 0; i < 200; i++) {
          if (!a.mightContain("absent.key", "v" + i)) {
            return false;
          }
        }
        return a.hasDouble();
      }),
      new Kind(ZoneIndex.FILE, d -> ZoneIndex.read(d).known(), d -> {
        ZoneIndex z = ZoneIndex.read(d);
        return z.mayOverlap("absent.key", true, Op.EQ, 1L) == Answer.MAYBE
            && z.mayOverlap("duration_nano", false, Op.GT, Long.MAX_VALUE) == Answer.MAYBE;
      }));

  private void assertUnknown(Path dir, Kind k, String damage) {
    assertThat(k.known().apply(dir)).as(k.file() + " " + damage + ": known").isFalse();
    assertThat(k.answersMaybeToAll().apply(dir)).as(k.file() + " " + damage + ": maybe to everything").isTrue();
  }

  @Test
  void damagedSidecarsMeanScanTheBlock() throws Exception {
    Path dir = publish(Signal.TRACES, SampleRequests.traces(64, 3));
    for (Kind k : KINDS) {
      Path file = dir.resolve(k.file());
      byte[] good = Files.readAllBytes(file);
      assertThat(k.known().apply(dir)).as(k.file() + " intact").isTrue();
      assertThat(k.answersMaybeToAll().apply(dir)).as(k.file() + " intact prunes something").isFalse();

      Files.delete(file);
      assertUnknown(dir, k, "missing");

      for (int len = 0; len < good.length; len += Math.max(1, good.length / 97)) {
        Files.write(file, Arrays.copyOf(good, len));
        assertUnknown(dir, k, "truncated to " + len);
      }
      Files.write(file, Arrays.copyOf(good, good.length - 1));
      assertUnknown(dir, k, "one byte short");

      byte[] magic = good.clone();
      magic[0] = 'X';
      Files.write(file, withCrc(magic));
      assertUnknown(dir, k, "wrong magic");

      for (int version : new int[] {0, 2, 0xFFFF}) {
        byte[] v = good.clone();
        ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).putShort(4, (short) version);
        Files.write(file, withCrc(v));
        assertUnknown(dir, k, "version " + version + " (CRC recomputed)");
      }

      for (int at = 0; at < good.length; at += Math.max(1, good.length / 499)) {
        byte[] flipped = good.clone();
        flipped[at] ^= (byte) (1 << (at % 8));
        Files.write(file, flipped);
        assertUnknown(dir, k, "bit flipped at byte " + at);
      }

      Files.write(file, good);
      assertThat(k.known().apply(dir)).as(k.file() + " restored").isTrue();
    }
  }

  /** {@code file} with its trailing CRC32C recomputed, so only the intended damage remains. */
  private static byte[] withCrc(byte[] file) {
    CRC32C crc = new CRC32C();
    crc.update(file, 0, file.length - 4);
    ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putInt(file.length - 4, (int) crc.getValue());
    return file;
  }

  @Test
  void anIndexRoundTripsThroughItsBytes() throws Exception {
    byte[] b = SampleRequests.metrics(16, 2).toByteArray();
    Batch batch = mira.block.Decoders.decode(Signal.METRICS, b, 0, b.length, SampleRequests.T0);
    AttrIndex a = AttrIndex.build(batch);
    assertThat(AttrIndex.parse(a.toBytes()).toString()).isEqualTo(a.toString());
    assertThat(AttrIndex.parse(a.toBytes()).toBytes()).isEqualTo(a.toBytes());
    ZoneIndex z = ZoneIndex.build(batch);
    assertThat(ZoneIndex.parse(z.toBytes()).toBytes()).isEqualTo(z.toBytes());
    assertThat(ZoneIndex.parse(z.toBytes()).attributeKeys()).isEqualTo(z.attributeKeys());
  }
}
