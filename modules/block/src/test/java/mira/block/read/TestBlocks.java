package mira.block.read;

import mira.block.catalog.BlockRef;
import com.google.protobuf.MessageLite;
import java.nio.file.Path;
import mira.block.catalog.BlockName;
import mira.block.Decoders;
import mira.block.publish.Publisher;
import mira.block.table.Batch;
import mira.block.testing.SampleRequests;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/** Publishes blocks for reader tests. */
final class TestBlocks {
  private TestBlocks() {}

  static Batch decode(Signal signal, MessageLite request) throws Exception {
    byte[] b = request.toByteArray();
    return Decoders.decode(signal, b, 0, b.length, SampleRequests.T0);
  }

  static BlockRef publish(Path data, Signal signal, MessageLite request, long seq) throws Exception {
    try (BufferAllocator a = new RootAllocator()) {
      Path dir = new Publisher(data, signal, "reader-test", a).publish(decode(signal, request), seq, 0);
      return new BlockRef(signal, BlockName.parse(dir.getFileName().toString()).orElseThrow(), dir);
    }
  }

  /** A block of {@code signal} built from {@link SampleRequests} with {@code n} records. */
  static BlockRef sample(Path data, Signal signal, int n, long seq) throws Exception {
    MessageLite req = switch (signal) {
      case LOGS -> SampleRequests.logs(n, seq);
      case TRACES -> SampleRequests.traces(n, seq);
      case METRICS -> SampleRequests.metrics(n, seq);
    };
    return publish(data, signal, req, seq);
  }
}
