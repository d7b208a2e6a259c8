package mira.image;

import static mira.image.Manifests.at;
import static mira.image.Manifests.list;
import static mira.image.Manifests.map;
import static mira.image.Manifests.quantity;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mira.server.config.Config;
import mira.server.config.ConfigLoader;
import mira.server.config.Key;
import mira.server.launch.Running;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parses every manifest in {@code k8s/} and holds it to the server it deploys: the container ports
 * are the config's listen ports, every probe path answers 200 from a real node, the config's data
 * directory is on the replica's volume, the peer list names the headless Service, and the pod is
 * non-root on a read-only root with bounded resources and a heap that fits its memory limit.
 */
class KubernetesManifestsTest {
  private static final String CONFIG_KEY = "mira.yaml";
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static Manifests k8s;
  private static Map<String, Object> set;
  private static Map<String, Object> pod;
  private static Map<String, Object> container;
  private static String configText;
  private static Config config;

  @TempDir static Path tmp;

  @BeforeAll
  static void load() throws Exception {
    k8s = Manifests.load();
    set = k8s.only("StatefulSet");
    pod = map(set, "spec", "template", "spec");
    List<Map<String, Object>> containers = list(pod, "containers");
    assertThat(containers).hasSize(1);
    container = containers.getFirst();
    configText = (String) at(configMap(), "data", CONFIG_KEY);
    assertThat(configText).as("ConfigMap data %s", CONFIG_KEY).isNotBlank();
    config = ConfigLoader.load(Optional.of(configFile()), Map.of(), 2);
  }

  /** The ConfigMap the container's config volume comes from. */
  private static Map<String, Object> configMap() {
    Map<String, Object> volume = volume(mountAt(configPath().getParent().toString()));
    return k8s.get("ConfigMap", (String) at(volume, "configMap", "name"));
  }

  /** The {@code --config} the container is started with. */
  private static Path configPath() {
    List<String> args = args();
    int i = args.indexOf("--config");
    assertThat(i).as("--config in %s", args).isNotNegative();
    return Path.of(args.get(i + 1));
  }

  @SuppressWarnings("unchecked")
  private static List<String> args() {
    return (List<String>) container.get("args");
  }

  /** The ConfigMap's file as the node reads it: the real loader checks all of it. */
  private static Path configFile() throws Exception {
    String text = configText;
    Path f = tmp.resolve(CONFIG_KEY);
    Files.writeString(f, text);
    return f;
  }

  private static Map<String, Object> mountAt(String path) {
    return list(container, "volumeMounts").stream().filter(m -> path.equals(m.get("mountPath"))).findFirst()
        .orElseThrow(() -> new AssertionError("no volume is mounted at " + path));
  }

  private static Map<String, Object> volume(Map<String, Object> mount) {
    return list(pod, "volumes").stream().filter(v -> mount.get("name").equals(v.get("name"))).findFirst()
        .orElseThrow(() -> new AssertionError("no pod volume named " + mount.get("name")));
  }

  private static int containerPort(String name) {
    return list(container, "ports").stream().filter(p -> name.equals(p.get("name")))
        .map(p -> (Integer) p.get("containerPort")).findFirst()
        .orElseThrow(() -> new AssertionError("no container port named " + name));
  }

  @Test
  void everyManifestIsAKubernetesObjectWithAName() {
    assertThat(k8s.objects).isNotEmpty();
    for (Map<String, Object> o : k8s.objects) {
      assertThat(o).containsKeys("apiVersion", "kind");
      assertThat(at(o, "metadata", "name")).as("metadata.name of a %s", o.get("kind")).isInstanceOf(String.class);
    }
    assertThat(k8s.objects.stream().map(o -> (String) o.get("kind")))
        .contains("StatefulSet", "Service", "ConfigMap", "PodDisruptionBudget");
  }

  @Test
  void theContainerPortsAreTheConfigsListenPortsOnAllInterfaces() {
    assertThat(args()).first().isEqualTo("serve");
    // A flag would override the file; the args leave the listen addresses to the config.
    assertThat(args()).doesNotContain("--grpc-listen", "--http-listen", "--data-dir");
    assertThat(containerPort("otlp-grpc")).isEqualTo(config.grpcListen().port()).isEqualTo(4317);
    assertThat(containerPort("http")).isEqualTo(config.httpListen().port()).isEqualTo(4318);
    // The kubelet probes and the peers connect to the pod's address, not to loopback.
    assertThat(config.grpcListen().host()).isIn("0.0.0.0", "", "::");
    assertThat(config.httpListen().host()).isIn("0.0.0.0", "", "::");
    List<Object> named = list(container, "ports").stream().map(p -> p.get("name")).toList();
    for (Map<String, Object> svc : k8s.all("Service")) {
      for (Map<String, Object> p : list(svc, "spec", "ports")) {
        assertThat(named).as("service %s targets a port of the container", at(svc, "metadata", "name"))
            .contains(p.get("targetPort"));
        assertThat(p.get("port")).isEqualTo(containerPort((String) p.get("targetPort")));
      }
    }
  }

  @Test
  void everyProbeAnswers200FromARealNodeOnTheHttpPort() throws Exception {
    List<String> paths = new ArrayList<>();
    for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
      Map<String, Object> get = map(container, probe, "httpGet");
      assertThat(get.get("port")).as(probe).isEqualTo("http");
      paths.add((String) get.get("path"));
    }
    assertThat(paths.get(1)).isEqualTo("/readyz");
    assertThat(paths.get(2)).isEqualTo("/health");
    Config local = ConfigLoader.load(Optional.of(configFile()), Map.of(Key.LISTEN_GRPC, "127.0.0.1:0",
        Key.LISTEN_HTTP, "127.0.0.1:0", Key.DATA_DIR, tmp.resolve("data").toString(), Key.NODE, "mira-0"), 2);
    try (Running node = Running.start(local, Path.of("/proc/self/mountinfo"))) {
      for (String path : paths) {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + node.server().httpPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET %s", path).isEqualTo(200);
      }
    }
  }

  @Test
  void theDataDirectoryIsOnTheReplicasOwnVolume() {
    List<Map<String, Object>> claims = list(set, "spec", "volumeClaimTemplates");
    assertThat(claims).hasSize(1);
    Map<String, Object> claim = claims.getFirst();
    assertThat(list(claim, "spec", "accessModes")).asList().containsExactly("ReadWriteOnce");
    assertThat(at(claim, "spec", "resources", "requests", "storage")).isNotNull();
    Map<String, Object> mount = list(container, "volumeMounts").stream()
        .filter(m -> at(claim, "metadata", "name").equals(m.get("name"))).findFirst().orElseThrow();
    assertThat(config.dataDir()).isAbsolute().startsWithRaw(Path.of((String) mount.get("mountPath")));
    assertThat(config.dataDir()).as("a subdirectory, so a filesystem's lost+found is not in the data directory")
        .isNotEqualTo(Path.of((String) mount.get("mountPath")));
    assertThat(at(set, "spec", "podManagementPolicy")).isEqualTo("Parallel");
  }

  @Test
  void theHeadlessServiceSelectsTheStatefulSetsPodsAndIsThePeerList() {
    String headless = (String) at(set, "spec", "serviceName");
    Map<String, Object> svc = k8s.get("Service", headless);
    assertThat(at(svc, "spec", "clusterIP")).isEqualTo("None");
    Map<String, Object> labels = map(set, "spec", "template", "metadata", "labels");
    assertThat(labels).containsAllEntriesOf(map(svc, "spec", "selector"));
    assertThat(labels).containsAllEntriesOf(map(set, "spec", "selector", "matchLabels"));
    for (Map<String, Object> other : k8s.all("Service")) {
      assertThat(labels).containsAllEntriesOf(map(other, "spec", "selector"));
    }
    assertThat(labels).containsAllEntriesOf(map(k8s.only("PodDisruptionBudget"), "spec", "selector", "matchLabels"));

    assertThat(config.clusterPeers()).isEqualTo("dns:" + headless + ":" + config.httpListen().port());
    assertThat(config.clusterTimeout()).isPositive();
    assertThat(list(svc, "spec", "ports").stream().map(p -> p.get("port")))
        .contains(config.httpListen().port());
  }

  @Test
  void thePodRunsAsTheImagesNonRootUserOnAReadOnlyRoot() throws Exception {
    Map<String, Object> podSec = map(pod, "securityContext");
    Map<String, Object> sec = map(container, "securityContext");
    assertThat(podSec.get("runAsNonRoot")).isEqualTo(true);
    assertThat(sec.get("readOnlyRootFilesystem")).isEqualTo(true);
    assertThat(sec.get("allowPrivilegeEscalation")).isEqualTo(false);
    Matcher user = Pattern.compile("(?m)^USER (\\d+):(\\d+)$")
        .matcher(Files.readString(Manifests.dir().resolveSibling("jlink/Containerfile")));
    assertThat(user.find()).as("the Containerfile names a numeric USER").isTrue();
    assertThat(podSec.get("runAsUser")).isEqualTo(Integer.parseInt(user.group(1))).isNotEqualTo(0);
    assertThat(podSec.get("runAsGroup")).isEqualTo(Integer.parseInt(user.group(2)));
    // The volume's files are the user's group's, so the data directory is writable.
    assertThat(podSec.get("fsGroup")).isEqualTo(podSec.get("runAsGroup"));
    // zstd-jni unpacks its native library into java.io.tmpdir: /tmp must be writable.
    assertThat(volume(mountAt("/tmp"))).containsKey("emptyDir");
  }

  @Test
  void resourcesAreBoundedAndTheHeapIsSizedFromTheMemoryLimit() {
    Map<String, Object> requests = map(container, "resources", "requests");
    Map<String, Object> limits = map(container, "resources", "limits");
    assertThat(quantity(requests.get("cpu"), false)).isPositive().isLessThanOrEqualTo(quantity(limits.get("cpu"), false));
    long memory = quantity(limits.get("memory"), true);
    // Memory requested is memory limited: a replica is never killed for using what it was given.
    assertThat(quantity(requests.get("memory"), true)).isEqualTo(memory);
    String opts = list(container, "env").stream().filter(e -> "JDK_JAVA_OPTIONS".equals(e.get("name")))
        .map(e -> (String) e.get("value")).findFirst().orElseThrow();
    // The entrypoint names the parallel collector (the AOT cache's); the JVM refuses two collectors.
    assertThat(opts).doesNotContain("GC");
    Matcher pct = Pattern.compile("-XX:MaxRAMPercentage=(\\d+(?:\\.\\d+)?)").matcher(opts);
    assertThat(pct.find()).as("the heap is a share of the limit: %s", opts).isTrue();
    long heap = (long) (memory * Double.parseDouble(pct.group(1)) / 100);
    assertThat(heap).as("heap").isGreaterThanOrEqualTo(1L << 30);
    // What the process holds beside the heap: a soak with a 1 GiB heap peaked at 1.23 GiB resident.
    assertThat(memory - heap).as("memory beside the heap").isGreaterThanOrEqualTo(768L << 20);
  }

  @Test
  void theGracePeriodLeavesTheSealOnSigtermItsBudget() {
    int grace = (Integer) at(pod, "terminationGracePeriodSeconds");
    assertThat(Duration.ofSeconds(grace)).isGreaterThanOrEqualTo(Running.SHUTDOWN_BUDGET.multipliedBy(2));
  }
}
