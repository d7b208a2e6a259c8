package mira.server.config;

import mira.block.catalog.ColdFormat;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A validated configuration. Built only by {@link ConfigLoader}; every field has been checked.
 *
 * @param node this replica's name (1..63 of {@code [A-Za-z0-9._-]})
 * @param dataDir the data directory as given (relative paths resolve against the working directory)
 * @param grpcListen OTLP/gRPC listen address
 * @param httpListen HTTP listen address (OTLP/HTTP, API, probes)
 * @param retentionTtl how long blocks are kept after their newest record
 * @param coldFormat how blocks are written into the cold tier
 * @param ingestShards flushers per signal, 1..16, already resolved from "auto"
 * @param ingestQueue total exports that may wait across a signal's shards
 * @param ingestWal whether exports are acknowledged from the write-ahead log
 * @param maxRequestBytes the one size limit on an export, in bytes
 * @param alertRules the alert rules file, if alerting is on
 * @param linkBase the UI's external base URL, or empty
 * @param clusterPeers the {@code cluster.peers} list as given (validated), or empty
 * @param clusterTimeout how long a read waits for a peer
 * @param ingestTokens the file of tokens OTLP exports must carry, or empty for none
 * @param readTokens the file of tokens the query API, MCP and the UI's calls must carry, or empty for none
 * @param tlsCert the PEM certificate chain both listeners serve, or empty for plain TCP
 * @param tlsKey the PEM private key of {@code tlsCert} (set exactly when it is)
 * @param tlsClientCa the PEM CA a client certificate must chain to (mTLS), or empty
 * @param maxConnections connections each listener serves at once, 1..1000000
 * @param headerTimeout how long a request's headers may take once begun, 1s..10m
 */
public record Config(
    String node,
    Path dataDir,
    HostPort grpcListen,
    HostPort httpListen,
    Duration retentionTtl,
    ColdFormat coldFormat,
    int ingestShards,
    int ingestQueue,
    boolean ingestWal,
    long maxRequestBytes,
    Optional<Path> alertRules,
    String linkBase,
    String clusterPeers,
    Duration clusterTimeout,
    Optional<Path> ingestTokens,
    Optional<Path> readTokens,
    Optional<Path> tlsCert,
    Optional<Path> tlsKey,
    Optional<Path> tlsClientCa,
    int maxConnections,
    Duration headerTimeout) {

  /** Upper bound on ingest.shards; more flushers than this only fragment blocks. */
  public static final int MAX_SHARDS = 16;
}
