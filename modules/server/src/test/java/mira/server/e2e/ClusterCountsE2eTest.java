package mira.server.e2e;

import static mira.server.e2e.ClusterE2eTest.freePort;
import static mira.server.e2e.ClusterE2eTest.node;
import static mira.server.e2e.QueryApiTest.map;
import static mira.server.e2e.QueryApiTest.obj;
import static mira.server.e2e.QueryApiTest.parse;
import static mira.server.e2e.QueryApiTest.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.helidon.webserver.WebServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import mira.client.ResultReader;
import mira.query.result.EntityList;
import mira.query.result.FacetList;
import mira.query.result.Value;
import mira.server.config.Config;
import mira.server.config.ConfigLoader;
import mira.server.config.Key;
import mira.server.launch.Running;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counts through the cluster: facets whose top values differ per node, resources without identity
 * that several nodes saw, and an alert rule on one replica that counts every node's records and
 * says so when a node stops answering. Real nodes on loopback, the OpenTelemetry SDK sending.
 */
class ClusterCountsE2eTest {
  @TempDir Path dir;

  /** {@code n} log records with {@code route}, under {@code resource}. */
  static void logs(Node to, Resource resource, String route, int n) {
    SdkLoggerProvider l = SdkLoggerProvider.builder().setResource(resource).addLogRecordProcessor(
        BatchLogRecordProcessor.builder(OtlpHttpLogRecordExporter.builder().setEndpoint(to.http() + "/v1/logs").build())
            .build()).build();
    for (int i = 0; i < n; i++) {
      l.get("cluster-counts").logRecordBuilder().setBody("req " + route + " " + i)
          .setAttribute(AttributeKey.stringKey("route"), route).emit();
    }
    assertThat(l.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
    l.shutdown().join(10, TimeUnit.SECONDS);
  }

  static Resource service(String name) {
    return Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), name,
        AttributeKey.stringKey("service.instance.id"), name + "-1"));
  }

  @Test
  void facetsAndResourcesWithoutIdentityAreCountedOnceAcrossNodes() throws Exception {
    int[] ports = {freePort(), freePort(), freePort()};
    String peers = "127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1] + ",127.0.0.1:" + ports[2];
    List<Node> nodes = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        nodes.add(node(dir.resolve("n" + i), "n" + i, ports[i], peers));
      }
      // Each node's own top two differ from the cluster's: /a 5+0+1, /b 4+4+1, /c 0+5+3.
      Resource api = service("api");
      logs(nodes.get(0), api, "/a", 5);
      logs(nodes.get(0), api, "/b", 4);
      logs(nodes.get(1), api, "/b", 4);
      logs(nodes.get(1), api, "/c", 5);
      logs(nodes.get(2), api, "/c", 3);
      logs(nodes.get(2), api, "/a", 1);
      logs(nodes.get(2), api, "/b", 1);
      // One resource without identity, seen by two nodes.
      Resource anonymous = Resource.create(Attributes.of(AttributeKey.stringKey("team"), "payments"));
      logs(nodes.get(0), anonymous, "/z", 2);
      logs(nodes.get(1), anonymous, "/z", 3);

      String doc = "{\"signal\": \"logs\", \"from\": \"-1h\", \"keys\": [\"route\", \"absent.key\"], \"limit\": 2, "
          + "\"q\": \"service.name=api\"}";
      for (Node at : nodes) {
        HttpExchange x = post(at, "/api/v1/facets", doc);
        assertThat(x.status()).isEqualTo(200);
        assertThat(map(obj(x).get("cluster"))).containsEntry("answered", 3L).containsEntry("partial", false);
        FacetList f = ResultReader.facets(x.body());
        assertThat(f.records()).isEqualTo(23);
        assertThat(f.missing()).containsExactly("absent.key");
        assertThat(f.facets()).singleElement().satisfies(route -> {
          assertThat(route.key()).isEqualTo("route");
          assertThat(route.level()).isEqualTo("record");
          assertThat(route.count()).isEqualTo(23);
          assertThat(route.distinct()).isEqualTo(3);
          assertThat(route.values()).containsExactly(new FacetList.ValueCount(new Value.Str("/b"), 9),
              new FacetList.ValueCount(new Value.Str("/c"), 8));
          assertThat(route.other()).isEqualTo(6);
        });
      }

      for (Node at : nodes) {
        EntityList e = ResultReader.entities(post(at, "/api/v1/entities", "{\"from\": \"-1h\"}").body());
        assertThat(e.entities()).extracting(EntityList.Entity::serviceName).containsExactly("api");
        assertThat(e.entities().getFirst().logs()).isEqualTo(23);
        assertThat(e.noIdentity().resources()).as("one resource seen by two nodes").isEqualTo(1);
        assertThat(e.noIdentity().records()).isEqualTo(5);
      }
    } finally {
      for (Node n : nodes) {
        n.close();
      }
    }
  }

  static final String RULES = """
      {rules: [{name: "checkout-errors", query: {signal: "logs", q: "service.name=checkout"},
                over: "1h", every: "1s", above: "5", targets: ["hook"]}],
       targets: [{name: "hook", webhook: "%s"}]}
      """;

  @Test
  void anAlertRuleCountsEveryNodeAndSaysWhenOneIsMissing() throws Exception {
    LinkedBlockingQueue<Map<String, Object>> received = new LinkedBlockingQueue<>();
    WebServer hook = WebServer.builder().host("127.0.0.1").port(0).routing(r -> r.post("/hook", (req, res) -> {
      received.add(map(parse(req.content().as(byte[].class))));
      res.send("ok");
    })).build().start();
    Path rules = Files.writeString(dir.resolve("rules.kyaml"), RULES.formatted("http://127.0.0.1:" + hook.port() + "/hook"));
    int[] ports = {freePort(), freePort()};
    String peers = "127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1];
    Node b = node(dir.resolve("b"), "b", ports[1], peers);
    boolean bStopped = false;
    EnumMap<Key, String> flags = new EnumMap<>(Key.class);
    flags.put(Key.LISTEN_GRPC, "127.0.0.1:0");
    flags.put(Key.LISTEN_HTTP, "127.0.0.1:" + ports[0]);
    flags.put(Key.DATA_DIR, dir.resolve("a").toString());
    flags.put(Key.NODE, "a");
    flags.put(Key.INGEST_WAL, "false");
    flags.put(Key.CLUSTER_PEERS, peers);
    flags.put(Key.CLUSTER_TIMEOUT, "2s");
    flags.put(Key.ALERT_RULES, rules.toString());
    Config c = ConfigLoader.load(Optional.empty(), flags, 2);
    try (Running a = Running.start(c, Path.of("/proc/self/mountinfo"))) {
      String http = "http://127.0.0.1:" + a.server().httpPort();
      // Four records on each node: over the line (5) only when both are counted.
      SdkLoggerProvider toA = SdkLoggerProvider.builder().setResource(service("checkout")).addLogRecordProcessor(
          BatchLogRecordProcessor.builder(OtlpHttpLogRecordExporter.builder().setEndpoint(http + "/v1/logs").build())
              .build()).build();
      for (int i = 0; i < 4; i++) {
        toA.get("c").logRecordBuilder().setBody("declined " + i).emit();
      }
      assertThat(toA.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
      toA.shutdown().join(10, TimeUnit.SECONDS);
      logs(b, service("checkout"), "/pay", 4);

      Map<String, Object> firing = received.poll(20, TimeUnit.SECONDS);
      assertThat(firing).as("the webhook was told").isNotNull();
      assertThat(firing).containsEntry("state", "firing").containsEntry("value", 8L).containsEntry("partial", null);

      // b stops: the next evaluations count a's four alone, resolve, and say that b is missing.
      b.close();
      bStopped = true;
      Map<String, Object> resolved = received.poll(20, TimeUnit.SECONDS);
      assertThat(resolved).as("the resolve was sent").isNotNull();
      assertThat(resolved).containsEntry("state", "resolved").containsEntry("value", 4L);
      assertThat((String) resolved.get("partial")).startsWith("1 of 2 nodes answered (").contains("127.0.0.1:" + ports[1]);
      assertThat((String) resolved.get("summary")).contains("PARTIAL: 1 of 2 nodes answered");
      Map<String, Object> rule = map(((List<?>) map(parse(HttpExchange.send("GET", http + "/api/v1/alerts", Map.of(),
          null, false).body())).get("alerts")).getFirst());
      assertThat((String) rule.get("partial")).startsWith("1 of 2 nodes answered (");
    } finally {
      if (!bStopped) {
        b.close();
      }
      hook.stop();
    }
  }
}
