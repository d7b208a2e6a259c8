package mira.server.e2e;

import static mira.server.e2e.QueryApiTest.map;
import static mira.server.e2e.QueryApiTest.parse;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP server with a real client: the official MCP TypeScript SDK (legacy era, initialize)
 * run by Node against a node seeded by the OpenTelemetry Java SDK; and the protocol's refusals
 * over raw HTTP, each with the status and JSON-RPC code the specification gives.
 */
class McpClientTest {
  static final Path CLIENT = Path.of("src/test/mcp-client");

  @TempDir Path data;

  @BeforeAll
  static void installClient() throws Exception {
    if (!Files.isDirectory(CLIENT.resolve("node_modules/@modelcontextprotocol/sdk"))
        || !Files.isDirectory(CLIENT.resolve("node_modules/@modelcontextprotocol/client"))
        || !Files.isDirectory(CLIENT.resolve("node_modules/@modelcontextprotocol/conformance"))) {
      Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund").directory(CLIENT.toFile())
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      assertThat(npm.waitFor(5, TimeUnit.MINUTES)).as("npm ci finished").isTrue();
      assertThat(npm.exitValue()).as("npm ci exit status").isZero();
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> runClient(Node node, String calls) throws Exception {
    return runClient("client.mjs", node, calls);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> runClient(String script, Node node, String calls) throws Exception {
    Process p = new ProcessBuilder("node", script, node.http() + "/mcp", calls).directory(CLIENT.toFile())
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("client exit status; stdout: " + new String(out, StandardCharsets.UTF_8)).isZero();
    return (Map<String, Object>) parse(out);
  }

  @Test
  @SuppressWarnings("unchecked")
  void theOfficialClientListsTheToolsAndFindsAFailingSpanAndItsTrace() throws Exception {
    try (Node node = new Node(data)) {
      String traceId = QueryApiTest.sendCartTrace(node);

      Map<String, Object> seen = runClient(node, "["
          + "{\"name\": \"query_records\", \"arguments\": {\"signal\": \"traces\", \"from\": \"-1h\", "
          + "\"where\": [{\"field\": \"status_code\", \"eq\": 2}]}},"
          + "{\"name\": \"get_trace\", \"arguments\": {\"trace_id\": \"" + traceId + "\"}},"
          + "{\"name\": \"list_metrics\", \"arguments\": {}},"
          + "{\"name\": \"query_records\", \"arguments\": {\"signal\": \"traces\", \"wher\": []}},"
          + "{\"name\": \"no_such_tool\", \"arguments\": {}},"
          + "{\"name\": \"query_records\", \"arguments\": {\"signal\": \"traces\", \"q\": \"status_code=2 name~db\"}},"
          + "{\"name\": \"list_services\", \"arguments\": {\"from\": \"-1h\"}},"
          + "{\"name\": \"list_entities\", \"arguments\": {\"q\": \"service.name=checkout\"}},"
          + "{\"name\": \"correlate\", \"arguments\": {\"anchor\": {\"signal\": \"traces\", \"q\": \"status_code=2\"}, "
          + "\"expand\": [\"traces\", \"peers\"]}},"
          + "{\"name\": \"service_map\", \"arguments\": {\"from\": \"-1h\"}},"
          + "{\"name\": \"query_records\", \"arguments\": {\"signal\": \"logs\", \"q\": \"code>\"}},"
          + "{\"name\": \"list_alerts\", \"arguments\": {}},"
          + "{\"name\": \"list_attributes\", \"arguments\": {\"signal\": \"traces\"}},"
          + "{\"name\": \"attribute_values\", \"arguments\": {\"signal\": \"traces\", \"key\": \"service.name\", "
          + "\"q\": \"status_code=2\"}},"
          + "{\"name\": \"list_metrics\", \"arguments\": {\"q\": \"service.name=checkout\"}},"
          + "{\"name\": \"list_metrics\", \"arguments\": {\"q\": \"code>\"}}]");

      assertThat(seen.get("protocolVersion")).isEqualTo("2025-11-25");
      assertThat(seen.get("sessionId")).isNull();
      assertThat(map(seen.get("server"))).containsEntry("name", "mira");
      assertThat((String) seen.get("instructions")).contains("query_records");
      List<Map<String, Object>> tools = (List<Map<String, Object>>) seen.get("tools");
      assertThat(tools).extracting(t -> t.get("name"))
          .containsExactly("query_records", "get_trace", "list_metrics", "query_metric", "list_services",
              "list_entities", "correlate", "service_map", "list_attributes", "attribute_values", "list_alerts");
      for (Map<String, Object> t : tools) {
        assertThat(map(t.get("annotations"))).containsEntry("readOnlyHint", true);
        assertThat(map(t.get("inputSchema"))).containsEntry("type", "object");
      }

      List<Map<String, Object>> results = (List<Map<String, Object>>) seen.get("results");
      Map<String, Object> failing = results.get(0);
      assertThat(failing.get("isError")).isEqualTo(false);
      List<Map<String, Object>> rows = (List<Map<String, Object>>) map(failing.get("structuredContent")).get("rows");
      assertThat(rows).hasSize(1);
      assertThat(rows.get(0)).containsEntry("name", "db.query").containsEntry("trace_id", traceId);
      String text = (String) ((List<Map<String, Object>>) failing.get("content")).get(0).get("text");
      assertThat(text).startsWith("1 rows");

      List<Map<String, Object>> spans = (List<Map<String, Object>>) map(results.get(1).get("structuredContent"))
          .get("rows");
      assertThat(spans).extracting(x -> x.get("name")).containsExactly("GET /cart", "db.query");

      assertThat(map(results.get(2).get("structuredContent")).get("metrics")).isEqualTo(List.of());

      Map<String, Object> wrong = results.get(3);
      assertThat(wrong.get("isError")).isEqualTo(true);
      assertThat(((List<Map<String, Object>>) wrong.get("content")).get(0).get("text").toString()).contains("wher");

      assertThat(results.get(4).get("thrown").toString()).contains("unknown tool: no_such_tool");

      // The filter text, and the correlation tools, through the same client.
      List<Map<String, Object>> byText = (List<Map<String, Object>>) map(results.get(5).get("structuredContent"))
          .get("rows");
      assertThat(byText).extracting(x -> x.get("name")).containsExactly("db.query");
      List<Map<String, Object>> services = (List<Map<String, Object>>) map(results.get(6).get("structuredContent"))
          .get("services");
      assertThat(services).singleElement().satisfies(x -> assertThat(x).containsEntry("service.name", "checkout")
          .containsEntry("span_errors", "1"));
      List<Map<String, Object>> entities = (List<Map<String, Object>>) map(results.get(7).get("structuredContent"))
          .get("entities");
      assertThat(entities).singleElement().satisfies(x -> assertThat(x).containsEntry("rule", "service"));
      Map<String, Object> correlated = map(results.get(8).get("structuredContent"));
      assertThat(results.get(8).get("isError")).isEqualTo(false);
      assertThat((List<Object>) map(correlated.get("frame")).get("traces")).containsExactly(traceId);
      assertThat(((List<Map<String, Object>>) results.get(8).get("content")).get(0).get("text").toString())
          .contains("1 anchor rows").contains("send queries.logs or queries.traces to query_records");
      List<Map<String, Object>> nodes = (List<Map<String, Object>>) map(results.get(9).get("structuredContent"))
          .get("nodes");
      assertThat(nodes).extracting(x -> x.get("service")).contains("checkout");
      Map<String, Object> badText = results.get(10);
      assertThat(badText.get("isError")).isEqualTo(true);
      assertThat(((List<Map<String, Object>>) badText.get("content")).get(0).get("text").toString())
          .contains("q: column 6");
      Map<String, Object> alerts = results.get(11);
      assertThat(alerts.get("isError")).isEqualTo(false);
      assertThat(map(alerts.get("structuredContent"))).containsEntry("enabled", false).containsEntry("alerts", List.of());
      assertThat(((List<Map<String, Object>>) alerts.get("content")).get(0).get("text").toString())
          .startsWith("alerting is off on this node (alert.rules is not set)\n");

      assertThat(results.get(14).get("isError")).isEqualTo(false);
      assertThat(map(results.get(14).get("structuredContent")).get("metrics")).isEqualTo(List.of());
      // A malformed q is refused with the grammar's message, as query_records refuses it.
      assertThat(results.get(15).get("isError")).isEqualTo(true);
      assertThat(((List<Map<String, Object>>) results.get(15).get("content")).get(0).get("text").toString())
          .contains("column 6");
      List<Map<String, Object>> keys = (List<Map<String, Object>>) map(results.get(12).get("structuredContent"))
          .get("attributes");
      assertThat(keys).anySatisfy(k -> assertThat(k).containsEntry("key", "service.name")
          .containsEntry("level", "resource").containsEntry("count", "2"));
      Map<String, Object> values = results.get(13);
      assertThat(((List<Map<String, Object>>) values.get("content")).get(0).get("text").toString())
          .startsWith("service.name (resource): 1 of 1 distinct values over 1 of 1 records\n");
      assertThat((List<Map<String, Object>>) map(values.get("structuredContent")).get("facets")).singleElement()
          .satisfies(f -> assertThat(f.get("values")).isEqualTo(
              List.of(Map.of("value", "checkout", "type", "string", "count", "1"))));
    }
  }

  /** Every tool once, with arguments that succeed on the cart trace's node. */
  static String everyTool(String traceId) {
    return "["
        + "{\"name\": \"query_records\", \"arguments\": {\"signal\": \"traces\", \"q\": \"status_code=2\"}},"
        + "{\"name\": \"get_trace\", \"arguments\": {\"trace_id\": \"" + traceId + "\"}},"
        + "{\"name\": \"list_metrics\", \"arguments\": {}},"
        + "{\"name\": \"query_metric\", \"arguments\": {\"name\": \"no.such.metric\", \"from\": \"-1h\"}},"
        + "{\"name\": \"list_services\", \"arguments\": {}},"
        + "{\"name\": \"list_entities\", \"arguments\": {}},"
        + "{\"name\": \"correlate\", \"arguments\": {\"anchor\": {\"signal\": \"traces\", \"q\": \"status_code=2\"}}},"
        + "{\"name\": \"service_map\", \"arguments\": {}},"
        + "{\"name\": \"list_attributes\", \"arguments\": {\"signal\": \"traces\"}},"
        + "{\"name\": \"attribute_values\", \"arguments\": {\"signal\": \"traces\", \"key\": \"service.name\"}},"
        + "{\"name\": \"list_alerts\", \"arguments\": {}}]";
  }

  @Test
  @SuppressWarnings("unchecked")
  void theOfficial2026ClientCallsEveryToolWithoutInitialize() throws Exception {
    try (Node node = new Node(data)) {
      String traceId = QueryApiTest.sendCartTrace(node);
      Map<String, Object> seen = runClient("client2026.mjs", node, everyTool(traceId));
      assertThat(seen.get("protocolVersion")).isEqualTo("2026-07-28");
      assertThat(seen.get("era")).isEqualTo("modern");
      assertThat(map(seen.get("server"))).containsEntry("name", "mira");
      assertThat((String) seen.get("instructions")).contains("query_records");
      List<Map<String, Object>> tools = (List<Map<String, Object>>) seen.get("tools");
      assertThat(tools).hasSize(11);
      List<Map<String, Object>> results = (List<Map<String, Object>>) seen.get("results");
      assertThat(results).hasSize(11);
      for (int i = 0; i < results.size(); i++) {
        assertThat(results.get(i)).as("call of " + tools.get(i).get("name")).doesNotContainKey("thrown")
            .containsEntry("isError", false).containsKey("structuredContent");
      }
      assertThat((List<Object>) map(results.get(1).get("structuredContent")).get("rows")).hasSize(2);
    }
  }

  static HttpExchange mcp(Node node, String method, Map<String, String> headers, String body) throws IOException {
    return HttpExchange.send(method, node.http() + "/mcp", headers, body == null ? null
        : body.getBytes(StandardCharsets.UTF_8), false);
  }

  /** A ping with an Origin header, sent over a socket; the status line of the answer. */
  static String withOrigin(Node node, String origin) throws IOException {
    java.net.URI u = java.net.URI.create(node.http());
    return withOrigin(node, origin, u.getHost() + ":" + u.getPort());
  }

  /** As above, with {@code host} as the Host header (what a rebound name sends). */
  static String withOrigin(Node node, String origin, String host) throws IOException {
    java.net.URI u = java.net.URI.create(node.http());
    byte[] body = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}".getBytes(StandardCharsets.UTF_8);
    try (java.net.Socket sock = new java.net.Socket(u.getHost(), u.getPort())) {
      sock.setSoTimeout(10_000);
      String head = "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nOrigin: " + origin
          + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
      sock.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
      sock.getOutputStream().write(body);
      sock.getOutputStream().flush();
      return new java.io.BufferedReader(new java.io.InputStreamReader(sock.getInputStream(), StandardCharsets.UTF_8))
          .readLine();
    }
  }

  static Map<String, Object> error(HttpExchange x) throws IOException {
    return map(QueryApiTest.obj(x).get("error"));
  }

  @Test
  void theOriginMiraIsPublishedAtIsAllowedAndNoOther() throws Exception {
    try (Node node = new Node(data, Map.of(mira.server.config.Key.LINK_BASE, "https://mira.example.org/"))) {
      assertThat(withOrigin(node, "https://mira.example.org", "mira.example.org")).startsWith("HTTP/1.1 200");
      assertThat(withOrigin(node, "https://MIRA.example.org:443")).startsWith("HTTP/1.1 200");
      assertThat(withOrigin(node, "http://mira.example.org")).startsWith("HTTP/1.1 403");
      assertThat(withOrigin(node, "https://mira.example.org.evil.example")).startsWith("HTTP/1.1 403");
      assertThat(withOrigin(node, "http://127.0.0.1:9999")).startsWith("HTTP/1.1 200");
    }
  }

  /**
   * The official conformance suite's server scenarios against a real node: every scenario passes
   * except those in conformance-expected-failures.yml (fixture tools and capabilities Mira does not
   * have), and one listed there that passes fails the run too, so the list stays true.
   */
  @Test
  void theConformanceSuitesServerScenariosPassBarTheListedOnes() throws Exception {
    try (Node node = new Node(data)) {
      QueryApiTest.sendCartTrace(node);
      Path results = data.resolve("conformance-results");
      Process p = new ProcessBuilder("node", "node_modules/@modelcontextprotocol/conformance/dist/index.js", "server",
          "--url", node.http() + "/mcp", "--expected-failures", "conformance-expected-failures.yml",
          "-o", results.toString()).directory(CLIENT.toFile()).redirectErrorStream(true).start();
      byte[] out = p.getInputStream().readAllBytes();
      assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("the suite finished").isTrue();
      String text = new String(out, StandardCharsets.UTF_8);
      assertThat(p.exitValue()).as("conformance exit status; output:\n" + text).isZero();
      assertThat(text).contains("server-initialize").contains("tools-list").contains("dns-rebinding-protection");
    }
  }

  static final String META = "\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", "
      + "\"io.modelcontextprotocol/clientCapabilities\": {}}";

  /** The headers of a 2026-07-28 request: version, method and (for tools/call) name mirrored from the body. */
  static Map<String, String> modern(String method, String name) {
    Map<String, String> h = new java.util.HashMap<>(Map.of("Content-Type", "application/json", "Accept",
        "application/json, text/event-stream", "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method));
    if (name != null) {
      h.put("Mcp-Name", name);
    }
    return h;
  }

  @Test
  @SuppressWarnings("unchecked")
  void theModernEraNeedsNoInitializeAndRefusesWhatTheRevisionRefuses() throws Exception {
    try (Node node = new Node(data)) {
      String traceId = QueryApiTest.sendCartTrace(node);

      HttpExchange discover = mcp(node, "POST", modern("server/discover", null),
          "{\"jsonrpc\": \"2.0\", \"id\": \"d\", \"method\": \"server/discover\", \"params\": {" + META + "}}");
      assertThat(discover.status()).isEqualTo(200);
      assertThat(discover.header("Mcp-Session-Id")).isNull();
      Map<String, Object> d = map(QueryApiTest.obj(discover).get("result"));
      assertThat(d).containsEntry("resultType", "complete").containsEntry("supportedVersions", List.of("2026-07-28"))
          .containsEntry("cacheScope", "public").containsKey("ttlMs").containsKey("capabilities");
      assertThat((String) d.get("instructions")).contains("list_services");
      assertThat(map(map(d.get("_meta")).get("io.modelcontextprotocol/serverInfo"))).containsEntry("name", "mira");

      HttpExchange list = mcp(node, "POST", modern("tools/list", null),
          "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/list\", \"params\": {" + META + "}}");
      Map<String, Object> l = map(QueryApiTest.obj(list).get("result"));
      assertThat(l).containsEntry("resultType", "complete").containsKey("ttlMs").containsEntry("cacheScope", "public");
      assertThat((List<Object>) l.get("tools")).hasSize(11);

      HttpExchange call = mcp(node, "POST", modern("tools/call", "get_trace"), "{\"jsonrpc\": \"2.0\", \"id\": 3, "
          + "\"method\": \"tools/call\", \"params\": {" + META + ", \"name\": \"get_trace\", \"arguments\": "
          + "{\"trace_id\": \"" + traceId + "\"}}}");
      assertThat(call.status()).isEqualTo(200);
      Map<String, Object> c = map(QueryApiTest.obj(call).get("result"));
      assertThat(c).containsEntry("resultType", "complete").containsEntry("isError", false);
      assertThat((List<Object>) map(c.get("structuredContent")).get("rows")).hasSize(2);

      // The tool name in the Base64 sentinel form is decoded before it is compared.
      String encoded = "=?base64?" + java.util.Base64.getEncoder().encodeToString("list_alerts".getBytes(StandardCharsets.UTF_8)) + "?=";
      HttpExchange sentinel = mcp(node, "POST", modern("tools/call", encoded), "{\"jsonrpc\": \"2.0\", \"id\": 4, "
          + "\"method\": \"tools/call\", \"params\": {" + META + ", \"name\": \"list_alerts\", \"arguments\": {}}}");
      assertThat(sentinel.status()).isEqualTo(200);

      String toolsList = "{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"tools/list\", \"params\": {" + META + "}}";
      Map<String, String> wrongMethod = modern("tools/call", null);
      HttpExchange mismatch = mcp(node, "POST", wrongMethod, toolsList);
      assertThat(mismatch.status()).isEqualTo(400);
      assertThat(error(mismatch)).containsEntry("code", -32020L);

      Map<String, String> noMethod = modern("tools/list", null);
      noMethod.remove("Mcp-Method");
      assertThat(error(mcp(node, "POST", noMethod, toolsList))).containsEntry("code", -32020L);

      HttpExchange wrongName = mcp(node, "POST", modern("tools/call", "list_services"), "{\"jsonrpc\": \"2.0\", "
          + "\"id\": 6, \"method\": \"tools/call\", \"params\": {" + META + ", \"name\": \"list_alerts\"}}");
      assertThat(wrongName.status()).isEqualTo(400);
      assertThat(error(wrongName)).containsEntry("code", -32020L);

      Map<String, String> otherVersion = modern("tools/list", null);
      otherVersion.put("MCP-Protocol-Version", "2025-11-25");
      HttpExchange versionMismatch = mcp(node, "POST", otherVersion, toolsList);
      assertThat(versionMismatch.status()).isEqualTo(400);
      assertThat(error(versionMismatch)).containsEntry("code", -32020L);

      Map<String, String> future = modern("tools/list", null);
      future.put("MCP-Protocol-Version", "2099-01-01");
      HttpExchange unsupported = mcp(node, "POST", future, toolsList.replace("2026-07-28", "2099-01-01"));
      assertThat(unsupported.status()).isEqualTo(400);
      assertThat(error(unsupported)).containsEntry("code", -32022L);
      assertThat(map(error(unsupported).get("data"))).containsEntry("requested", "2099-01-01")
          .containsEntry("supported", List.of("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"));

      HttpExchange noCapabilities = mcp(node, "POST", modern("tools/list", null), "{\"jsonrpc\": \"2.0\", \"id\": 7, "
          + "\"method\": \"tools/list\", \"params\": {\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\"}}}");
      assertThat(noCapabilities.status()).isEqualTo(400);
      assertThat(error(noCapabilities)).containsEntry("code", -32602L);

      HttpExchange ping = mcp(node, "POST", modern("ping", null),
          "{\"jsonrpc\": \"2.0\", \"id\": 8, \"method\": \"ping\", \"params\": {" + META + "}}");
      assertThat(ping.status()).isEqualTo(404);
      assertThat(error(ping)).containsEntry("code", -32601L);

      // A legacy initialize on the same endpoint still negotiates, whatever the modern era serves.
      HttpExchange legacy = mcp(node, "POST", Map.of("Content-Type", "application/json"), "{\"jsonrpc\": \"2.0\", "
          + "\"id\": 9, \"method\": \"initialize\", \"params\": {\"protocolVersion\": \"2025-11-25\", "
          + "\"capabilities\": {}, \"clientInfo\": {\"name\": \"t\", \"version\": \"1\"}}}");
      assertThat(map(QueryApiTest.obj(legacy).get("result"))).containsEntry("protocolVersion", "2025-11-25")
          .doesNotContainKey("resultType");
    }
  }

  @Test
  void badRequestsGetTheStatusAndCodeTheSpecificationGives() throws Exception {
    try (Node node = new Node(data)) {
      Map<String, String> json = Map.of("Content-Type", "application/json", "Accept",
          "application/json, text/event-stream");

      HttpExchange get = mcp(node, "GET", Map.of("Accept", "text/event-stream"), null);
      assertThat(get.status()).isEqualTo(405);
      assertThat(get.header("Allow")).isEqualTo("POST");
      assertThat(mcp(node, "DELETE", Map.of(), null).status()).isEqualTo(405);

      HttpExchange garbage = mcp(node, "POST", json, "{\"jsonrpc\": ");
      assertThat(garbage.status()).isEqualTo(400);
      assertThat(error(garbage)).containsEntry("code", -32700L);

      HttpExchange batch = mcp(node, "POST", json, "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}]");
      assertThat(batch.status()).isEqualTo(400);
      assertThat(error(batch)).containsEntry("code", -32600L);

      HttpExchange version = mcp(node, "POST", json, "{\"jsonrpc\": \"1.0\", \"id\": 1, \"method\": \"ping\"}");
      assertThat(version.status()).isEqualTo(400);
      assertThat(error(version)).containsEntry("code", -32600L);

      HttpExchange unknown = mcp(node, "POST", json, "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"resources/list\"}");
      assertThat(unknown.status()).isEqualTo(200);
      assertThat(error(unknown)).containsEntry("code", -32601L);
      assertThat(QueryApiTest.obj(unknown)).containsEntry("id", 7L);

      HttpExchange note = mcp(node, "POST", json, "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}");
      assertThat(note.status()).isEqualTo(202);
      assertThat(note.body()).isEmpty();

      Map<String, String> badHeader = Map.of("Content-Type", "application/json", "MCP-Protocol-Version", "1999-01-01");
      HttpExchange header = mcp(node, "POST", badHeader, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}");
      assertThat(header.status()).isEqualTo(400);
      assertThat(error(header).get("message").toString()).contains("1999-01-01");

      // HttpURLConnection drops an Origin header silently, so these two go over a plain socket.
      assertThat(withOrigin(node, "https://evil.example")).startsWith("HTTP/1.1 403");
      assertThat(withOrigin(node, "http://localhost:3000")).startsWith("HTTP/1.1 200");
      // DNS rebinding: a name the attacker controls, pointed at this address, sends itself as Host and Origin.
      assertThat(withOrigin(node, "http://evil.example.com", "evil.example.com")).startsWith("HTTP/1.1 403");
      Map<String, String> local = Map.of("Content-Type", "application/json", "Mcp-Session-Id", "ignored");
      HttpExchange ping = mcp(node, "POST", local, "{\"jsonrpc\": \"2.0\", \"id\": \"p\", \"method\": \"ping\"}");
      assertThat(ping.status()).isEqualTo(200);
      assertThat(QueryApiTest.obj(ping)).containsEntry("id", "p").containsEntry("result", Map.of());
      assertThat(ping.header("Mcp-Session-Id")).isNull();

      HttpExchange older = mcp(node, "POST", json, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", "
          + "\"params\": {\"protocolVersion\": \"2025-06-18\", \"capabilities\": {}, "
          + "\"clientInfo\": {\"name\": \"t\", \"version\": \"1\"}}}");
      assertThat(map(QueryApiTest.obj(older).get("result"))).containsEntry("protocolVersion", "2025-06-18");
      HttpExchange future = mcp(node, "POST", json, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", "
          + "\"params\": {\"protocolVersion\": \"2099-01-01\", \"capabilities\": {}, "
          + "\"clientInfo\": {\"name\": \"t\", \"version\": \"1\"}}}");
      assertThat(map(QueryApiTest.obj(future).get("result"))).containsEntry("protocolVersion", "2025-11-25");
    }
  }
}
