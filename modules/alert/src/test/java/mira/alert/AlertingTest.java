package mira.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The evaluator's edges and deliveries against real HTTP(S) receivers on loopback ports. The rule
 * values are scripted (the real counts are the end-to-end test's business); everything after the
 * value — state, payloads, HTTP, TLS — is the real path.
 */
class AlertingTest {
  static final long S = 1_000_000_000L;
  static final long T0 = Instant.parse("2026-12-01T12:00:00Z").getEpochSecond() * S;

  Receiver hook;
  Receiver other;
  /** Values the scripted evaluator answers with, per rule, in order; the last one repeats. */
  final Map<String, ConcurrentLinkedDeque<Double>> values = new ConcurrentHashMap<>();
  Alerting alerting;

  @BeforeEach
  void receivers() throws Exception {
    hook = Receiver.plain();
    other = Receiver.plain();
  }

  @AfterEach
  void close() {
    if (alerting != null) {
      alerting.close();
    }
    hook.close();
    other.close();
  }

  Alerting.Evaluator scripted() {
    return (r, now) -> {
      ConcurrentLinkedDeque<Double> q = values.get(r.name());
      double v = q.size() > 1 ? q.poll() : q.peek();
      return new Evaluation.Outcome(v, (long) v, -1, now - r.over(), now - 1, 0);
    };
  }

  Alerting with(String rulesText, Delivery delivery) throws Exception {
    alerting = new Alerting(scripted(), delivery, "mira-0", "https://mira.example", () -> T0, true);
    alerting.replace(RulesFile.parse("rules.kyaml", rulesText));
    return alerting;
  }

  void script(String rule, double... vs) {
    ConcurrentLinkedDeque<Double> q = new ConcurrentLinkedDeque<>();
    for (double v : vs) {
      q.add(v);
    }
    values.put(rule, q);
  }

  String targets() {
    return "targets: [{name: \"hook\", webhook: \"" + hook.url("/alerts?token=abc") + "\", headers: {Authorization: \"Bearer s3cret\"}},"
        + " {name: \"slack\", slack: \"" + other.url("/services/T0/B0/XXXX") + "\"},"
        + " {name: \"pd\", pagerduty: \"R0UTE\", url: \"" + other.url("/v2/enqueue") + "\"},"
        + " {name: \"am\", alertmanager: \"" + other.url("") + "\"},"
        + " {name: \"dead\", webhook: \"http://127.0.0.1:" + closedPort() + "/x\"}]";
  }

  static int closedPort() {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static final String ERRORS = "{name: \"checkout-errors\", query: {signal: \"logs\", where: [{attr: \"service.name\", "
      + "eq: \"checkout\"}, {field: \"severity_number\", gte: \"17\"}]}, over: \"5m\", every: \"30s\", above: \"10\", "
      + "labels: {team: \"payments\", severity: \"page\"}, ";

  @Test
  void firesOnceAndResolvesOnceToAWebhook() throws Exception {
    with("{rules: [" + ERRORS + "targets: [\"hook\"]}], " + targets() + "}", new Delivery());
    script("checkout-errors", 3, 12, 15, 4);
    alerting.evaluate("checkout-errors", T0);
    assertThat(hook.drain()).as("ok: nothing to say").isEmpty();
    alerting.evaluate("checkout-errors", T0 + 30 * S);
    Receiver.Request fired = hook.next(Duration.ofSeconds(5));
    assertThat(fired).isNotNull();
    assertThat(fired.method()).isEqualTo("POST");
    assertThat(fired.path()).isEqualTo("/alerts?token=abc");
    assertThat(fired.header("Content-Type")).isEqualTo("application/json");
    assertThat(fired.header("Authorization")).isEqualTo("Bearer s3cret");
    Map<String, Object> b = Json.obj(fired.body());
    assertThat(b).containsEntry("rule", "checkout-errors").containsEntry("state", "firing").containsEntry("kind", "count")
        .containsEntry("value", 12L).containsEntry("threshold", Map.of("above", 10L))
        .containsEntry("labels", Map.of("severity", "page", "team", "payments"))
        .containsEntry("since", "2026-12-01T12:00:30Z").containsEntry("at", "2026-12-01T12:00:30Z")
        .containsEntry("signal", "logs").containsEntry("node", "mira-0")
        .containsEntry("filter", "service.name=checkout severity_number>=\"17\"")
        .containsEntry("summary", "checkout-errors is firing: 12 > 10 over 5m");
    assertThat(Json.obj(b.get("counts"))).containsEntry("query", 12L).containsEntry("of", null);
    assertThat(b.get("window")).isEqualTo(Map.of("from", "2026-12-01T11:55:30Z", "to", "2026-12-01T12:00:29.999999999Z"));
    assertThat((String) b.get("link")).isEqualTo("https://mira.example/#/logs?q=service.name%3Dcheckout%20severity_number%3E%3D%2217%22"
        + "&from=2026-12-01T11%3A55%3A30Z&to=2026-12-01T12%3A00%3A29.999999999Z");

    alerting.evaluate("checkout-errors", T0 + 60 * S);
    assertThat(hook.next(Duration.ofMillis(300))).as("still firing: no second POST").isNull();
    alerting.evaluate("checkout-errors", T0 + 90 * S);
    Map<String, Object> resolved = Json.obj(hook.next(Duration.ofSeconds(5)).body());
    assertThat(resolved).containsEntry("state", "resolved").containsEntry("value", 4L)
        .containsEntry("since", "2026-12-01T12:00:30Z").containsEntry("at", "2026-12-01T12:01:30Z");
    assertThat(hook.drain()).isEmpty();
  }

  @Test
  void aFlappingRuleNeverFiresUnderFor() throws Exception {
    with("{rules: [" + ERRORS + "for: \"1m\", targets: [\"hook\"]}], " + targets() + "}", new Delivery());
    script("checkout-errors", 11, 11, 2, 11, 11, 2, 11, 11, 11);
    for (int i = 0; i < 6; i++) {
      alerting.evaluate("checkout-errors", T0 + i * 30 * S);
    }
    assertThat(hook.next(Duration.ofMillis(300))).as("no breach lasted a minute").isNull();
    assertThat(Json.obj(alerting.render())).extracting(m -> Json.obj(Json.list(m.get("alerts")).getFirst()).get("state"))
        .isEqualTo("ok");
    alerting.evaluate("checkout-errors", T0 + 6 * 30 * S);
    alerting.evaluate("checkout-errors", T0 + 7 * 30 * S);
    assertThat(Json.obj(Json.list(Json.obj(alerting.render()).get("alerts")).getFirst()).get("state")).isEqualTo("pending");
    assertThat(hook.next(Duration.ofMillis(300))).isNull();
    alerting.evaluate("checkout-errors", T0 + 8 * 30 * S);
    assertThat(Json.obj(hook.next(Duration.ofSeconds(5)).body())).containsEntry("state", "firing")
        .containsEntry("since", "2026-12-01T12:04:00Z");
  }

  @Test
  void aFiringRuleIsRepeatedAfterRepeat() throws Exception {
    with("{rules: [" + ERRORS + "repeat: \"1m\", targets: [\"hook\"]}], " + targets() + "}", new Delivery());
    script("checkout-errors", 20);
    alerting.evaluate("checkout-errors", T0);
    assertThat(hook.next(Duration.ofSeconds(5))).isNotNull();
    alerting.evaluate("checkout-errors", T0 + 30 * S);
    assertThat(hook.next(Duration.ofMillis(300))).isNull();
    alerting.evaluate("checkout-errors", T0 + 60 * S);
    Map<String, Object> again = Json.obj(hook.next(Duration.ofSeconds(5)).body());
    assertThat(again).containsEntry("state", "firing").containsEntry("since", "2026-12-01T12:00:00Z")
        .containsEntry("at", "2026-12-01T12:01:00Z");
  }

  @Test
  void anUnreachableTargetIsReportedAndRetriedWhileTheOthersAreTold() throws Exception {
    with("{rules: [" + ERRORS + "targets: [\"dead\", \"hook\"]}], " + targets() + "}", new Delivery());
    script("checkout-errors", 20, 20, 1);
    alerting.evaluate("checkout-errors", T0);
    assertThat(Json.obj(hook.next(Duration.ofSeconds(5)).body())).containsEntry("state", "firing");
    Map<String, Object> rule = Json.obj(Json.list(Json.obj(alerting.render()).get("alerts")).getFirst());
    assertThat(rule).containsEntry("state", "firing").containsEntry("error", null);
    Map<String, Object> dead = Json.obj(Json.list(rule.get("targets")).get(0));
    assertThat(dead).containsEntry("name", "dead").containsEntry("told_firing", false);
    assertThat(Json.obj(dead.get("last"))).containsEntry("state", "firing").containsEntry("result", "error")
        .containsEntry("status", null);
    assertThat((String) Json.obj(dead.get("last")).get("error")).contains("ConnectException");
    Map<String, Object> ok = Json.obj(Json.list(rule.get("targets")).get(1));
    assertThat(ok).containsEntry("told_firing", true);
    assertThat(Json.obj(ok.get("last"))).containsEntry("result", "ok").containsEntry("status", 200L);

    // The next evaluation is the retry: the dead target is tried again, the live one is not re-sent.
    alerting.evaluate("checkout-errors", T0 + 30 * S);
    assertThat(hook.next(Duration.ofMillis(300))).isNull();
    rule = Json.obj(Json.list(Json.obj(alerting.render()).get("alerts")).getFirst());
    assertThat(Json.obj(Json.obj(Json.list(rule.get("targets")).get(0)).get("last")))
        .containsEntry("at", "2026-12-01T12:00:30Z");
    // A receiver that answers 500 is an error too, with the status.
    hook.answer(500);
    alerting.evaluate("checkout-errors", T0 + 60 * S);
    assertThat(Json.obj(hook.next(Duration.ofSeconds(5)).body())).containsEntry("state", "resolved");
    rule = Json.obj(Json.list(Json.obj(alerting.render()).get("alerts")).getFirst());
    Map<String, Object> failed = Json.obj(Json.obj(Json.list(rule.get("targets")).get(1)).get("last"));
    assertThat(failed).containsEntry("result", "error").containsEntry("status", 500L).containsEntry("state", "resolved");
    assertThat(Json.obj(Json.list(rule.get("targets")).get(1))).as("still believes it firing").containsEntry("told_firing", true);
    hook.answer(200);
    alerting.evaluate("checkout-errors", T0 + 90 * S);
    assertThat(Json.obj(hook.next(Duration.ofSeconds(5)).body())).as("the resolve, retried").containsEntry("state", "resolved");
  }

  @Test
  void aFailedEvaluationIsReportedAsError() throws Exception {
    alerting = new Alerting((r, now) -> {
      throw new java.io.IOException("the disk went away");
    }, new Delivery(), "mira-0", "", () -> T0, true);
    alerting.replace(RulesFile.parse("r", "{rules: [" + ERRORS + "targets: [\"hook\"]}], " + targets() + "}"));
    alerting.evaluate("checkout-errors", T0);
    Map<String, Object> rule = Json.obj(Json.list(Json.obj(alerting.render()).get("alerts")).getFirst());
    assertThat(rule).containsEntry("state", "error").containsEntry("error", "IOException: the disk went away")
        .containsEntry("value", null).containsEntry("link", null).containsEntry("evaluations", 1L);
    assertThat(hook.drain()).isEmpty();
  }

  @Test
  void slackPagerDutyAndAlertmanagerPayloadsFollowTheirSchemas() throws Exception {
    with("{rules: [" + ERRORS + "targets: [\"slack\", \"pd\", \"am\"]}], " + targets() + "}", new Delivery());
    script("checkout-errors", 12, 3);
    alerting.evaluate("checkout-errors", T0);
    Map<String, Receiver.Request> byPath = new java.util.HashMap<>();
    for (int i = 0; i < 3; i++) {
      Receiver.Request r = other.next(Duration.ofSeconds(5));
      byPath.put(r.path(), r);
    }
    assertThat(byPath).containsOnlyKeys("/services/T0/B0/XXXX", "/v2/enqueue", "/api/v2/alerts");

    // Slack incoming webhook: text (the notification fallback) and blocks of section / context with mrkdwn text.
    Map<String, Object> slack = Json.obj(byPath.get("/services/T0/B0/XXXX").body());
    assertThat(slack).containsOnlyKeys("text", "blocks");
    assertThat(slack.get("text")).isEqualTo("[FIRING] checkout-errors is firing: 12 > 10 over 5m");
    List<Object> blocks = Json.list(slack.get("blocks"));
    Map<String, Object> section = Json.obj(blocks.get(0));
    assertThat(section).containsOnlyKeys("type", "text").containsEntry("type", "section");
    assertThat(Json.obj(section.get("text"))).containsEntry("type", "mrkdwn").containsEntry("text",
        ":rotating_light: *FIRING* checkout-errors\ncheckout-errors is firing: 12 &gt; 10 over 5m\n"
            + "`service.name=checkout severity_number&gt;=\"17\"`");
    Map<String, Object> context = Json.obj(blocks.get(1));
    assertThat(context).containsEntry("type", "context");
    Map<String, Object> element = Json.obj(Json.list(context.get("elements")).getFirst());
    assertThat(element).containsEntry("type", "mrkdwn");
    assertThat((String) element.get("text")).startsWith("severity=page  team=payments  <https://mira.example/#/logs?q=")
        .endsWith("|Open in Mira>");

    // PagerDuty Events API v2 trigger.
    Map<String, Object> pd = Json.obj(byPath.get("/v2/enqueue").body());
    assertThat(pd).containsOnlyKeys("routing_key", "event_action", "dedup_key", "payload", "links", "client", "client_url")
        .containsEntry("routing_key", "R0UTE").containsEntry("event_action", "trigger")
        .containsEntry("dedup_key", "checkout-errors").containsEntry("client", "Mira");
    Map<String, Object> payload = Json.obj(pd.get("payload"));
    assertThat(payload).containsEntry("summary", "checkout-errors is firing: 12 > 10 over 5m")
        .containsEntry("source", "mira-0").containsEntry("severity", "critical")
        .containsEntry("timestamp", "2026-12-01T12:00:00Z").containsEntry("class", "count")
        .containsEntry("group", "payments");
    assertThat(List.of("critical", "error", "warning", "info")).contains((String) payload.get("severity"));
    assertThat(Json.obj(payload.get("custom_details"))).containsEntry("rule", "checkout-errors").containsEntry("value", 12L);
    assertThat(Json.obj(Json.list(pd.get("links")).getFirst())).containsOnlyKeys("href", "text")
        .containsEntry("text", "Open in Mira");

    // Alertmanager POST /api/v2/alerts: a list of postable alerts.
    List<Object> am = Json.list(Json.parse(byPath.get("/api/v2/alerts").body()));
    assertThat(am).hasSize(1);
    Map<String, Object> alert = Json.obj(am.getFirst());
    assertThat(alert).containsOnlyKeys("labels", "annotations", "startsAt", "endsAt", "generatorURL");
    assertThat(alert.get("labels")).isEqualTo(Map.of("alertname", "checkout-errors", "team", "payments", "severity", "page"));
    assertThat(Json.obj(alert.get("annotations"))).containsEntry("summary", "checkout-errors is firing: 12 > 10 over 5m")
        .containsEntry("value", "12").containsEntry("threshold", "> 10");
    assertThat(alert).containsEntry("startsAt", "2026-12-01T12:00:00Z")
        .containsEntry("endsAt", "2026-12-01T12:02:00Z");   // 4 × every (30 s) ahead
    assertThat((String) alert.get("generatorURL")).startsWith("https://mira.example/#/logs?q=");

    // Alertmanager is re-told at every evaluation while firing; the others are not.
    script("checkout-errors", 12, 3);
    alerting.evaluate("checkout-errors", T0 + 30 * S);
    Receiver.Request again = other.next(Duration.ofSeconds(5));
    assertThat(again.path()).isEqualTo("/api/v2/alerts");
    assertThat(Json.obj(Json.list(Json.parse(again.body())).getFirst())).containsEntry("startsAt", "2026-12-01T12:00:00Z")
        .containsEntry("endsAt", "2026-12-01T12:02:30Z");
    assertThat(other.next(Duration.ofMillis(300))).isNull();

    // The resolves.
    alerting.evaluate("checkout-errors", T0 + 60 * S);
    byPath.clear();
    for (int i = 0; i < 3; i++) {
      Receiver.Request r = other.next(Duration.ofSeconds(5));
      byPath.put(r.path(), r);
    }
    assertThat(Json.obj(byPath.get("/v2/enqueue").body())).isEqualTo(Map.of("routing_key", "R0UTE",
        "event_action", "resolve", "dedup_key", "checkout-errors"));
    Map<String, Object> amResolved = Json.obj(Json.list(Json.parse(byPath.get("/api/v2/alerts").body())).getFirst());
    assertThat(amResolved).containsEntry("startsAt", "2026-12-01T12:00:00Z").containsEntry("endsAt", "2026-12-01T12:01:00Z");
    assertThat((String) Json.obj(byPath.get("/services/T0/B0/XXXX").body()).get("text")).startsWith("[RESOLVED] ");
  }

  @Test
  void httpsTargetsUseTheJdksTls(@TempDir Path dir) throws Exception {
    TestCa ca = TestCa.create(dir);
    try (Receiver secure = Receiver.tls(ca.server())) {
      String rules = "{rules: [" + ERRORS + "targets: [\"tls\"]}], targets: [{name: \"tls\", webhook: \""
          + secure.url("/hook") + "\"}]}";
      with(rules, new Delivery(ca.client()));
      script("checkout-errors", 12);
      alerting.evaluate("checkout-errors", T0);
      Receiver.Request r = secure.next(Duration.ofSeconds(10));
      assertThat(r).as("delivered over TLS to a server the test CA signed").isNotNull();
      assertThat(Json.obj(r.body())).containsEntry("state", "firing");
      alerting.close();

      // Without the CA in its trust store the JDK refuses the certificate, and the rule says so.
      with(rules, new Delivery());
      alerting.evaluate("checkout-errors", T0);
      Map<String, Object> rule = Json.obj(Json.list(Json.obj(alerting.render()).get("alerts")).getFirst());
      Map<String, Object> last = Json.obj(Json.obj(Json.list(rule.get("targets")).getFirst()).get("last"));
      assertThat(last).containsEntry("result", "error");
      assertThat((String) last.get("error")).contains("SSLHandshakeException");
      assertThat(secure.next(Duration.ofMillis(300))).isNull();
    }
  }

  @Test
  void theAlertsDocumentShowsEveryRuleAndNoSecret() throws Exception {
    with("{rules: [" + ERRORS + "targets: [\"hook\", \"slack\", \"pd\"]}, {name: \"p95\", query: {signal: \"traces\", "
        + "where: [{field: \"duration_nano\", gt: \"500000000\"}]}, of: {signal: \"traces\"}, over: \"5m\", above: \"0.05\"}], "
        + targets() + "}", new Delivery());
    script("checkout-errors", 12);
    script("p95", 0.01);
    alerting.evaluate("checkout-errors", T0);
    String doc = new String(alerting.render(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(doc).doesNotContain("token=abc", "s3cret", "XXXX", "R0UTE", "/alerts", "/services", "/v2/enqueue");
    Map<String, Object> d = Json.obj(doc);
    assertThat(d).containsEntry("enabled", true).containsEntry("rules_file", "rules.kyaml").containsEntry("reload_error", null);
    List<Object> alerts = Json.list(d.get("alerts"));
    assertThat(alerts).hasSize(2);
    Map<String, Object> e = Json.obj(alerts.get(0));
    assertThat(e).containsEntry("name", "checkout-errors").containsEntry("kind", "count").containsEntry("state", "firing")
        .containsEntry("since", "2026-12-01T12:00:00Z").containsEntry("value", 12L).containsEntry("over", "5m")
        .containsEntry("every", "30s").containsEntry("for", "0s").containsEntry("repeat", "4h")
        .containsEntry("evaluated_at", "2026-12-01T12:00:00Z").containsEntry("evaluations", 1L)
        .containsEntry("filter", "service.name=checkout severity_number>=\"17\"");
    assertThat(Json.list(e.get("targets"))).extracting(t -> Json.obj(t).get("url"))
        .allSatisfy(u -> assertThat((String) u).matches("http://127\\.0\\.0\\.1:[0-9]+"));
    Map<String, Object> p95 = Json.obj(alerts.get(1));
    assertThat(p95).containsEntry("state", "ok").containsEntry("since", null).containsEntry("value", null)
        .containsEntry("evaluations", 0L).containsEntry("of_filter", "").containsEntry("filter", "duration_nano>\"500000000\"");

    alerting.reloadFailed("rules.kyaml:3:5: rule \"x\": unknown key y");
    assertThat(Json.obj(alerting.render())).containsEntry("reload_error", "rules.kyaml:3:5: rule \"x\": unknown key y");
    Map<String, Object> off = Json.obj(Alerting.off().render());
    assertThat(off).as("alerting off").containsEntry("enabled", false).containsEntry("alerts", List.of())
        .containsEntry("rules_file", null);
  }

  @Test
  void aReloadKeepsUnchangedRulesAndResolvesRemovedOnes() throws Exception {
    String both = "{rules: [" + ERRORS + "targets: [\"hook\"]}, {name: \"other\", query: {signal: \"logs\"}, over: \"1m\", "
        + "above: \"1\", targets: [\"hook\"]}], " + targets() + "}";
    with(both, new Delivery());
    script("checkout-errors", 12);
    script("other", 5);
    alerting.evaluate("checkout-errors", T0);
    alerting.evaluate("other", T0);
    assertThat(hook.next(Duration.ofSeconds(5))).isNotNull();
    assertThat(hook.next(Duration.ofSeconds(5))).isNotNull();
    alerting.replace(RulesFile.parse("rules.kyaml", "{rules: [" + ERRORS + "targets: [\"hook\"]}], " + targets() + "}"));
    Map<String, Object> resolved = Json.obj(hook.next(Duration.ofSeconds(5)).body());
    assertThat(resolved).as("the removed rule is resolved").containsEntry("rule", "other").containsEntry("state", "resolved");
    alerting.evaluate("checkout-errors", T0 + 30 * S);
    assertThat(hook.next(Duration.ofMillis(300))).as("the kept rule is still firing and not told again").isNull();
    assertThat(Json.obj(Json.list(Json.obj(alerting.render()).get("alerts")).getFirst())).containsEntry("state", "firing");
  }

  @Test
  void rulesRunOnTheirOwnTimersAndASlowOneDelaysNoOther() throws Exception {
    AtomicInteger fast = new AtomicInteger();
    alerting = new Alerting((r, now) -> {
      if (r.name().equals("slow")) {
        try {
          Thread.sleep(5_000);
        } catch (InterruptedException e) {
          throw new java.io.IOException("stopped", e);
        }
      } else {
        fast.incrementAndGet();
      }
      return new Evaluation.Outcome(20, 20, -1, now - r.over(), now - 1, 0);
    }, new Delivery(), "mira-0", "", () -> T0, true);
    alerting.replace(RulesFile.parse("r", "{rules: [{name: \"slow\", query: {signal: \"logs\"}, over: \"1m\", every: \"1s\","
        + " above: \"1\"}, {name: \"fast\", query: {signal: \"logs\"}, over: \"1m\", every: \"1s\", above: \"10\", "
        + "targets: [\"hook\"]}], " + targets() + "}"));
    long started = System.nanoTime();
    alerting.start();
    assertThat(hook.next(Duration.ofSeconds(3))).as("fast fired on its first tick").isNotNull();
    Thread.sleep(3_200 - (System.nanoTime() - started) / 1_000_000);
    assertThat(fast.get()).as("evaluations of fast in 3.2 s while slow takes 5 s each").isGreaterThanOrEqualTo(3);
  }
}
