package mira.block.logs;

import java.nio.file.Files;
import java.nio.file.Path;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import mira.block.Decoders;
import mira.block.publish.Publisher;
import mira.block.table.Batch;
import mira.block.testing.MappedReads;
import mira.proto.wire.Signal;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/** The mapped block reader against Arrow Java's reader, over random blocks of this signal. */
class LogsMappedReadTest {
  @Provide
  Arbitrary<ExportLogsServiceRequest> requests() {
    return Generators.logsRequests();
  }

  @Property(tries = 40)
  void theMappedReaderReadsWhatArrowJavaReads(@ForAll("requests") ExportLogsServiceRequest req) throws Exception {
    // jqwik properties do not get JUnit's @TempDir.
    Path data = Files.createTempDirectory("mira-mapped-logs");
    try {
      check(data, req);
    } finally {
      MappedReads.deleteTree(data);
    }
  }

  private static void check(Path data, ExportLogsServiceRequest req) throws Exception {
    byte[] bytes = req.toByteArray();
    Batch b = Decoders.decode(Signal.LOGS, bytes, 0, bytes.length, 1L);
    if (b.isEmpty()) {
      return;
    }
    Path block;
    try (BufferAllocator a = new RootAllocator()) {
      block = new Publisher(data, Signal.LOGS, "n", a).publish(b, 0, 0);
    }
    MappedReads.assertReadsLikeArrow(Signal.LOGS, block);
  }
}
