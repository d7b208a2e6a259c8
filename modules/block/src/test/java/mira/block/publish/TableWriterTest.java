package mira.block.publish;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.MessageLite;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import mira.block.Decoders;
import mira.block.table.Batch;
import mira.block.table.Table;
import mira.block.testing.SampleRequests;
import mira.fs.Fs;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The heap writer ({@link TableWriter#write}) against Arrow Java's own writer over the same columns
 * loaded into vectors ({@link TableWriter#load} then {@link TableWriter#writeRoot}): byte for byte
 * equal files, for every table of every signal, whole and cut short, and readable by Arrow's reader.
 */
class TableWriterTest {
  @TempDir Path dir;

  static List<Arguments> blocks() {
    List<Arguments> out = new ArrayList<>();
    for (Signal s : Signal.values()) {
      for (int n : new int[] {1, 3, 200}) {
        out.add(Arguments.of(s, n));
      }
    }
    return out;
  }

  private static Batch decode(Signal signal, int n) throws Exception {
    MessageLite req = switch (signal) {
      case LOGS -> SampleRequests.logs(n, n);
      case TRACES -> SampleRequests.traces(n, n);
      case METRICS -> SampleRequests.metrics(n, n);
    };
    byte[] b = req.toByteArray();
    return Decoders.decode(signal, b, 0, b.length, SampleRequests.T0);
  }

  @ParameterizedTest(name = "{0}, {1} records")
  @MethodSource("blocks")
  void heapWriterWritesTheBytesArrowsWriterWrites(Signal signal, int n) throws Exception {
    Batch batch = decode(signal, n);
    int compared = 0;
    try (BufferAllocator a = new RootAllocator()) {
      for (Table t : batch.tables()) {
        if (t.rows() == 0) {
          continue;
        }
        // The whole table, and a prefix (a cut that is not on a byte of the validity bitmaps).
        for (int rows : new int[] {t.rows(), t.rows() * 2 / 3}) {
          if (rows == 0) {
            continue;
          }
          Path heap = dir.resolve(signal + "-" + n + "-" + rows + "-heap-" + t.file());
          Path vectors = dir.resolve(signal + "-" + n + "-" + rows + "-vectors-" + t.file());
          long written = TableWriter.write(t, rows, heap, Fs.REAL);
          try (TableWriter.Loaded l = TableWriter.load(t, rows, a)) {
            TableWriter.writeRoot(l.root(), l.dictionaries(), vectors, null, Fs.REAL);
          }
          assertThat(written).isEqualTo(Files.size(heap));
          byte[] mine = Files.readAllBytes(heap);
          byte[] arrows = Files.readAllBytes(vectors);
          assertThat(java.util.Arrays.mismatch(mine, arrows))
              .as("first differing byte of %s, %d of %d rows (%d against %d bytes)", t.file(), rows, t.rows(),
                  mine.length, arrows.length)
              .isEqualTo(-1);
          try (FileChannel ch = FileChannel.open(heap); ArrowFileReader r = new ArrowFileReader(ch, a)) {
            assertThat(r.loadNextBatch()).isTrue();
            assertThat(r.getVectorSchemaRoot().getRowCount()).isEqualTo(rows);
          }
          compared++;
        }
      }
    }
    assertThat(compared).isGreaterThanOrEqualTo(4);
  }
}
