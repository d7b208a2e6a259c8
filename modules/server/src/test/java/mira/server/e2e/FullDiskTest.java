package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import mira.proto.wire.Signal;
import mira.server.testing.HttpExchange;
import mira.server.testing.Samples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A publish that fails for lack of space is a "retry" for the client, stores nothing, leaves no
 * staging directory, and the node accepts the same export once space is back. The data directory
 * is a small tmpfs mounted for the test (skipped where mounting is not permitted).
 */
class FullDiskTest {
  @TempDir Path tmp;

  private static boolean run(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
  }

  @Test
  void aFullDiskIsARetryAndIngestResumesWhenSpaceIsFreed() throws Exception {
    Path mnt = tmp.resolve("mnt");
    Files.createDirectories(mnt);
    assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mnt.toString()),
        "cannot mount a tmpfs here (needs root); the full-disk test is skipped");
    try {
      ExportLogsServiceRequest export = Samples.noisyLogs(8000, 7);
      byte[] body = export.toByteArray();
      try (Node node = new Node(mnt.resolve("data"))) {
        Path filler = mnt.resolve("filler");
        // Written, not sized: tmpfs does not allocate the holes of a sparse file. Leave well under
        // what the export's block needs (about 1 MB of tables).
        try (OutputStream out = Files.newOutputStream(filler)) {
          byte[] chunk = new byte[16 * 1024];
          long left = Files.getFileStore(mnt).getUsableSpace() - 64 * 1024;
          while (left > 0) {
            int n = (int) Math.min(chunk.length, left);
            out.write(chunk, 0, n);
            left -= n;
          }
        }
        HttpExchange refused = HttpExchange.post(node.http() + "/v1/logs", "application/x-protobuf", null, body);
        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.header("Retry-After")).isNotNull();
        assertThat(node.ingest.stats().of(Signal.LOGS).publishFailures.sum()).isPositive();
        assertThat(node.blocks(Signal.LOGS)).as("nothing of the failed block is visible").isEmpty();
        try (var staging = Files.list(mnt.resolve("data/logs/.staging"))) {
          assertThat(staging).as("the failed staging directory was removed").isEmpty();
        }

        Files.delete(filler);
        HttpExchange accepted = HttpExchange.post(node.http() + "/v1/logs", "application/x-protobuf", null, body);
        assertThat(accepted.status()).isEqualTo(200);
        assertThat(Stored.logs(node)).containsExactlyElementsOf(Stored.expectedLogs(export));
      }
    } finally {
      run("umount", mnt.toString());
    }
  }
}
