package mira.image;

import static mira.image.Manifests.at;
import static mira.image.Manifests.list;
import static mira.image.Manifests.map;
import static mira.image.Manifests.quantity;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Builds the OCI image with podman (jlink/oci-image.sh: an mmdebstrap base, the AOT cache made
 * under chroot, no RUN step), exports the built image's root filesystem from a container that is
 * created but never started (this machine's runtime refuses to run containers), and starts the
 * image's own entrypoint under chroot the way the StatefulSet runs it: as the image's user, on a
 * read-only root with a writable /tmp and the data volume, with the AOT cache required.
 */
class OciImageIT {
  private static final String TAG = "localhost/mira:it";
  private static final Duration BUILD = Duration.ofMinutes(10);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final Path REPO = Path.of(System.getProperty("mira.repo", "..")).toAbsolutePath().normalize();
  private static final Path WORK = REPO.resolve("jlink/target/oci");
  private static final Path PODMAN = REPO.resolve("jlink/target/podman");

  @TempDir Path tmp;

  @Test
  void theBuiltImageStartsItsEntrypointToReadyOnAReadOnlyRootAsItsUser() throws Exception {
    assumeTrue(ReadOnlyMount.isRoot(), "skipped: building the image (mmdebstrap, chroot, mount) needs root");
    List<String> missing = Stream.of("podman", "mmdebstrap", "unshare", "tar").filter(t -> !onPath(t)).toList();
    assumeTrue(missing.isEmpty(), "skipped: " + missing + " not installed (.ci/run installs podman and mmdebstrap)");

    long t0 = System.nanoTime();
    run(BUILD, List.of("sh", REPO.resolve("jlink/oci-image.sh").toString(), Launched.image().toAbsolutePath().toString(),
        WORK.toString(), TAG));
    long built = System.nanoTime();

    Map<String, Object> image = inspect();
    long size = Long.parseLong(podman("image", "inspect", "--format", "{{.Size}}", TAG).strip());
    Path rootfs = export();
    // Each build leaves the previous image untagged; the store under target keeps only this one.
    podman("image", "prune", "--force");
    long exported = System.nanoTime();
    System.out.printf("image %s: %d bytes; build %d ms, export %d ms%n", TAG, size,
        (built - t0) / 1_000_000, (exported - built) / 1_000_000);

    // The distroless shape: no shell, and no program but the runtime's.
    try (Stream<Path> files = Files.walk(rootfs)) {
      assertThat(files.map(p -> p.getFileName() == null ? "" : p.getFileName().toString()))
          .doesNotContain("sh", "bash", "dash", "busybox", "apt", "dpkg");
    }
    assertThat(rootfs.resolve("opt/mira/lib/mira.aot")).isRegularFile();
    assertThat(size).as("image bytes").isLessThan(200L << 20);

    String user = (String) image.get("User");
    String workDir = (String) image.get("WorkingDir");
    Map<String, String> env = env(image);
    @SuppressWarnings("unchecked")
    List<String> entrypoint = (List<String>) image.get("Entrypoint");
    assertThat(user).matches("[1-9][0-9]*:[0-9]+");

    Path data = Files.createDirectory(tmp.resolve("volume"));
    run(Duration.ofSeconds(10), List.of("chown", user, data.toString()));
    List<String> cmd = new ArrayList<>(List.of("sh", REPO.resolve("jlink/in-root.sh").toString(), "--read-only",
        "--user", user, "--wd", workDir, "--bind", data + ":" + workDir));
    Map<String, String> passed = new LinkedHashMap<>(env);
    // AOTMode=on: the JVM refuses to start if the cache the image carries cannot be used there.
    passed.put("JDK_JAVA_OPTIONS", env.getOrDefault("JDK_JAVA_OPTIONS", "") + " -XX:AOTMode=on");
    for (String name : passed.keySet()) {
      cmd.addAll(List.of("--env", name));
    }
    cmd.add(rootfs.toString());
    cmd.addAll(entrypoint);
    cmd.addAll(List.of("serve", "--grpc-listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0", "--node", "mira-0"));

    try (Launched m = Launched.command(tmp, passed, cmd)) {
      int[] ports = m.awaitListening(Duration.ofSeconds(60));
      long ready = System.nanoTime();
      assertThat(get(ports[1], "/readyz").statusCode()).isEqualTo(200);
      assertThat(get(ports[1], "/health").statusCode()).isEqualTo(200);
      String body = "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\"1767225600000000000\","
          + "\"body\":{\"stringValue\":\"stored by the container image\"}}]}]}]}";
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports[1] + "/v1/logs"))
          .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      m.terminate();
      assertThat(m.awaitExit(Duration.ofSeconds(30))).as(m.stderr()).isZero();
      System.out.printf("entrypoint listening %d ms after the export%n", (ready - exported) / 1_000_000);
      assertThat(m.stderr()).contains("stopped").doesNotContain("[error][aot]").doesNotContain("Exception");
      try (Stream<Path> files = Files.walk(data.resolve("data/logs"))) {
        assertThat(files.filter(p -> p.getFileName().toString().equals("logs.arrow"))
            .filter(p -> !p.toString().contains(".staging"))).hasSize(1);
      }
    }
    theManifestsMemoryLimitSizesTheHeap(rootfs);
  }

  /** The StatefulSet's memory limit and JDK_JAVA_OPTIONS give the image's runtime the heap they promise. */
  private static void theManifestsMemoryLimitSizesTheHeap(Path rootfs) throws Exception {
    Map<String, Object> container = list(map(Manifests.load().only("StatefulSet"), "spec", "template", "spec"),
        "containers").getFirst();
    long limit = quantity(at(container, "resources", "limits", "memory"), true);
    String opts = list(container, "env").stream().filter(e -> "JDK_JAVA_OPTIONS".equals(e.get("name")))
        .map(e -> (String) e.get("value")).findFirst().orElseThrow();
    Matcher pct = Pattern.compile("-XX:MaxRAMPercentage=(\\d+)").matcher(opts);
    assertThat(pct.find()).isTrue();
    // MaxRAM stands in for the cgroup limit a container has and a chroot does not.
    String flags = run(Duration.ofSeconds(30), List.of("sh", REPO.resolve("jlink/in-root.sh").toString(), "--env",
        "JDK_JAVA_OPTIONS", rootfs.toString(), "/opt/mira/runtime/bin/java", "-XX:MaxRAM=" + limit,
        "-XX:+UseParallelGC", "-XX:+PrintFlagsFinal", "-version"), Map.of("JDK_JAVA_OPTIONS", opts));
    Matcher heap = Pattern.compile("size_t MaxHeapSize\\s+=\\s+(\\d+)").matcher(flags);
    assertThat(heap.find()).as(flags).isTrue();
    assertThat(Long.parseLong(heap.group(1))).isEqualTo(limit * Integer.parseInt(pct.group(1)) / 100);
  }

  private static Map<String, Object> inspect() throws Exception {
    @SuppressWarnings("unchecked")
    Map<String, Object> config = (Map<String, Object>) new Load(LoadSettings.builder().build())
        .loadFromString(podman("image", "inspect", "--format", "{{json .Config}}", TAG));
    return config;
  }

  private static Map<String, String> env(Map<String, Object> image) {
    Map<String, String> env = new LinkedHashMap<>();
    @SuppressWarnings("unchecked")
    List<String> list = (List<String>) image.getOrDefault("Env", List.of());
    for (String e : list) {
      int eq = e.indexOf('=');
      env.put(e.substring(0, eq), e.substring(eq + 1));
    }
    return env;
  }

  /** The image's root filesystem, from a container created (never started) and exported. */
  private static Path export() throws Exception {
    String id = podman("create", TAG).strip();
    Path tar = WORK.resolve("rootfs.tar");
    try {
      podman("export", "--output", tar.toString(), id);
    } finally {
      podman("rm", id);
    }
    Path rootfs = WORK.resolve("exported");
    Files.createDirectories(rootfs);
    run(Duration.ofMinutes(2), List.of("tar", "-xf", tar.toString(), "-C", rootfs.toString()));
    Files.delete(tar);
    return rootfs;
  }

  private static String podman(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("podman", "--storage-driver", "vfs"));
    cmd.addAll(storage());
    cmd.addAll(List.of(args));
    return run(Duration.ofMinutes(2), cmd);
  }

  /** A store of the build's own under target, so nothing is left in the machine's. */
  private static List<String> storage() {
    return List.of("--root", PODMAN.resolve("root").toString(), "--runroot", PODMAN.resolve("run").toString());
  }

  private static String run(Duration timeout, List<String> cmd) throws Exception {
    return run(timeout, cmd, Map.of("MIRA_PODMAN_OPTS", String.join(" ", storage())));
  }

  private static String run(Duration timeout, List<String> cmd, Map<String, String> env) throws Exception {
    Path log = Files.createTempFile("oci-it", ".out");
    Path errLog = Files.createTempFile("oci-it", ".err");
    try {
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(log.toFile()).redirectError(errLog.toFile());
      pb.environment().putAll(env);
      Process p = pb.start();
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(cmd + " did not finish within " + timeout + ":\n" + Files.readString(errLog));
      }
      String out = Files.readString(log, StandardCharsets.UTF_8);
      String err = Files.readString(errLog, StandardCharsets.UTF_8);
      System.out.print(out.length() < 2000 ? out : "");
      System.out.print(tail(err));
      assertThat(p.exitValue()).as("%s:%n%s%n%s", cmd, tail(out), tail(err)).isZero();
      return out;
    } finally {
      Files.deleteIfExists(log);
      Files.deleteIfExists(errLog);
    }
  }

  private static String tail(String s) {
    return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
  }

  private static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static boolean onPath(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }
}
