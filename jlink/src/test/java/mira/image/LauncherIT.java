package mira.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starts the real {@code bin/mira} of the assembled image. */
class LauncherIT {
  private static final Duration START = Duration.ofSeconds(30);
  private static final String[] EPHEMERAL = {"--grpc-listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0"};
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir Path cwd;

  private static String[] serve(String... extra) {
    String[] a = new String[1 + EPHEMERAL.length + extra.length];
    a[0] = "serve";
    System.arraycopy(EPHEMERAL, 0, a, 1, EPHEMERAL.length);
    System.arraycopy(extra, 0, a, 1 + EPHEMERAL.length, extra.length);
    return a;
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void embeddedDefaultsServeReadyzWithDataInDotData() throws Exception {
    assumeTrue(free(4317) && free(4318), "ports 4317/4318 are in use on this host");
    try (Launched m = Launched.start(cwd, "serve")) {
      int[] ports = m.awaitListening(START);
      assertThat(ports).containsExactly(4317, 4318);
      assertThat(get(4318, "/readyz").statusCode()).isEqualTo(200);
      assertThat(get(4318, "/health").statusCode()).isEqualTo(200);
      assertThat(cwd.resolve("data")).isDirectory();
    }
  }

  @Test
  void anotherCollectorNamedInMiraJavaOptsReplacesTheDefaultWithoutAotErrors() throws Exception {
    try (Launched m = Launched.start(cwd, java.util.Map.of("MIRA_JAVA_OPTS", "-XX:+UseZGC"), serve())) {
      int[] ports = m.awaitListening(START);
      assertThat(get(ports[1], "/readyz").statusCode()).isEqualTo(200);
      // Two collectors on one command line would not start at all; a cache trained under the serial
      // collector would be reported with [error][aot] lines.
      assertThat(m.stdout() + m.stderr()).doesNotContain("[error][aot]").doesNotContain("onflicting collector");
    }
  }

  /** The JVM options the launcher would use, with its memory read from {@code cgroup} (see jlink/mira). */
  private String sizing(Path cgroup, String javaOpts) throws Exception {
    java.util.Map<String, String> env = new java.util.HashMap<>(java.util.Map.of("MIRA_CGROUP_ROOT", cgroup.toString(),
        "MIRA_PRINT_JVM_OPTIONS", "1", "MIRA_JAVA_OPTS", javaOpts));
    env.put("JDK_JAVA_OPTIONS", "");
    try (Launched m = Launched.start(cwd, env, "version")) {
      assertThat(m.awaitExit(Duration.ofSeconds(10))).as(m.stderr()).isZero();
      return m.stdout().strip();
    }
  }

  @Test
  void theHeapIsAQuarterOfTheCgroupMemoryLimitAtMost256MiB() throws Exception {
    Path v2 = Files.createDirectories(cwd.resolve("v2"));
    long host = 0;
    for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
      if (line.startsWith("MemTotal:")) {
        host = Long.parseLong(line.replaceAll("[^0-9]", "")) << 10;
      }
    }
    assumeTrue(host >= 1L << 30, "the host has at least 1 GiB");
    Files.writeString(v2.resolve("memory.max"), "max\n");
    assertThat(sizing(v2, "")).as("no limit: the host's memory")
        .isEqualTo("-XX:+UseParallelGC -Xmn64m -Xmx256m -XX:MaxDirectMemorySize=64m");
    Files.writeString(v2.resolve("memory.max"), "1073741824\n");
    assertThat(sizing(v2, "")).isEqualTo("-XX:+UseParallelGC -Xmn64m -Xmx256m -XX:MaxDirectMemorySize=64m");
    Files.writeString(v2.resolve("memory.max"), "536870912\n");
    assertThat(sizing(v2, "")).isEqualTo("-XX:+UseParallelGC -Xmn32m -Xmx128m -XX:MaxDirectMemorySize=32m");
    Files.writeString(v2.resolve("memory.max"), "134217728\n");
    assertThat(sizing(v2, "")).as("at least 64 MiB").isEqualTo("-XX:+UseParallelGC -Xmn16m -Xmx64m -XX:MaxDirectMemorySize=16m");
    assertThat(sizing(v2, "-Xmx1g")).as("a heap named in MIRA_JAVA_OPTS wins").isEqualTo("-XX:+UseParallelGC -Xmn64m");
    assertThat(sizing(v2, "-XX:MaxRAMPercentage=10")).isEqualTo("-XX:+UseParallelGC -Xmn64m");
    assertThat(sizing(v2, "-XX:+UseZGC")).as("another collector sizes its own young generation")
        .isEqualTo("-Xmx64m -XX:MaxDirectMemorySize=16m");

    Path v1 = Files.createDirectories(cwd.resolve("v1/memory"));
    Files.writeString(v1.resolve("memory.limit_in_bytes"), "805306368\n");
    assertThat(sizing(v1.getParent(), "")).as("cgroup v1").isEqualTo("-XX:+UseParallelGC -Xmn48m -Xmx192m -XX:MaxDirectMemorySize=48m");
    Files.writeString(v1.resolve("memory.limit_in_bytes"), "9223372036854771712\n");
    assertThat(sizing(v1.getParent(), "")).as("cgroup v1 without a limit")
        .isEqualTo("-XX:+UseParallelGC -Xmn64m -Xmx256m -XX:MaxDirectMemorySize=64m");
  }

  @Test
  void theImageStoresAnExportInABlock() throws Exception {
    try (Launched m = Launched.start(cwd, serve())) {
      int[] ports = m.awaitListening(START);
      String body = "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\"1767225600000000000\","
          + "\"body\":{\"stringValue\":\"stored by the image\"}}]}]}]}";
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports[1] + "/v1/logs"))
          .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      assertThat(r.body()).isEqualTo("{}");
      m.terminate();
      assertThat(m.awaitExit(Duration.ofSeconds(15))).isZero();
      try (var files = Files.walk(cwd.resolve("data/logs"))) {
        assertThat(files.filter(p -> p.getFileName().toString().equals("logs.arrow"))
            .filter(p -> !p.toString().contains(".staging"))).hasSize(1);
      }
      assertThat(m.stderr()).doesNotContain("Exception");
    }
  }

  @Test
  void sigtermStopsTheServerCleanly() throws Exception {
    try (Launched m = Launched.start(cwd, serve())) {
      int[] ports = m.awaitListening(START);
      assertThat(get(ports[1], "/readyz").statusCode()).isEqualTo(200);
      m.terminate();
      assertThat(m.awaitExit(Duration.ofSeconds(15))).isZero();
      assertThat(m.stderr()).contains("stopping");
    }
  }

  @Test
  void sighupReloadsTheRulesFile() throws Exception {
    Path rules = cwd.resolve("rules.kyaml");
    Files.writeString(rules, "{rules: [{name: \"first\", query: {signal: \"logs\"}, over: \"1m\", above: \"1\"}]}\n");
    Path cfg = cwd.resolve("mira.yaml");
    Files.writeString(cfg, "{alert: {rules: \"" + rules + "\"}}\n");
    try (Launched m = Launched.start(cwd, serve("--config", cfg.toString()))) {
      int[] ports = m.awaitListening(START);
      assertThat(get(ports[1], "/api/v1/alerts").body()).contains("\"name\":\"first\"");
      Files.writeString(rules, "{rules: [{name: \"second\", query: {signal: \"traces\"}, over: \"1m\", below: \"1\"}]}\n");
      m.hangup();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      String body = "";
      while (System.nanoTime() < deadline && !(body = get(ports[1], "/api/v1/alerts").body()).contains("\"second\"")) {
        Thread.sleep(100);
      }
      assertThat(body).contains("\"name\":\"second\"").doesNotContain("\"first\"");
      assertThat(m.process.isAlive()).as("SIGHUP does not stop the process").isTrue();
    }
  }

  @Test
  void aBadRulesFileRefusesTheStart() throws Exception {
    Path rules = cwd.resolve("rules.kyaml");
    Files.writeString(rules, "{rules: [{name: \"r\", query: {signal: \"logs\", limit: \"5\"}, over: \"1m\", above: \"1\"}]}\n");
    Path cfg = cwd.resolve("mira.yaml");
    Files.writeString(cfg, "{alert: {rules: \"" + rules + "\"}}\n");
    try (Launched m = Launched.start(cwd, serve("--config", cfg.toString()))) {
      assertThat(m.awaitExit(START)).isEqualTo(1);
      assertThat(m.stderr()).contains("mira: alert.rules: " + rules + ":1:").contains("rule \"r\": query: limit is not allowed");
    }
  }

  @Test
  void aTakenHttpPortExitsNonZeroNamingTheAddress() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      String addr = "127.0.0.1:" + taken.getLocalPort();
      try (Launched m = Launched.start(cwd, "serve", "--grpc-listen", "127.0.0.1:0", "--http-listen", addr)) {
        assertThat(m.awaitExit(START)).isNotZero();
        assertThat(m.stderr()).contains("mira: cannot bind HTTP listen address " + addr);
        assertThat(m.stderr()).doesNotContain(" listening ");
      }
    }
  }

  @Test
  void aTakenGrpcPortExitsNonZeroNamingTheAddress() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      String addr = "127.0.0.1:" + taken.getLocalPort();
      try (Launched m = Launched.start(cwd, "serve", "--grpc-listen", addr, "--http-listen", "127.0.0.1:0")) {
        assertThat(m.awaitExit(START)).isNotZero();
        assertThat(m.stderr()).contains("mira: cannot bind gRPC listen address " + addr);
      }
    }
  }

  @Test
  void anUnwritableDataDirectoryIsRefused() throws Exception {
    Path ro = cwd.resolve("ro");
    Files.createDirectories(ro);
    boolean mounted = ReadOnlyMount.tryMount(ro);
    if (!mounted) {
      assumeTrue(!ReadOnlyMount.isRoot(), "cannot mount a read-only filesystem here and root ignores permissions");
      assertThat(ro.toFile().setWritable(false, false)).isTrue();
    }
    try (Launched m = Launched.start(cwd, serve("--data-dir", ro.toString()))) {
      assertThat(m.awaitExit(START)).isNotZero();
      assertThat(m.stderr()).contains("mira: data directory " + ro.toRealPath() + " is not writable");
    } finally {
      if (mounted) {
        ReadOnlyMount.unmount(ro);
      } else {
        ro.toFile().setWritable(true, false);
      }
    }
  }

  @Test
  void aDataDirectoryThatCannotBeCreatedIsRefused() throws Exception {
    Path file = cwd.resolve("a-file");
    Files.writeString(file, "x");
    try (Launched m = Launched.start(cwd, serve("--data-dir", file.resolve("data").toString()))) {
      assertThat(m.awaitExit(START)).isNotZero();
      assertThat(m.stderr()).contains("mira: data directory " + file.resolve("data") + " cannot be created");
    }
  }

  @Test
  void anUnquotedConfigValueIsRefusedNamingTheKey() throws Exception {
    Path cfg = cwd.resolve("mira.yaml");
    Files.writeString(cfg, "{ingest: {shards: 4}}\n");
    try (Launched m = Launched.start(cwd, serve("--config", cfg.toString()))) {
      assertThat(m.awaitExit(START)).isEqualTo(1);
      assertThat(m.stderr()).contains("ingest.shards").contains("double-quoted");
    }
  }

  @Test
  void theConfigFileIsReadAndFlagsOverrideIt() throws Exception {
    Path cfg = cwd.resolve("mira.yaml");
    Files.writeString(cfg, "{node: \"from-file\", data_dir: \"file-data\", listen: {grpc: \"127.0.0.1:1\", http: \"127.0.0.1:2\"},}\n");
    try (Launched m = Launched.start(cwd, serve("--config", cfg.toString()))) {
      int[] ports = m.awaitListening(START);
      assertThat(get(ports[1], "/readyz").statusCode()).isEqualTo(200);
      assertThat(m.stderr()).contains("node=from-file");
      assertThat(cwd.resolve("file-data")).isDirectory();
    }
  }

  @Test
  void versionAndHelpExitZero() throws Exception {
    try (Launched m = Launched.start(cwd, "version")) {
      assertThat(m.awaitExit(START)).isZero();
      assertThat(m.stdout()).startsWith("mira ").doesNotContain("unknown");
    }
    try (Launched m = Launched.start(cwd, "--help")) {
      assertThat(m.awaitExit(START)).isZero();
      assertThat(m.stdout()).contains("mira serve").contains("--data-dir").contains("--grpc-listen");
    }
  }

  @Test
  void anUnknownFlagIsAUsageError() throws Exception {
    try (Launched m = Launched.start(cwd, "serve", "--dataa-dir", "x")) {
      assertThat(m.awaitExit(START)).isEqualTo(2);
      assertThat(m.stderr()).contains("unknown flag --dataa-dir");
    }
  }

  @Test
  void theImageCarriesOnlyTheRuntimeItNeeds() throws Exception {
    Path release = Launched.image().resolve("runtime/release");
    String modules = Files.readAllLines(release).stream().filter(l -> l.startsWith("MODULES=")).findFirst().orElseThrow();
    assertThat(modules).contains("java.base").doesNotContain("java.desktop").doesNotContain("jdk.compiler");
    assertThat(Launched.image().resolve("conf/jvm.options")).content().contains("--add-opens=java.base/java.nio=");
  }

  private static boolean free(int port) {
    try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
