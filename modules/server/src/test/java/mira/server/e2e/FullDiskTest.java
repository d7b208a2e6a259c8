package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mira.block.testing.LogsReadBack;
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

  /** A tmpfs of {@code size} mounted for the test (skips the test where mounting is not permitted). */
  private Path mountTmpfs(String size) throws Exception {
    Path mnt = tmp.resolve("mnt");
    Files.createDirectories(mnt);
    assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", mnt.toString()),
        "cannot mount a tmpfs here (needs root); the test is skipped");
    return mnt;
  }

  @Test
  void aFullDiskIsARetryAndIngestResumesWhenSpaceIsFreed() throws Exception {
    fullDisk(false);
  }

  @Test
  void withTheLogOnAFullDiskRefusesTheAppendAndLosesNothingAcknowledged() throws Exception {
    fullDisk(true);
  }

  @Test
  void anExportAcknowledgedFromTheLogIsPublishedOnceSpaceReturns() throws Exception {
    Path mnt = mountTmpfs("8m");
    try {
      ExportLogsServiceRequest export = Samples.noisyLogs(8000, 11);
      byte[] body = export.toByteArray();
      try (Node node = new Node(mnt.resolve("data"), java.util.Map.of(mira.server.config.Key.INGEST_WAL, "true"))) {
        Path filler = mnt.resolve("filler");
        // Room for the log frame (the request's bytes) but not for the block's tables.
        fill(filler, Files.getFileStore(mnt).getUsableSpace() - body.length - 128 * 1024);
        HttpExchange acked = HttpExchange.post(node.http() + "/v1/logs", "application/x-protobuf", null, body);
        assertThat(acked.status()).as("the log holds it").isEqualTo(200);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (node.ingest.stats().of(Signal.LOGS).publishFailures.sum() == 0 && System.nanoTime() < deadline) {
          Thread.sleep(50);
        }
        assertThat(node.ingest.stats().of(Signal.LOGS).publishFailures.sum()).as("the block could not be written").isPositive();
        assertThat(node.blocks(Signal.LOGS)).isEmpty();
        Files.delete(filler);
        deadline = System.nanoTime() + 15_000_000_000L;
        while (node.blocks(Signal.LOGS).isEmpty() && System.nanoTime() < deadline) {
          Thread.sleep(50);
        }
        assertThat(Stored.logs(node)).as("published by the retry, nothing lost").containsExactlyElementsOf(Stored.expectedLogs(export));
      }
    } finally {
      run("umount", mnt.toString());
    }
  }

  /**
   * A volume that goes read-only under a running node (log off: a node with the log on holds its
   * segment open for writing, and Linux refuses to remount a volume read-only under a writer).
   */
  @Test
  void aVolumeGoneReadOnlyIsARetryQueriesKeepAnsweringAndIngestResumesWhenItIsWritableAgain() throws Exception {
    Path mnt = mountTmpfs("32m");
    try {
      ExportLogsServiceRequest first = Samples.noisyLogs(500, 21);
      ExportLogsServiceRequest second = Samples.noisyLogs(500, 22);
      try (Node node = new Node(mnt.resolve("data"), java.util.Map.of(mira.server.config.Key.INGEST_WAL, "false"))) {
        assertThat(HttpExchange.post(node.http() + "/v1/logs", "application/x-protobuf", null, first.toByteArray()).status())
            .isEqualTo(200);
        List<LogsReadBack.Flat> before = Stored.logs(node);
        assertThat(before).containsExactlyElementsOf(Stored.expectedLogs(first));
        assumeTrue(run("mount", "-o", "remount,ro", mnt.toString()), "cannot remount the tmpfs read-only here");
        try {
          HttpExchange refused = HttpExchange.post(node.http() + "/v1/logs", "application/x-protobuf", null, second.toByteArray());
          assertThat(refused.status()).isEqualTo(503);
          assertThat(refused.header("Retry-After")).isNotNull();
          assertThat(refused.text()).containsIgnoringCase("read-only");
          assertThat(Stored.logs(node)).as("queries answer, with what was stored before").isEqualTo(before);
        } finally {
          assertThat(run("mount", "-o", "remount,rw", mnt.toString())).isTrue();
        }
        assertThat(HttpExchange.post(node.http() + "/v1/logs", "application/x-protobuf", null, second.toByteArray()).status())
            .isEqualTo(200);
        List<LogsReadBack.Flat> both = new java.util.ArrayList<>(Stored.expectedLogs(second));
        both.addAll(Stored.expectedLogs(first));
        assertThat(Stored.logs(node)).containsExactlyInAnyOrderElementsOf(both);
      }
    } finally {
      run("umount", mnt.toString());
    }
  }

  private static void fill(Path filler, long bytes) throws Exception {
    try (OutputStream out = Files.newOutputStream(filler)) {
      byte[] chunk = new byte[16 * 1024];
      long left = bytes;
      while (left > 0) {
        int n = (int) Math.min(chunk.length, left);
        out.write(chunk, 0, n);
        left -= n;
      }
    }
  }

  private void fullDisk(boolean wal) throws Exception {
    Path mnt = mountTmpfs("8m");
    try {
      ExportLogsServiceRequest export = Samples.noisyLogs(8000, 7);
      byte[] body = export.toByteArray();
      try (Node node = new Node(mnt.resolve("data"), java.util.Map.of(mira.server.config.Key.INGEST_WAL, Boolean.toString(wal)))) {
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
        assertThat(node.blocks(Signal.LOGS)).as("nothing of the failed export is visible").isEmpty();
        try (var staging = Files.list(mnt.resolve("data/logs/.staging"))) {
          assertThat(staging).as("the failed staging directory was removed").isEmpty();
        }

        Files.delete(filler);
        HttpExchange accepted = HttpExchange.post(node.http() + "/v1/logs", "application/x-protobuf", null, body);
        assertThat(accepted.status()).isEqualTo(200);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (Stored.logs(node).size() < export.getResourceLogs(0).getScopeLogs(0).getLogRecordsCount()
            && System.nanoTime() < deadline) {
          Thread.sleep(50); // with the log on, the block is published after the acknowledgement
        }
        assertThat(Stored.logs(node)).containsExactlyElementsOf(Stored.expectedLogs(export));
      }
    } finally {
      run("umount", mnt.toString());
    }
  }
}
