package mira.server.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import mira.block.catalog.BlockName;
import mira.proto.wire.Signal;
import mira.cluster.Cluster;
import mira.cluster.Peers;
import mira.query.LocalQueries;
import mira.server.api.Api;
import mira.server.config.Config;
import mira.server.config.ConfigLoader;
import mira.server.config.Key;
import mira.server.ingest.Ingest;
import mira.server.launch.DataDirectory;
import mira.server.launch.MiraServer;

/** A whole Mira node in-process: the real pipeline behind real listeners on loopback. */
final class Node implements AutoCloseable {
  final Path data;
  final Ingest ingest;
  final MiraServer server;
  final LocalQueries queries;
  final AtomicReference<Throwable> fatal = new AtomicReference<>();

  Node(Path data, Map<Key, String> extra) throws Exception {
    this(data, extra, Ingest.ADMIT_WAIT);
  }

  /**
   * @param admitWait how long an export waits for room in a full queue before it is shed (the
   *     production value is {@link Ingest#ADMIT_WAIT}; no setting exposes it)
   */
  Node(Path data, Map<Key, String> extra, Duration admitWait) throws Exception {
    this.data = data;
    EnumMap<Key, String> flags = new EnumMap<>(Key.class);
    flags.put(Key.LISTEN_GRPC, "127.0.0.1:0");
    flags.put(Key.LISTEN_HTTP, "127.0.0.1:0");
    flags.put(Key.DATA_DIR, data.toString());
    flags.put(Key.NODE, extra.getOrDefault(Key.NODE, "e2e"));
    // Tests here read blocks right after an acknowledgement, which holds with the log off; tests of
    // the log turn it on explicitly.
    flags.put(Key.INGEST_WAL, "false");
    flags.putAll(extra);
    Config c = ConfigLoader.load(Optional.empty(), flags, 2);
    DataDirectory.Checked d = DataDirectory.prepare(c.dataDir(), Path.of("/proc/self/mountinfo"));
    this.ingest = Ingest.start(d.path(), new Ingest.Options(c.node(), c.ingestShards(), c.ingestQueue(), c.ingestWal(),
        (int) c.maxRequestBytes(), admitWait), (t, e) -> fatal.set(e));
    this.queries = LocalQueries.open(d.path(), ingest);
    this.server = MiraServer.start(c, d, ingest, Api.routes(c.node(), ingest,
        new Cluster(c.node(), queries, Peers.parse(c.clusterPeers()), c.clusterTimeout()), null, "test",
        mira.alert.Alerting.off(), c.linkBase()));
  }

  Node(Path data) throws Exception {
    this(data, Map.of());
  }

  String http() {
    return "http://127.0.0.1:" + server.httpPort();
  }

  String grpc() {
    return "http://127.0.0.1:" + server.grpcPort();
  }

  /** The gRPC address as grpc-java's channel builders take it. */
  String grpcTarget() {
    return "127.0.0.1:" + server.grpcPort();
  }

  /** Every published block of a signal, in sequence order. */
  List<Path> blocks(Signal s) throws IOException {
    Path dir = data.resolve(s.dir());
    List<Path> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (Stream<Path> parts = Files.list(dir)) {
      for (Path p : parts.filter(p -> p.getFileName().toString().startsWith("p=")).toList()) {
        try (Stream<Path> b = Files.list(p)) {
          out.addAll(b.filter(x -> BlockName.parse(x.getFileName().toString()).isPresent()).toList());
        }
      }
    }
    out.sort(Comparator.comparingLong(p -> BlockName.parse(p.getFileName().toString()).orElseThrow().seq()));
    return out;
  }

  @Override
  public void close() {
    server.close();
    ingest.close(Duration.ofSeconds(15));
    queries.close();
    if (fatal.get() != null) {
      throw new AssertionError("a flusher died", fatal.get());
    }
  }
}
