package mira.server.otlp;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import mira.server.config.Config;
import mira.server.config.ConfigLoader;
import mira.server.config.Key;
import mira.server.launch.DataDirectory;
import mira.server.launch.MiraServer;

/** A real MiraServer on loopback ephemeral ports, with a {@link RecordingSink}. */
final class RunningServer implements AutoCloseable {
  final MiraServer server;
  final RecordingSink sink = new RecordingSink();
  final int limit;

  RunningServer(Path dataDir, String maxRequestBytes) throws Exception {
    Config config = ConfigLoader.load(Optional.empty(), Map.of(
        Key.LISTEN_GRPC, "127.0.0.1:0",
        Key.LISTEN_HTTP, "127.0.0.1:0",
        Key.DATA_DIR, dataDir.toString(),
        Key.INGEST_MAX_REQUEST_BYTES, maxRequestBytes), 2);
    this.limit = (int) config.maxRequestBytes();
    this.server = MiraServer.start(config, DataDirectory.prepare(config.dataDir(), Path.of("/proc/self/mountinfo")), sink);
  }

  String httpBase() {
    return "http://127.0.0.1:" + server.httpPort();
  }

  String grpcTarget() {
    return "127.0.0.1:" + server.grpcPort();
  }

  @Override
  public void close() {
    server.close();
  }
}
