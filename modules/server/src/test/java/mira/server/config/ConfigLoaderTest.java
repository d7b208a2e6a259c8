package mira.server.config;

import mira.block.catalog.ColdFormat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  @TempDir Path dir;

  private Config load(String kyaml) throws Exception {
    Path f = dir.resolve("mira.yaml");
    Files.writeString(f, kyaml);
    return ConfigLoader.load(Optional.of(f), Map.of(), 8);
  }

  private String refusal(String kyaml) {
    try {
      load(kyaml);
    } catch (ConfigException e) {
      return e.getMessage();
    } catch (Exception e) {
      throw new AssertionError("expected a ConfigException, got " + e, e);
    }
    throw new AssertionError("config was accepted: " + kyaml);
  }

  @Test
  void embeddedDefaultsNeedNoFile() throws Exception {
    Config c = ConfigLoader.load(Optional.empty(), Map.of(), 8);
    assertThat(c.dataDir()).isEqualTo(Path.of("./data"));
    assertThat(c.grpcListen()).isEqualTo(new HostPort("127.0.0.1", 4317));
    assertThat(c.httpListen()).isEqualTo(new HostPort("127.0.0.1", 4318));
    assertThat(c.retentionTtl()).isEqualTo(Duration.ofHours(168));
    assertThat(c.coldFormat()).isEqualTo(mira.block.catalog.ColdFormat.MIRA);
    assertThat(c.ingestShards()).isEqualTo(4);
    assertThat(c.ingestQueue()).isEqualTo(1024);
    assertThat(c.ingestWal()).isTrue();
    assertThat(c.maxRequestBytes()).isEqualTo(16L << 20);
    assertThat(c.maxConnections()).isEqualTo(4096);
    assertThat(c.headerTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(c.alertRules()).isEmpty();
    assertThat(c.node()).matches("[A-Za-z0-9._-]{1,63}");
  }

  @Test
  void everyKeyReadsFromTheFile() throws Exception {
    Config c = load("""
        {
          node: "mira-1",
          data_dir: "/var/lib/mira",
          listen: {grpc: "0.0.0.0:14317", http: "[::1]:14318"},
          retention: {ttl: "30d", cold_format: "arrow"},
          ingest: {shards: "3", queue: "64", wal: "false", max_request_bytes: "4MiB"},
          alert: {rules: "rules.yaml"},
          link_base: "https://mira.example.com/",
          server: {max_connections: "500", header_timeout: "30s"},
        }
        """);
    assertThat(c.node()).isEqualTo("mira-1");
    assertThat(c.dataDir()).isEqualTo(Path.of("/var/lib/mira"));
    assertThat(c.grpcListen()).isEqualTo(new HostPort("0.0.0.0", 14317));
    assertThat(c.httpListen()).isEqualTo(new HostPort("::1", 14318));
    assertThat(c.retentionTtl()).isEqualTo(Duration.ofDays(30));
    assertThat(c.coldFormat()).isEqualTo(mira.block.catalog.ColdFormat.ARROW);
    assertThat(c.ingestShards()).isEqualTo(3);
    assertThat(c.ingestQueue()).isEqualTo(64);
    assertThat(c.ingestWal()).isFalse();
    assertThat(c.maxRequestBytes()).isEqualTo(4L << 20);
    assertThat(c.alertRules()).contains(Path.of("rules.yaml"));
    assertThat(c.linkBase()).isEqualTo("https://mira.example.com");
    assertThat(c.maxConnections()).isEqualTo(500);
    assertThat(c.headerTimeout()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void trailingCommasAreAccepted() throws Exception {
    Config c = load("{ingest: {shards: \"2\", queue: \"8\",}, node: \"a\",}");
    assertThat(c.ingestShards()).isEqualTo(2);
    assertThat(c.ingestQueue()).isEqualTo(8);
  }

  @Test
  void quotedKeysAreAccepted() throws Exception {
    assertThat(load("{\"node\": \"q\"}").node()).isEqualTo("q");
  }

  @Test
  void anUnquotedValueIsRefusedNamingTheKey() {
    assertThat(refusal("{ingest: {shards: 4}}"))
        .contains("ingest.shards").contains("unquoted").contains("double-quoted").contains("\"4\"");
    assertThat(refusal("{ingest: {wal: no}}")).contains("ingest.wal").contains("unquoted");
    assertThat(refusal("{node: 0x1f}")).contains("node").contains("0x1f");
  }

  @Test
  void aSingleQuotedValueIsRefused() {
    assertThat(refusal("{node: 'mira-1'}")).contains("node").contains("double-quoted");
  }

  @Test
  void anEmptyValueIsRefused() {
    assertThat(refusal("{node: }")).contains("node").contains("unquoted");
  }

  @Test
  void anUnknownKeyIsRefusedListingTheValidOnes() {
    String m = refusal("{ingest: {shardz: \"4\"}}");
    assertThat(m).contains("unknown key ingest.shardz");
    for (String p : Key.paths()) {
      assertThat(m).contains(p);
    }
    assertThat(refusal("{clusters: {peers: \"a:1\"}}")).contains("unknown key clusters");
  }

  @Test
  void clusterPeersAreParsedAndAMalformedEntryIsNamed() {
    assertThat(refusal("{cluster: {peers: \"a,b\"}}")).contains("cluster.peers").contains("\"a\" is not HOST:PORT");
    assertThat(refusal("{cluster: {peers: \"dns:mira:99999\"}}")).contains("cluster.peers").contains("no port");
    assertThat(refusal("{cluster: {timeout: \"1ms\"}}")).contains("cluster.timeout").contains("10ms..5m");
  }

  @Test
  void aDuplicateKeyIsRefused() {
    assertThat(refusal("{node: \"a\", node: \"b\"}")).contains("node").contains("twice");
  }

  @Test
  void aSectionMustBeAMapping() {
    assertThat(refusal("{ingest: \"x\"}")).contains("ingest").contains("section");
    assertThat(refusal("{node: {a: \"b\"}}")).contains("node").contains("mapping");
  }

  @Test
  void brokenSyntaxNamesTheFileAndLine() {
    assertThat(refusal("{node: \"a\"\n  data_dir: }}")).contains("mira.yaml").contains("not valid KYAML");
  }

  @Test
  void aDocumentThatIsNotAMappingIsRefused() {
    assertThat(refusal("[\"a\"]")).contains("must be a mapping");
  }

  @Test
  void invalidValuesAreRefusedNamingTheKey() {
    assertThat(refusal("{ingest: {shards: \"17\"}}")).contains("ingest.shards").contains("1..16");
    assertThat(refusal("{ingest: {shards: \"many\"}}")).contains("ingest.shards").contains("auto");
    assertThat(refusal("{ingest: {queue: \"0\"}}")).contains("ingest.queue");
    assertThat(refusal("{server: {max_connections: \"0\"}}")).contains("server.max_connections").contains("1..1000000");
    assertThat(refusal("{server: {max_connections: \"lots\"}}")).contains("server.max_connections").contains("whole number");
    assertThat(refusal("{server: {header_timeout: \"500ms\"}}")).contains("server.header_timeout").contains("1s..10m");
    assertThat(refusal("{server: {header_timeout: \"1h\"}}")).contains("server.header_timeout").contains("1s..10m");
    assertThat(refusal("{ingest: {wal: \"yes\"}}")).contains("ingest.wal").contains("\"true\"");
    assertThat(refusal("{ingest: {max_request_bytes: \"16 MiB\"}}")).contains("ingest.max_request_bytes").contains("unit");
    assertThat(refusal("{ingest: {max_request_bytes: \"16TB\"}}")).contains("ingest.max_request_bytes");
    assertThat(refusal("{ingest: {max_request_bytes: \"2GiB\"}}")).contains("1KiB..1GiB");
    assertThat(refusal("{retention: {ttl: \"1w\"}}")).contains("retention.ttl").contains("unit");
    assertThat(refusal("{retention: {ttl: \"10s\"}}")).contains("retention.ttl").contains("minimum");
    assertThat(refusal("{retention: {ttl: \"h\"}}")).contains("retention.ttl");
    assertThat(refusal("{retention: {cold_format: \"parquet\"}}")).contains("retention.cold_format").contains("\"mira\" nor \"arrow\"");
    assertThat(refusal("{listen: {grpc: \"4317\"}}")).contains("listen.grpc").contains("HOST:PORT");
    assertThat(refusal("{listen: {grpc: \"localhost:70000\"}}")).contains("listen.grpc").contains("65535");
    assertThat(refusal("{listen: {http: \"::1:4318\"}}")).contains("listen.http").contains("brackets");
    assertThat(refusal("{listen: {grpc: \"a:1\", http: \"a:1\"}}")).contains("listen.http");
    assertThat(refusal("{node: \"has space\"}")).contains("node").contains("letters");
    assertThat(refusal("{data_dir: \"\"}")).contains("data_dir");
    assertThat(refusal("{link_base: \"ftp://x\"}")).contains("link_base");
  }

  @Test
  void durationsAndSizesParse() throws Exception {
    assertThat(Units.duration("k", "1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Units.duration("k", "7d")).isEqualTo(Duration.ofDays(7));
    assertThat(Units.duration("k", "1500ms")).isEqualTo(Duration.ofMillis(1500));
    assertThat(Units.bytes("k", "512KiB")).isEqualTo(512L * 1024);
    assertThat(Units.bytes("k", "3MB")).isEqualTo(3_000_000L);
    assertThat(Units.bytes("k", "1024")).isEqualTo(1024L);
    assertThatThrownBy(() -> Units.bytes("k", "99999999999999999999GiB")).hasMessageContaining("too large");
  }

  @Test
  void flagsOverrideTheFileAndAreNamedInErrors() throws Exception {
    Path f = dir.resolve("mira.yaml");
    Files.writeString(f, "{data_dir: \"/from/file\", node: \"file\"}");
    Config c = ConfigLoader.load(Optional.of(f), Map.of(Key.DATA_DIR, "/from/flag"), 2);
    assertThat(c.dataDir()).isEqualTo(Path.of("/from/flag"));
    assertThat(c.node()).isEqualTo("file");
    assertThat(c.ingestShards()).isEqualTo(1);
    assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(Key.LISTEN_GRPC, "nope"), 2))
        .isInstanceOf(ConfigException.class).hasMessageContaining("--grpc-listen");
  }

  @Test
  void aMissingFileIsNamed() {
    assertThatThrownBy(() -> ConfigLoader.load(Optional.of(dir.resolve("absent.yaml")), Map.of(), 2))
        .isInstanceOf(ConfigException.class).hasMessageContaining("absent.yaml").hasMessageContaining("no such file");
  }

  @Test
  void autoShardsFollowTheCoreCountWithinBounds() throws Exception {
    assertThat(ConfigLoader.load(Optional.empty(), Map.of(), 1).ingestShards()).isEqualTo(1);
    assertThat(ConfigLoader.load(Optional.empty(), Map.of(), 96).ingestShards()).isEqualTo(16);
  }
}
