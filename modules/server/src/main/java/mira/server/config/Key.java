package mira.server.config;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The closed set of configuration keys. A key that is not listed here is a startup error, so a
 * setting can never look as if it is in effect while nothing reads it. docs/config.md documents
 * exactly this list (a test keeps the two in step).
 */
public enum Key {
  NODE("node", "", "--node",
      "This replica's name; hashed into every block directory name. Empty means the host name."),
  DATA_DIR("data_dir", "./data", "--data-dir",
      "Where blocks, the write-ahead log and staging directories live. Local disk only."),
  LISTEN_GRPC("listen.grpc", "127.0.0.1:4317", "--grpc-listen",
      "OTLP/gRPC listener (HTTP/2), HOST:PORT. Use 0.0.0.0 to accept from other hosts."),
  LISTEN_HTTP("listen.http", "127.0.0.1:4318", "--http-listen",
      "OTLP/HTTP, query API, probes and UI listener (HTTP/1.1), HOST:PORT."),
  RETENTION_TTL("retention.ttl", "168h", null,
      "How long a block is kept after its newest record, e.g. \"168h\", \"30d\"."),
  RETENTION_COLD_FORMAT("retention.cold_format", "mira", null,
      "How blocks over an hour old are compressed: \"mira\" (smallest, read by Mira) or \"arrow\" (standard ZSTD Arrow IPC)."),
  INGEST_SHARDS("ingest.shards", "auto", null,
      "Flushers per signal: \"auto\" (cores/2, 1..16) or a number 1..16."),
  INGEST_QUEUE("ingest.queue", "1024", null,
      "Exports that may wait for a flusher, in total across a signal's shards."),
  INGEST_WAL("ingest.wal", "true", null,
      "\"true\": acknowledge once the write-ahead log holds the export; \"false\": once its block is published."),
  INGEST_MAX_REQUEST_BYTES("ingest.max_request_bytes", "16MiB", null,
      "Largest export accepted, applied to the wire body, the inflated body and a gRPC message alike."),
  ALERT_RULES("alert.rules", "", null,
      "Path of a KYAML alert rules file; empty turns alerting off."),
  LINK_BASE("link_base", "", null,
      "External base URL of the UI, used in links that leave the process (alerts, MCP); empty means none."),
  CLUSTER_PEERS("cluster.peers", "", null,
      "Comma-separated peers asked by every read: HOST:PORT and/or dns:NAME:PORT (re-resolved at most every 5s); empty: no fan-out."),
  CLUSTER_TIMEOUT("cluster.timeout", "2s", null,
      "How long a read waits for a peer's answer before answering without it (named as partial)."),
  AUTH_INGEST_TOKENS("auth.ingest_tokens", "", null,
      "File of bearer tokens (one per line) an OTLP export must carry; empty means exports need none."),
  AUTH_READ_TOKENS("auth.read_tokens", "", null,
      "File of bearer tokens (one per line) the query API, MCP and the UI must carry; empty means reads need none."),
  TLS_CERT("tls.cert", "", null,
      "PEM certificate chain; with tls.key it turns on TLS for both listeners. Empty means plain TCP."),
  TLS_KEY("tls.key", "", null,
      "PEM private key of tls.cert (PKCS#8, or PKCS#1 / SEC 1; RSA or EC; unencrypted)."),
  TLS_CLIENT_CA("tls.client_ca", "", null,
      "PEM CA certificates; when set, both listeners require a client certificate issued by one of them (mTLS)."),
  SERVER_MAX_CONNECTIONS("server.max_connections", "4096", null,
      "Connections each listener serves at once; past it a new one is answered 503 (HTTP) or GOAWAY (gRPC) and closed."),
  SERVER_HEADER_TIMEOUT("server.header_timeout", "10s", null,
      "How long a request's headers may take to arrive once begun (and a new connection's first request); past it the connection is closed.");

  private final String path;
  private final String defaultValue;
  private final String flag;
  private final String description;

  Key(String path, String defaultValue, String flag, String description) {
    this.path = path;
    this.defaultValue = defaultValue;
    this.flag = flag;
    this.description = description;
  }

  /** The dotted path of the key in the file, e.g. {@code ingest.shards}. */
  public String path() {
    return path;
  }

  /** The value used when neither the file nor a flag sets the key. */
  public String defaultValue() {
    return defaultValue;
  }

  /** The command-line flag that overrides the key, if there is one. */
  public Optional<String> flag() {
    return Optional.ofNullable(flag);
  }

  public String description() {
    return description;
  }

  public static Optional<Key> byPath(String path) {
    for (Key k : values()) {
      if (k.path.equals(path)) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }

  /** Every valid key path, in declaration order, for error messages. */
  public static List<String> paths() {
    return Arrays.stream(values()).map(Key::path).toList();
  }

  /** True if some key lives under {@code prefix.} (so {@code prefix} names a section). */
  static boolean isSection(String prefix) {
    for (Key k : values()) {
      if (k.path.startsWith(prefix + ".")) {
        return true;
      }
    }
    return false;
  }
}
