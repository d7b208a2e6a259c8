package mira.block.cold;

import mira.block.catalog.ColdFormat;
import mira.block.catalog.ColdMarker;
import mira.block.codec.ColdLayout;
import mira.block.codec.ZstdCodec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;

import com.google.protobuf.MessageLite;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import mira.block.catalog.BlockName;
import mira.block.Decoders;
import mira.block.publish.Publisher;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.table.Batch;
import mira.block.testing.ReaderTables;
import mira.block.testing.SampleRequests;
import mira.proto.wire.Signal;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/**
 * A block compacted into the cold tier reads exactly as it did hot, for random requests of every
 * signal, in both formats: {@code MIRA} (shaped buffers, rearranged columns) through Mira's reader
 * and through Arrow Java's (which undoes the rearrangement as the schema metadata describes), and
 * {@code ARROW} through those and through a reader that knows nothing but Arrow's standard bare
 * zstd body — which refuses the {@code MIRA} form. Compacting again (what the sweep does after an
 * interrupted compaction), also into the other format, changes nothing.
 */
class ColdRoundTripTest {
  @Provide
  Arbitrary<ExportLogsServiceRequest> logs() {
    return mira.block.logs.Generators.logsRequests();
  }

  @Provide
  Arbitrary<ExportTraceServiceRequest> traces() {
    return mira.block.traces.Generators.tracesRequests();
  }

  @Provide
  Arbitrary<ExportMetricsServiceRequest> metrics() {
    return mira.block.metrics.Generators.metricsRequests();
  }

  @Property(tries = 40)
  void logsReadTheSameCold(@ForAll("logs") ExportLogsServiceRequest req) throws Exception {
    check(Signal.LOGS, req);
  }

  @Property(tries = 40)
  void tracesReadTheSameCold(@ForAll("traces") ExportTraceServiceRequest req) throws Exception {
    check(Signal.TRACES, req);
  }

  @Property(tries = 40)
  void metricsReadTheSameCold(@ForAll("metrics") ExportMetricsServiceRequest req) throws Exception {
    check(Signal.METRICS, req);
  }

  private static void check(Signal signal, MessageLite req) throws Exception {
    byte[] b = req.toByteArray();
    Batch batch = Decoders.decode(signal, b, 0, b.length, SampleRequests.T0);
    if (batch.isEmpty()) {
      return;
    }
    Path data = Files.createTempDirectory("mira-cold-prop");
    try (BufferAllocator a = new RootAllocator()) {
      Path dir = new Publisher(data, signal, "cold-test", a).publish(batch, 0, 0);
      BlockRef ref = new BlockRef(signal, BlockName.parse(dir.getFileName().toString()).orElseThrow(), dir);
      Map<String, List<Map<String, Object>>> hot = read(ref, a);
      assertThat(ReaderTables.allWithArrow(dir)).isEqualTo(hot);

      Compactor.compact(dir, "0000abcd", ColdFormat.MIRA, a);
      assertThat(ColdMarker.isCold(dir)).isTrue();
      assertThat(read(ref, a)).as("Mira's reader, cold").isEqualTo(hot);
      assertThat(ReaderTables.allWithArrow(dir)).as("Arrow Java's reader, cold").isEqualTo(hot);
      standardReaderNeverMisreads(dir, hot);
      rearrangedColumnsAreStoredUnderTheirOwnNames(dir);

      Compactor.compact(dir, "0000abcd", ColdFormat.MIRA, a);
      assertThat(read(ref, a)).as("compacted twice").isEqualTo(hot);

      Compactor.compact(dir, "0000abcd", ColdFormat.ARROW, a);
      assertThat(read(ref, a)).as("Mira's reader, standard cold").isEqualTo(hot);
      assertThat(ReaderTables.allWithArrow(dir, BARE_ZSTD_ONLY)).as("a standard reader, standard cold").isEqualTo(hot);
      Compactor.compact(dir, "0000abcd", ColdFormat.MIRA, a);
      assertThat(read(ref, a)).as("from standard back to shaped").isEqualTo(hot);
      assertThat(a.getAllocatedMemory()).isZero();
    } finally {
      try (var s = Files.walk(data)) {
        for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  /**
   * A reader that knows only Arrow's standard body either refuses a shaped table (its first
   * compressed buffer is not a zstd frame) or reads it; what it reads under a column's own name is
   * then exactly the hot value (a rearranged column is stored under another name).
   */
  private static void standardReaderNeverMisreads(Path dir, Map<String, List<Map<String, Object>>> hot) throws Exception {
    for (String file : hot.keySet()) {
      List<Map<String, Object>> rows;
      try {
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> read = (List<Map<String, Object>>) ReaderTables.comparable(
            mira.block.testing.ArrowTables.read(dir, file, BARE_ZSTD_ONLY).rows());
        rows = read;
      } catch (IllegalStateException e) {
        assertThat(e).hasMessageContaining("not a zstd frame");
        continue;
      }
      assertThat(rows).hasSameSizeAs(hot.get(file));
      for (int i = 0; i < rows.size(); i++) {
        for (Map.Entry<String, Object> c : rows.get(i).entrySet()) {
          if (hot.get(file).get(i).containsKey(c.getKey())) {
            assertThat(c.getValue()).as(file + " row " + i + " " + c.getKey()).isEqualTo(hot.get(file).get(i).get(c.getKey()));
          }
        }
      }
    }
  }

  /**
   * In the file's own schema (which any reader sees before a buffer is inflated), a column stored
   * as a difference or regrouped is not under the plain column's name.
   */
  private static void rearrangedColumnsAreStoredUnderTheirOwnNames(Path dir) throws Exception {
    for (String file : ReaderTables.files(dir)) {
      try (BufferAllocator a = new RootAllocator();
          java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(dir.resolve(file));
          org.apache.arrow.vector.ipc.ArrowFileReader r = new org.apache.arrow.vector.ipc.ArrowFileReader(ch, a, ZstdCodec.FACTORY)) {
        org.apache.arrow.vector.types.pojo.Schema schema = r.getVectorSchemaRoot().getSchema();
        List<String> names = schema.getFields().stream().map(f -> f.getName()).toList();
        Map<String, String> meta = schema.getCustomMetadata() == null ? Map.of() : schema.getCustomMetadata();
        if (meta.containsKey(ColdLayout.MINUS)) {
          for (String pair : meta.get(ColdLayout.MINUS).split(";")) {
            assertThat(names).as(file).contains(pair).doesNotContain(pair.split("-", 2)[0]);
          }
        } else {
          assertThat(names).as(file + ": logs and spans always carry time differences in the cold form")
              .doesNotContain("observed_time_unix_nano", "end_time_unix_nano");
        }
        if (meta.containsKey(ColdLayout.BY_KEY)) {
          assertThat(names).as(file).contains("str.by_key").doesNotContain("str");
        }
      }
    }
  }

  /** What any Arrow reader with ZSTD support does: a body is one bare zstd frame, nothing else. */
  static final CompressionCodec.Factory BARE_ZSTD_ONLY = new CompressionCodec.Factory() {
    @Override
    public CompressionCodec createCodec(CompressionUtil.CodecType type) {
      return createCodec(type, 3);
    }

    @Override
    public CompressionCodec createCodec(CompressionUtil.CodecType type, int level) {
      return switch (type) {
        case NO_COMPRESSION -> NoCompressionCodec.INSTANCE;
        case ZSTD -> new AbstractCompressionCodec() {
          @Override
          protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
            throw new UnsupportedOperationException("read only");
          }

          @Override
          protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
            long outLen = readUncompressedLength(compressed);
            byte[] in = new byte[(int) (compressed.writerIndex() - CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH)];
            compressed.getBytes(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH, in);
            if (in.length < 4 || (in[0] & 0xFF) != 0x28 || (in[1] & 0xFF) != 0xB5 || (in[2] & 0xFF) != 0x2F
                || (in[3] & 0xFF) != 0xFD) {
              throw new IllegalStateException("body is not a zstd frame");
            }
            byte[] plain = Zstd.decompress(in, (int) outLen);
            ArrowBuf out = allocator.buffer(Math.max(1, outLen));
            out.setBytes(0, plain);
            out.writerIndex(outLen);
            return out;
          }

          @Override
          public CompressionUtil.CodecType getCodecType() {
            return CompressionUtil.CodecType.ZSTD;
          }
        };
        default -> throw new IllegalArgumentException(type.toString());
      };
    }
  };

  private static Map<String, List<Map<String, Object>>> read(BlockRef ref, BufferAllocator a) throws Exception {
    try (BlockReader r = BlockReader.open(ref, a)) {
      return ReaderTables.all(r, ref.dir());
    }
  }
}
