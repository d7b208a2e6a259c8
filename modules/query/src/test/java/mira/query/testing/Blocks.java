package mira.query.testing;

import com.google.protobuf.Message;
import java.nio.file.Path;
import mira.block.Decoders;
import mira.block.publish.Publisher;
import mira.block.table.Batch;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/** Publishes OTLP requests as blocks the way ingest does: decode, then {@link Publisher}. */
public final class Blocks {
  private Blocks() {}

  /**
   * Decodes {@code request} (received at {@code receivedAt}) and publishes it as block
   * {@code seq} of {@code node} under {@code dataDir}.
   *
   * @return the block directory
   */
  public static Path publish(Path dataDir, Signal signal, String node, long seq, Message request, long receivedAt)
      throws Exception {
    byte[] bytes = request.toByteArray();
    Batch b = Decoders.decode(signal, bytes, 0, bytes.length, receivedAt);
    try (BufferAllocator a = new RootAllocator()) {
      return new Publisher(dataDir, signal, node, a).publish(b, seq, 0);
    }
  }

  /** Deletes {@code dir} and everything under it; nothing if it is null. */
  public static void deleteTree(Path dir) throws java.io.IOException {
    if (dir == null || !java.nio.file.Files.exists(dir)) {
      return;
    }
    try (var w = java.nio.file.Files.walk(dir)) {
      for (Path p : w.sorted(java.util.Comparator.reverseOrder()).toList()) {
        java.nio.file.Files.delete(p);
      }
    }
  }
}
