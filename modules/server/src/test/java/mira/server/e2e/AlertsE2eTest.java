package mira.server.e2e;

import static mira.server.e2e.QueryApiTest.map;
import static mira.server.e2e.QueryApiTest.parse;
import static org.assertj.core.api.Assertions.assertThat;

import io.helidon.webserver.WebServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import mira.server.config.Config;
import mira.server.config.ConfigLoader;
import mira.server.config.Key;
import mira.server.launch.Running;
import mira.server.launch.StartupException;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alerting end to end: a real node started with a rules file, the OpenTelemetry Java SDK sending
 * error logs past the threshold, a real HTTP receiver told of firing within every + for and of
 * the resolve once the errors leave the window; the rule's filter and window, sent to
 * /api/v1/query, return exactly the rows that were counted.
 */
class AlertsE2eTest {
  @TempDir Path dir;

  static final String RULES = """
      {rules: [{name: "checkout-errors",
                query: {signal: "logs", q: "service.name=checkout severity_number>=17"},
                over: "6s", every: "1s", for: "2s", above: "3",
                labels: {team: "payments"}, targets: ["hook"]}],
       targets: [{name: "hook", webhook: "%s", headers: {Authorization: "Bearer e2e"}}]}
      """;

  Running start(Path rules) throws Exception {
    EnumMap<Key, String> flags = new EnumMap<>(Key.class);
    flags.put(Key.LISTEN_GRPC, "127.0.0.1:0");
    flags.put(Key.LISTEN_HTTP, "127.0.0.1:0");
    flags.put(Key.DATA_DIR, dir.resolve("data").toString());
    flags.put(Key.NODE, "alerts-e2e");
    flags.put(Key.ALERT_RULES, rules.toString());
    flags.put(Key.LINK_BASE, "https://mira.example/");
    Config c = ConfigLoader.load(Optional.empty(), flags, 2);
    return Running.start(c, Path.of("/proc/self/mountinfo"));
  }

  @Test
  void errorsPastTheThresholdFireAndResolveAndTheLinkReturnsTheCountedRows() throws Exception {
    LinkedBlockingQueue<Map<String, Object>> received = new LinkedBlockingQueue<>();
    LinkedBlockingQueue<String> auth = new LinkedBlockingQueue<>();
    WebServer hook = WebServer.builder().host("127.0.0.1").port(0).routing(r -> r.post("/hook", (req, res) -> {
      auth.add(req.headers().first(io.helidon.http.HeaderNames.AUTHORIZATION).orElse(""));
      received.add(map(parse(req.content().as(byte[].class))));
      res.send("ok");
    })).build().start();
    Path rules = dir.resolve("rules.kyaml");
    Files.writeString(rules, RULES.formatted("http://127.0.0.1:" + hook.port() + "/hook"));
    try (Running node = start(rules)) {
      String http = "http://127.0.0.1:" + node.server().httpPort();
      Map<String, Object> before = alerts(http);
      assertThat(before).containsEntry("enabled", true).containsEntry("reload_error", null);

      SdkLoggerProvider logging = SdkLoggerProvider.builder()
          .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(
              AttributeKey.stringKey("service.name"), "checkout", AttributeKey.stringKey("service.instance.id"), "co-1"))))
          // One batch: SimpleLogRecordProcessor's export per record can exceed the exporter's own
          // HTTP client pool ("executor rejected"), which fails the flush on the client side.
          .addLogRecordProcessor(BatchLogRecordProcessor.builder(
              OtlpHttpLogRecordExporter.builder().setEndpoint(http + "/v1/logs").build()).build())
          .build();
      Logger log = logging.get("checkout");
      for (int i = 0; i < 6; i++) {
        log.logRecordBuilder().setSeverity(Severity.ERROR).setBody("payment declined " + i).emit();
        log.logRecordBuilder().setSeverity(Severity.INFO).setBody("retrying " + i).emit();
      }
      assertThat(logging.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
      long flushed = System.nanoTime();

      Map<String, Object> firing = received.poll(15, TimeUnit.SECONDS);
      long tookMs = (System.nanoTime() - flushed) / 1_000_000;
      assertThat(firing).as("the webhook was told").isNotNull();
      // every (1 s) + for (2 s), with room for a block to be published and a slow machine.
      assertThat(tookMs).as("ms from the last export to firing").isLessThan(1_000 + 2_000 + 4_000);
      assertThat(auth.poll()).isEqualTo("Bearer e2e");
      assertThat(firing).containsEntry("rule", "checkout-errors").containsEntry("state", "firing")
          .containsEntry("value", 6L).containsEntry("node", "alerts-e2e")
          .containsEntry("filter", "service.name=checkout severity_number>=17");
      assertThat(map(firing.get("labels"))).isEqualTo(Map.of("team", "payments"));

      // The rule as /api/v1/alerts shows it, and the rows behind its count.
      Map<String, Object> rule = map(((List<?>) alerts(http).get("alerts")).getFirst());
      assertThat(rule).containsEntry("state", "firing").containsEntry("error", null);
      long counted = (Long) map(rule.get("counts")).get("query");
      assertThat(counted).isEqualTo(6);
      Map<String, Object> window = map(rule.get("window"));
      String link = (String) rule.get("link");
      assertThat(link).startsWith("https://mira.example/#/logs?q=");
      Map<String, String> params = new java.util.HashMap<>();
      for (String kv : link.substring(link.indexOf('?') + 1).split("&")) {
        params.put(kv.substring(0, kv.indexOf('=')), URLDecoder.decode(kv.substring(kv.indexOf('=') + 1), StandardCharsets.UTF_8));
      }
      assertThat(params).containsEntry("q", (String) rule.get("filter")).containsEntry("from", (String) window.get("from"))
          .containsEntry("to", (String) window.get("to"));
      String query = "{\"signal\":\"logs\",\"q\":" + quote(params.get("q")) + ",\"from\":" + quote(params.get("from"))
          + ",\"to\":" + quote(params.get("to")) + ",\"limit\":1000}";
      HttpExchange rows = HttpExchange.post(http + "/api/v1/query", "application/json", null,
          query.getBytes(StandardCharsets.UTF_8));
      assertThat(rows.status()).isEqualTo(200);
      List<?> got = (List<?>) map(parse(rows.body())).get("rows");
      assertThat(got).hasSize((int) counted);
      assertThat(got).allSatisfy(r -> assertThat((String) map(r).get("body")).startsWith("payment declined"));

      // An agent sees the same through MCP's list_alerts.
      HttpExchange mcp = HttpExchange.send("POST", http + "/mcp", Map.of("Content-Type", "application/json",
          "Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2025-11-25"),
          ("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"tools/call\", \"params\": {\"name\": \"list_alerts\", "
              + "\"arguments\": {}}}").getBytes(StandardCharsets.UTF_8), false);
      assertThat(mcp.status()).isEqualTo(200);
      Map<String, Object> result = map(map(parse(mcp.body())).get("result"));
      assertThat(((String) map(((List<?>) result.get("content")).getFirst()).get("text")))
          .startsWith("1 rules: 1 firing (checkout-errors), 0 pending, 0 error\n");
      assertThat(map(((List<?>) map(result.get("structuredContent")).get("alerts")).getFirst()))
          .containsEntry("name", "checkout-errors").containsEntry("state", "firing");

      // No more errors: once they leave the 6 s window the rule resolves.
      Map<String, Object> resolved = received.poll(20, TimeUnit.SECONDS);
      assertThat(resolved).as("resolved").isNotNull();
      assertThat(resolved).containsEntry("state", "resolved").containsEntry("since", firing.get("since"));
      assertThat((Long) resolved.get("value")).isLessThanOrEqualTo(3L);
      assertThat(map(((List<?>) alerts(http).get("alerts")).getFirst())).containsEntry("state", "ok");
      logging.close();
    } finally {
      hook.stop();
    }
  }

  /** A metric rule: the highest queue depth of the window against the line, from SDK gauges. */
  @Test
  void aMetricRuleFiresOnTheSeriesValue() throws Exception {
    Path rules = dir.resolve("rules.kyaml");
    Files.writeString(rules, """
        {rules: [{name: "queue-depth", series: {name: "queue.depth", where: [{attr: "queue", eq: "orders"}], fn: "max"},
                  over: "30s", every: "1s", above: "10000"},
                 {name: "queue-depth-low", series: {name: "queue.depth", fn: "min"}, over: "30s", every: "1s", below: "100"}]}
        """);
    try (Running node = start(rules)) {
      String http = "http://127.0.0.1:" + node.server().httpPort();
      io.opentelemetry.sdk.metrics.SdkMeterProvider meters = io.opentelemetry.sdk.metrics.SdkMeterProvider.builder()
          .setResource(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "worker")))
          .registerMetricReader(io.opentelemetry.sdk.metrics.export.PeriodicMetricReader.builder(
              io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter.builder()
                  .setEndpoint(http + "/v1/metrics").build()).setInterval(Duration.ofHours(1)).build())
          .build();
      long[] depth = {12_345};
      meters.get("worker").gaugeBuilder("queue.depth").ofLongs().buildWithCallback(m -> {
        m.record(depth[0], Attributes.of(AttributeKey.stringKey("queue"), "orders"));
        m.record(500, Attributes.of(AttributeKey.stringKey("queue"), "refunds"));
      });
      assertThat(meters.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
      depth[0] = 9_000;
      assertThat(meters.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();

      long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
      Map<String, Object> rule = null;
      while (System.nanoTime() < until) {
        rule = map(((List<?>) alerts(http).get("alerts")).getFirst());
        if ("firing".equals(rule.get("state"))) {
          break;
        }
        Thread.sleep(100);
      }
      assertThat(rule).as("max of orders' depth in the window is 12345 > 10000")
          .containsEntry("state", "firing").containsEntry("kind", "metric").containsEntry("value", 12_345L)
          .containsEntry("filter", "queue=orders").containsEntry("error", null);
      assertThat((String) rule.get("link")).startsWith("https://mira.example/#/metrics?name=queue.depth&q=queue%3Dorders&from=");
      Map<String, Object> low = map(((List<?>) alerts(http).get("alerts")).get(1));
      assertThat(low).as("the lowest of every series: refunds at 500, not below 100")
          .containsEntry("state", "ok").containsEntry("value", 500L);
      meters.close();
    }
  }

  @Test
  void aReloadSwapsRulesAndABadFileKeepsTheOldOnesRunning() throws Exception {
    Path rules = dir.resolve("rules.kyaml");
    Files.writeString(rules, RULES.formatted("http://127.0.0.1:9/hook"));
    try (Running node = start(rules)) {
      String http = "http://127.0.0.1:" + node.server().httpPort();
      Files.writeString(rules, "{rules: [{name: \"x\", query: {signal: \"logs\", limit: \"5\"}, over: \"1m\", above: \"1\"}]}");
      assertThat(node.reloadRules()).isTrue();
      Map<String, Object> doc = alerts(http);
      assertThat((String) doc.get("reload_error")).contains("rule \"x\": query: limit is not allowed in a rule");
      assertThat(((List<?>) doc.get("alerts"))).extracting(a -> map(a).get("name")).containsExactly("checkout-errors");
      long evaluations = (Long) map(((List<?>) doc.get("alerts")).getFirst()).get("evaluations");
      Thread.sleep(2_500);
      assertThat((Long) map(((List<?>) alerts(http).get("alerts")).getFirst()).get("evaluations"))
          .as("the old rule is still evaluated").isGreaterThan(evaluations);

      Files.writeString(rules, "{rules: [{name: \"quiet\", query: {signal: \"traces\"}, over: \"1m\", every: \"1s\", below: \"1\"}]}");
      assertThat(node.reloadRules()).isTrue();
      doc = alerts(http);
      assertThat(doc).containsEntry("reload_error", null);
      assertThat(((List<?>) doc.get("alerts"))).extracting(a -> map(a).get("name")).containsExactly("quiet");
      long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (!"firing".equals(map(((List<?>) alerts(http).get("alerts")).getFirst()).get("state"))
          && System.nanoTime() < until) {
        Thread.sleep(100);
      }
      assertThat(map(((List<?>) alerts(http).get("alerts")).getFirst())).as("no spans: below 1 fires")
          .containsEntry("state", "firing").containsEntry("value", 0L);
    }
  }

  @Test
  void aBadRulesFileStopsTheStartNamingRuleAndKey() throws Exception {
    Path rules = dir.resolve("rules.kyaml");
    Files.writeString(rules, "{rules: [{name: \"r\", query: {signal: \"logs\"}, over: \"5m\", abve: \"1\"}]}");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> start(rules)).isInstanceOf(StartupException.class)
        .hasMessageContaining("alert.rules: " + rules + ":1:59: rule \"r\": unknown key abve");
  }

  @Test
  void withoutRulesTheRouteAnswersAnEmptyList() throws Exception {
    try (Node node = new Node(dir.resolve("plain"))) {
      HttpExchange x = QueryApiTest.get(node, "/api/v1/alerts");
      assertThat(x.status()).isEqualTo(200);
      assertThat(map(parse(x.body()))).containsEntry("enabled", false).containsEntry("alerts", List.of());
      assertThat(HttpExchange.post(node.http() + "/api/v1/alerts", "application/json", null, new byte[0]).status())
          .isEqualTo(405);
    }
  }

  static Map<String, Object> alerts(String http) throws Exception {
    HttpExchange x = HttpExchange.send("GET", http + "/api/v1/alerts", Map.of(), null, false);
    assertThat(x.status()).isEqualTo(200);
    return map(parse(x.body()));
  }

  static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
