package mira.block.cold;

import mira.block.catalog.ColdFormat;
import mira.block.catalog.ColdMarker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import mira.block.logs.LogsDecoder;
import mira.block.publish.Publisher;
import mira.block.publish.TableWriter;
import mira.block.testing.ArrowTables;
import mira.block.testing.LogsReadBack;
import mira.block.testing.ReaderTables;
import mira.proto.wire.Signal;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactorTest {
  @TempDir Path data;

  static final long T0 = 1_767_225_600_000_000_000L;

  /** A logs export big enough for compression to show: repeated keys, similar bodies. */
  static ExportLogsServiceRequest sample(int records) {
    var sl = io.opentelemetry.proto.logs.v1.ScopeLogs.newBuilder();
    for (int i = 0; i < records; i++) {
      sl.addLogRecords(io.opentelemetry.proto.logs.v1.LogRecord.newBuilder().setTimeUnixNano(T0 + i)
          .setSeverityText(i % 7 == 0 ? "ERROR" : "INFO")
          .setBody(io.opentelemetry.proto.common.v1.AnyValue.newBuilder().setStringValue("request " + i + " served in " + (i % 90) + " ms"))
          .addAttributes(io.opentelemetry.proto.common.v1.KeyValue.newBuilder().setKey("http.route")
              .setValue(io.opentelemetry.proto.common.v1.AnyValue.newBuilder().setStringValue("/api/" + (i % 5))))
          .addAttributes(io.opentelemetry.proto.common.v1.KeyValue.newBuilder().setKey("status")
              .setValue(io.opentelemetry.proto.common.v1.AnyValue.newBuilder().setIntValue(i % 3 == 0 ? 500 : 200))));
    }
    return ExportLogsServiceRequest.newBuilder().addResourceLogs(io.opentelemetry.proto.logs.v1.ResourceLogs.newBuilder()
        .setResource(io.opentelemetry.proto.resource.v1.Resource.newBuilder().addAttributes(
            io.opentelemetry.proto.common.v1.KeyValue.newBuilder().setKey("service.name")
                .setValue(io.opentelemetry.proto.common.v1.AnyValue.newBuilder().setStringValue("cold-test"))))
        .addScopeLogs(sl)).build();
  }

  private Path publish(ExportLogsServiceRequest req, RootAllocator a) throws Exception {
    byte[] b = req.toByteArray();
    return new Publisher(data, Signal.LOGS, "n", a).publish(new LogsDecoder().decode(b, 0, b.length, T0), 0, 0);
  }

  private static long size(Path dir) throws Exception {
    try (var s = Files.list(dir)) {
      long n = 0;
      for (Path p : s.toList()) {
        n += Files.size(p);
      }
      return n;
    }
  }

  @Test
  void aCompactedBlockReadsExactlyAsBeforeAndIsSmaller() throws Exception {
    ExportLogsServiceRequest req = sample(5000);
    try (RootAllocator a = new RootAllocator()) {
      Path block = publish(req, a);
      List<LogsReadBack.Flat> before = LogsReadBack.readBack(block);
      long hot = size(block);
      Compactor.compact(block, "0000abcd", a);
      assertThat(ColdMarker.isCold(block)).isTrue();
      assertThat(LogsReadBack.readBack(block)).containsExactlyElementsOf(before).containsExactlyElementsOf(LogsReadBack.flatten(req));
      long cold = size(block);
      assertThat(cold).as("cold %d bytes vs hot %d", cold, hot).isLessThan(hot / 3);
      try (var s = Files.list(block)) {
        assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".cold"));
      }
      assertThat(a.getAllocatedMemory()).isZero();
    }
  }

  @Test
  void everyCompactedTableCarriesAValidChecksum() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      Path block = publish(sample(200), a);
      Compactor.compact(block, "0000abcd", a);
      try (var s = Files.list(block)) {
        for (Path f : s.filter(p -> p.toString().endsWith(".arrow")).toList()) {
          Map<String, String> footer = ArrowTables.read(block, f.getFileName().toString()).footer();
          byte[] file = Files.readAllBytes(f);
          CRC32C crc = new CRC32C();
          crc.update(file, TableWriter.BODY_OFFSET, Integer.parseInt(footer.get(TableWriter.LEN_KEY)));
          assertThat(footer.get(TableWriter.CRC_KEY)).as(f.toString()).isEqualTo(HexFormat.of().toHexDigits((int) crc.getValue()));
        }
      }
    }
  }

  @Test
  void aReaderThatOpenedTheHotFileKeepsReadingItDuringCompaction() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      Path block = publish(sample(300), a);
      try (FileChannel ch = FileChannel.open(block.resolve("logs.arrow")); ArrowFileReader r = new ArrowFileReader(ch, a)) {
        Compactor.compact(block, "0000abcd", a);
        assertThat(r.loadNextBatch()).isTrue();
        assertThat(r.getVectorSchemaRoot().getRowCount()).isEqualTo(300);
      }
    }
  }

  @Test
  void anInterruptedCompactionIsFinishedByTheNextSweep() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      ExportLogsServiceRequest req = sample(300);
      Path block = publish(req, a);
      // Half done: one table compressed, a staged file left behind, no marker.
      Path one = block.resolve("logs.arrow");
      Compactor.compact(block, "0000abcd", a);
      Files.delete(block.resolve(ColdMarker.FILE));
      Files.writeString(block.resolve("log_attrs.arrow.0000abcd.cold"), "torn");
      List<Path> done = Compactor.sweep(data, "0000abcd", T0 + 2 * Compactor.COLD_AFTER_NS, ColdFormat.MIRA, a);
      assertThat(done).containsExactly(block);
      assertThat(ColdMarker.isCold(block)).isTrue();
      assertThat(block.resolve("log_attrs.arrow.0000abcd.cold")).doesNotExist();
      assertThat(LogsReadBack.readBack(block)).containsExactlyElementsOf(LogsReadBack.flatten(req));
      assertThat(one).exists();
      assertThat(Compactor.sweep(data, "0000abcd", T0 + 2 * Compactor.COLD_AFTER_NS, ColdFormat.MIRA, a)).as("nothing left to do").isEmpty();
    }
  }

  @Test
  void aDamagedHotTableIsNotLaunderedIntoAVerifiedColdOne() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      Path block = publish(sample(300), a);
      Path table = block.resolve("logs.arrow");
      byte[] bytes = Files.readAllBytes(table);
      bytes[bytes.length / 3] ^= 0x40; // a flipped bit in the body, which the footer's CRC covers
      Files.write(table, bytes);
      assertThat(Compactor.sweep(data, "0000abcd", T0 + 2 * Compactor.COLD_AFTER_NS, ColdFormat.MIRA, a))
          .as("the damaged block is left alone").isEmpty();
      assertThat(ColdMarker.isCold(block)).isFalse();
      assertThat(Files.readAllBytes(table)).as("the damaged table is kept as it was").isEqualTo(bytes);
      assertThat(Compactor.damage(new mira.block.catalog.BlockRef(mira.proto.wire.Signal.LOGS,
          mira.block.catalog.BlockName.parse(block.getFileName().toString()).orElseThrow(), block), a))
          .contains("CRC32C mismatch").contains("logs.arrow");
    }
  }

  @Test
  void blocksYoungerThanAnHourStayHot() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      Path block = publish(sample(10), a);
      assertThat(Compactor.sweep(data, "0000abcd", T0 + Compactor.COLD_AFTER_NS / 2, ColdFormat.MIRA, a)).isEmpty();
      assertThat(ColdMarker.isCold(block)).isFalse();
    }
  }

  @Test
  void theMarkerNamesTheFormatAndAMarkerFromBeforeFormatsMeansStandard() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      Path block = publish(sample(50), a);
      assertThat(ColdMarker.format(block)).isNull();
      Compactor.compact(block, "0000abcd", ColdFormat.MIRA, a);
      assertThat(Files.readString(block.resolve(ColdMarker.FILE))).isEqualTo("mira");
      assertThat(ColdMarker.format(block)).isEqualTo(ColdFormat.MIRA);
      Compactor.compact(block, "0000abcd", ColdFormat.ARROW, a);
      assertThat(ColdMarker.format(block)).isEqualTo(ColdFormat.ARROW);
      Files.writeString(block.resolve(ColdMarker.FILE), "");
      assertThat(ColdMarker.format(block)).as("written before formats: bare zstd").isEqualTo(ColdFormat.ARROW);
    }
  }

  @Test
  void aChangeOfFormatReachesBlocksAlreadyColdOneSweepAtATime() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      ExportLogsServiceRequest req = sample(300);
      Path block = publish(req, a);
      long later = T0 + 2 * Compactor.COLD_AFTER_NS;
      assertThat(Compactor.sweep(data, "0000abcd", later, ColdFormat.MIRA, a)).containsExactly(block);
      assertThat(Compactor.sweep(data, "0000abcd", later, ColdFormat.MIRA, a)).as("nothing left to do").isEmpty();
      assertThatThrownBy(() -> ReaderTables.allWithArrow(block, ColdRoundTripTest.BARE_ZSTD_ONLY))
          .as("a standard reader cannot read the shaped form").hasMessageContaining("not a zstd frame");

      assertThat(Compactor.sweep(data, "0000abcd", later, ColdFormat.ARROW, a)).containsExactly(block);
      assertThat(ColdMarker.format(block)).isEqualTo(ColdFormat.ARROW);
      assertThat(LogsReadBack.readBack(block)).containsExactlyElementsOf(LogsReadBack.flatten(req));
      assertThat(ReaderTables.allWithArrow(block, ColdRoundTripTest.BARE_ZSTD_ONLY))
          .as("a standard reader reads the standard form").isEqualTo(ReaderTables.allWithArrow(block));
      assertThat(Compactor.sweep(data, "0000abcd", later, ColdFormat.ARROW, a)).isEmpty();
      assertThat(a.getAllocatedMemory()).isZero();
    }
  }

  /** A sweep told to stop ends after the block under way: one of two old blocks compacted, the other untouched. */
  @Test
  void aSweepAskedToStopEndsAfterTheBlockUnderWay() throws Exception {
    try (RootAllocator a = new RootAllocator()) {
      ExportLogsServiceRequest req = sample(200);
      byte[] b = req.toByteArray();
      Publisher p = new Publisher(data, Signal.LOGS, "n", a);
      Path first = p.publish(new LogsDecoder().decode(b, 0, b.length, T0), 0, 0);
      Path second = p.publish(new LogsDecoder().decode(b, 0, b.length, T0), 1, 0);
      assertThat(first).isNotEqualTo(second);
      long later = T0 + 2 * Compactor.COLD_AFTER_NS;
      int[] asked = new int[1];
      List<Path> done = Compactor.sweep(data, "0000abcd", later, ColdFormat.MIRA, a, mira.fs.Fs.REAL,
          () -> asked[0]++ > 0);
      assertThat(done).hasSize(1);
      Path other = done.get(0).equals(first) ? second : first;
      assertThat(ColdMarker.isCold(done.get(0))).isTrue();
      assertThat(ColdMarker.isCold(other)).as("not started").isFalse();
      assertThat(LogsReadBack.readBack(other)).containsExactlyElementsOf(LogsReadBack.flatten(req));
      assertThat(Compactor.sweep(data, "0000abcd", later, ColdFormat.MIRA, a)).containsExactly(other);
      assertThat(a.getAllocatedMemory()).isZero();
    }
  }
}
