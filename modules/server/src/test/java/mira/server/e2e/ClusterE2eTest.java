package mira.server.e2e;

import static mira.server.e2e.QueryApiTest.get;
import static mira.server.e2e.QueryApiTest.map;
import static mira.server.e2e.QueryApiTest.obj;
import static mira.server.e2e.QueryApiTest.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import mira.client.ResultReader;
import mira.cluster.Cluster;
import mira.cluster.Peers;
import mira.query.render.ResponseJson;
import mira.query.result.Row;
import mira.query.result.SearchResult;
import mira.query.result.ServiceList;
import mira.query.result.ServiceMap;
import mira.query.result.SpanRow;
import mira.query.result.TraceResult;
import mira.server.config.Key;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three real nodes on loopback, each with its own data directory and the same static peer list
 * (each node among its own peers, as a headless Service lists it). The OpenTelemetry SDK sends
 * each service to a different node and one trace's spans to two of them. Asked at any node, the
 * answers equal the union of what the nodes hold alone, and every answer names its sources; with
 * one node gone, answers are partial and name it.
 */
class ClusterE2eTest {
  @TempDir Path dir;

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  static Node node(Path data, String name, int port, String peers) throws Exception {
    return node(data, name, port, peers, Map.of());
  }

  static Node node(Path data, String name, int port, String peers, Map<Key, String> extra) throws Exception {
    EnumMap<Key, String> c = new EnumMap<>(Key.class);
    c.putAll(extra);
    c.put(Key.NODE, name);
    c.put(Key.LISTEN_HTTP, "127.0.0.1:" + port);
    c.put(Key.CLUSTER_PEERS, peers);
    c.put(Key.CLUSTER_TIMEOUT, "2s");
    return new Node(data, c);
  }

  static void logs(Node to, String service, int n) {
    Resource res = Resource.create(Attributes.builder().put("service.name", service)
        .put("service.instance.id", service + "-1").build());
    SdkLoggerProvider l = SdkLoggerProvider.builder().setResource(res).addLogRecordProcessor(
        BatchLogRecordProcessor.builder(OtlpHttpLogRecordExporter.builder().setEndpoint(to.http() + "/v1/logs").build())
            .build()).build();
    for (int i = 0; i < n; i++) {
      l.get("cluster-test").logRecordBuilder().setBody(service + " line " + i).emit();
    }
    assertThat(l.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
    l.shutdown().join(10, TimeUnit.SECONDS);
  }

  static SdkTracerProvider tracing(Node to, String service) {
    Resource res = Resource.create(Attributes.builder().put("service.name", service)
        .put("service.instance.id", service + "-1").build());
    return SdkTracerProvider.builder().setResource(res).addSpanProcessor(BatchSpanProcessor.builder(
        OtlpHttpSpanExporter.builder().setEndpoint(to.http() + "/v1/traces").build()).build()).build();
  }

  static Map<String, Object> cluster(HttpExchange x) throws IOException {
    return map(obj(x).get("cluster"));
  }

  @Test
  void anyNodeAnswersForTheWholeCluster() throws Exception {
    int[] ports = {freePort(), freePort(), freePort()};
    String peers = "127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1] + ",127.0.0.1:" + ports[2];
    List<Node> nodes = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        nodes.add(node(dir.resolve("n" + i), "n" + i, ports[i], peers));
      }
      logs(nodes.get(0), "alpha", 23);
      logs(nodes.get(1), "beta", 17);
      logs(nodes.get(2), "gamma", 11);
      // One trace, its client span on n0 and its server span on n1.
      SdkTracerProvider front = tracing(nodes.get(0), "front");
      SdkTracerProvider back = tracing(nodes.get(1), "back");
      Span call = front.get("t").spanBuilder("GET /cart").setSpanKind(SpanKind.CLIENT).startSpan();
      Span serve = back.get("t").spanBuilder("cart").setSpanKind(SpanKind.SERVER)
          .setParent(Context.root().with(call)).startSpan();
      serve.end();
      call.end();
      String traceId = call.getSpanContext().getTraceId();
      for (SdkTracerProvider t : List.of(front, back)) {
        assertThat(t.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
        t.shutdown().join(10, TimeUnit.SECONDS);
      }

      // The oracle: every node's own rows, asked of each node alone (a peer's question).
      Set<String> oracle = new HashSet<>();
      for (Node n : nodes) {
        for (Row r : n.queries.search("{\"signal\": \"logs\", \"limit\": 1000}".getBytes()).rows()) {
          oracle.add(((mira.query.result.LogRow) r).body().toString());
        }
      }
      assertThat(oracle).hasSize(51);

      for (Node at : nodes) {
        // Pages of 7 through the cluster: every row exactly once, newest first across pages.
        List<String> seen = new ArrayList<>();
        String after = null;
        long lastTime = Long.MAX_VALUE;
        int pages = 0;
        do {
          HttpExchange x = post(at, "/api/v1/query", "{\"signal\": \"logs\", \"limit\": 7"
              + (after == null ? "" : ", \"after\": \"" + after + "\"") + "}");
          assertThat(x.status()).isEqualTo(200);
          Map<String, Object> c = cluster(x);
          assertThat(c).containsEntry("asked", 3L).containsEntry("answered", 3L).containsEntry("partial", false);
          SearchResult page = ResultReader.search(x.body());
          for (Row r : page.rows()) {
            assertThat(r.time()).isLessThanOrEqualTo(lastTime);
            lastTime = r.time();
            seen.add(((mira.query.result.LogRow) r).body().toString());
          }
          after = page.next();
          pages++;
        } while (after != null && pages < 20);
        assertThat(seen).doesNotHaveDuplicates();
        assertThat(new HashSet<>(seen)).isEqualTo(oracle);

        // The page merged from the nodes' rendered rows is the page of the typed merge, rendered:
        // same rows in the same order, same next.
        String doc = "{\"signal\": \"logs\", \"limit\": 20}";
        Map<String, Object> spliced = obj(post(at, "/api/v1/query", doc));
        Cluster typed = new Cluster("n" + nodes.indexOf(at), at.queries, Peers.parse(peers), Duration.ofSeconds(10));
        Map<String, Object> rendered = map(QueryApiTest.parse(ResponseJson.search(typed.search(doc.getBytes()).result())));
        assertThat(QueryApiTest.rows(spliced)).hasSize(20).isEqualTo(QueryApiTest.rows(rendered));
        assertThat(spliced.get("next")).isNotNull().isEqualTo(rendered.get("next"));

        // The trace comes back whole although its spans are on two nodes.
        HttpExchange t = get(at, "/api/v1/traces/" + traceId);
        TraceResult trace = ResultReader.trace(t.body());
        assertThat(trace.spans()).extracting(SpanRow::name).containsExactlyInAnyOrder("GET /cart", "cart");
        // The compact shape is the merged trace rendered once more: each node's resource listed once.
        HttpExchange tc = get(at, "/api/v1/traces/" + traceId + "?shape=compact");
        assertThat(ResultReader.trace(tc.body()).spans()).isEqualTo(trace.spans());
        assertThat((List<?>) ((Map<?, ?>) QueryApiTest.parse(tc.body())).get("resources")).hasSize(2);

        // Services: every node's, counted once.
        ServiceList services = ResultReader.services(get(at, "/api/v1/services?from=-1h").body());
        assertThat(services.services()).extracting(ServiceList.Service::name)
            .containsExactly("alpha", "back", "beta", "front", "gamma");
        assertThat(services.services()).filteredOn(s -> s.name().equals("alpha")).singleElement()
            .satisfies(s -> assertThat(s.logs()).isEqualTo(23));

        // The map sees the call across nodes: the client span on n0, its server child on n1.
        ServiceMap m = ResultReader.map(post(at, "/api/v1/map", "{\"from\": \"-1h\"}").body());
        assertThat(m.edges()).anySatisfy(e -> {
          assertThat(e.from()).isEqualTo("front");
          assertThat(e.to()).isEqualTo("back");
          assertThat(e.calls()).isEqualTo(1);
        });
      }

      // Attribute keys: every node's, counted over all their records.
      mira.query.result.AttributeList keys = ResultReader.attributes(get(nodes.get(1),
          "/api/v1/attributes?signal=logs").body());
      assertThat(keys.records()).isEqualTo(51);
      assertThat(keys.keys()).filteredOn(k -> k.level().equals("resource") && k.key().equals("service.name"))
          .singleElement().satisfies(k -> assertThat(k.count()).isEqualTo(51));

      // A node asked by a peer answers from its own data only, and names itself.
      HttpExchange own = HttpExchange.send("POST", nodes.get(2).http() + "/api/v1/query",
          Map.of("Mira-Hop", "1", "Content-Type", "application/json"), "{\"signal\": \"logs\", \"limit\": 1000}".getBytes(),
          false);
      assertThat(own.header("Mira-Node")).isEqualTo("n2");
      assertThat(ResultReader.search(own.body()).rows()).hasSize(11);
      assertThat(obj(own)).doesNotContainKey("cluster").containsKey("positions");

      // Asked for it, a cluster answer says where its time went, step by step in order, and each
      // node's time in µs beside the whole milliseconds; unasked, it carries no timing.
      HttpExchange timed = HttpExchange.send("POST", nodes.get(0).http() + "/api/v1/query",
          Map.of("Mira-Timing", "1", "Content-Type", "application/json"), "{\"signal\": \"logs\", \"limit\": 10}".getBytes(),
          false);
      Map<String, Object> timing = map(cluster(timed).get("timing"));
      long parsedUs = (Long) timing.get("parsed_us");
      long askedUs = (Long) timing.get("asked_us");
      long localUs = (Long) timing.get("local_us");
      long gatheredUs = (Long) timing.get("gathered_us");
      long mergedUs = (Long) timing.get("merged_us");
      assertThat(List.of(parsedUs, askedUs, localUs, gatheredUs, mergedUs)).isSorted();
      @SuppressWarnings("unchecked")
      List<Object> peerTimes = (List<Object>) timing.get("peers");
      assertThat(peerTimes).hasSize(2).map(QueryApiTest::map).allSatisfy(t -> {
        assertThat((Long) t.get("headers_us")).isGreaterThanOrEqualTo(askedUs);
        assertThat((Long) t.get("body_us")).isGreaterThanOrEqualTo((Long) t.get("headers_us"));
        assertThat((Long) t.get("read_us")).isGreaterThanOrEqualTo((Long) t.get("body_us")).isLessThanOrEqualTo(gatheredUs);
      });
      @SuppressWarnings("unchecked")
      List<Object> timedNodes = (List<Object>) cluster(timed).get("nodes");
      assertThat(timedNodes).hasSize(3).map(QueryApiTest::map)
          .allSatisfy(n -> assertThat((Long) n.get("took_ms")).isEqualTo((Long) n.get("took_us") / 1000));
      assertThat(cluster(post(nodes.get(0), "/api/v1/query", "{\"signal\": \"logs\", \"limit\": 10}")))
          .doesNotContainKey("timing");

      // One node gone: answers hold the rest and name it.
      nodes.remove(2).close();
      HttpExchange x = post(nodes.get(0), "/api/v1/query", "{\"signal\": \"logs\", \"limit\": 1000}");
      assertThat(x.status()).isEqualTo(200);
      assertThat(ResultReader.search(x.body()).rows()).hasSize(40);
      Map<String, Object> c = cluster(x);
      assertThat(c).containsEntry("asked", 3L).containsEntry("answered", 2L).containsEntry("partial", true);
      @SuppressWarnings("unchecked")
      List<Object> listed = (List<Object>) c.get("nodes");
      assertThat(listed).map(QueryApiTest::map).filteredOn(n -> n.get("ok") == Boolean.FALSE).singleElement()
          .satisfies(n -> {
            assertThat(n.get("address")).isEqualTo("127.0.0.1:" + ports[2]);
            assertThat(n.get("node")).isEqualTo("n2");
            assertThat((String) n.get("error")).isEqualTo("connection refused");
          });

      // An agent's tool answer is the cluster's too, and its text says a node is missing.
      HttpExchange tool = HttpExchange.send("POST", nodes.get(0).http() + "/mcp",
          McpClientTest.modern("tools/call", "query_records"), ("{\"jsonrpc\": \"2.0\", \"id\": 1, "
              + "\"method\": \"tools/call\", \"params\": {" + McpClientTest.META + ", \"name\": \"query_records\", "
              + "\"arguments\": {\"signal\": \"logs\", \"limit\": 100}}}").getBytes(), false);
      assertThat(tool.status()).isEqualTo(200);
      Map<String, Object> result = map(obj(tool).get("result"));
      assertThat(map(map(result.get("structuredContent")).get("cluster"))).containsEntry("partial", true);
      @SuppressWarnings("unchecked")
      String text = (String) map(((List<Object>) result.get("content")).get(0)).get("text");
      assertThat(text).contains("40 rows").contains("PARTIAL: 2 of 3 nodes answered")
          .contains("127.0.0.1:" + ports[2] + ": connection refused");
    } finally {
      for (Node n : nodes) {
        n.close();
      }
    }
  }

  @Test
  void peersAreAskedWithTheCallersToken() throws Exception {
    String token = "read-token-0123456789abcdef";
    Path tokens = java.nio.file.Files.writeString(dir.resolve("read.tokens"), token + "\n");
    int[] ports = {freePort(), freePort()};
    String peers = "127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1];
    try (Node a = node(dir.resolve("a"), "a", ports[0], peers);
        Node b = node(dir.resolve("b"), "b", ports[1], peers, Map.of(Key.AUTH_READ_TOKENS, tokens.toString()))) {
      logs(a, "alpha", 3);
      logs(b, "beta", 4);
      String doc = "{\"signal\": \"logs\", \"limit\": 100}";
      // Asked at a (no tokens of its own) without a token: b refuses the hop, and is named.
      HttpExchange bare = post(a, "/api/v1/query", doc);
      assertThat(ResultReader.search(bare.body()).rows()).hasSize(3);
      @SuppressWarnings("unchecked")
      List<Object> listed = (List<Object>) cluster(bare).get("nodes");
      assertThat(listed).map(QueryApiTest::map).filteredOn(n -> n.get("ok") == Boolean.FALSE).singleElement()
          .satisfies(n -> assertThat((String) n.get("error")).startsWith("HTTP 401"));
      // With the caller's token, b answers its part.
      HttpExchange withToken = HttpExchange.send("POST", a.http() + "/api/v1/query",
          Map.of("Authorization", "Bearer " + token, "Content-Type", "application/json"), doc.getBytes(), false);
      assertThat(ResultReader.search(withToken.body()).rows()).hasSize(7);
      assertThat(cluster(withToken)).containsEntry("answered", 2L).containsEntry("partial", false);
    }
  }
}
