package mira.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mira feeding a real Alertmanager (Debian's prometheus-alertmanager, which .ci/run installs):
 * the alert is accepted, shows in Alertmanager's own API with Mira's labels and link, is routed to
 * a receiver, and its resolve is routed too.
 */
class AlertmanagerTest {
  @Test
  void aRealAlertmanagerAcceptsRoutesAndResolves(@TempDir Path dir) throws Exception {
    Path binary = Path.of("/usr/bin/prometheus-alertmanager");
    assertThat(binary).as("Debian's prometheus-alertmanager (apt-get install prometheus-alertmanager)").isExecutable();
    int port = AlertingTest.closedPort();
    try (Receiver routed = Receiver.plain()) {
      Files.writeString(dir.resolve("am.yml"), """
          route:
            receiver: hook
            group_by: [alertname]
            group_wait: 1s
            group_interval: 1s
            repeat_interval: 1h
          receivers:
            - name: hook
              webhook_configs:
                - url: %s
                  send_resolved: true
          """.formatted(routed.url("/from-am")));
      Process am = new ProcessBuilder(binary.toString(), "--config.file=" + dir.resolve("am.yml"),
          "--storage.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port, "--cluster.listen-address=")
          .redirectErrorStream(true).redirectOutput(dir.resolve("am.log").toFile()).start();
      try {
        HttpClient http = HttpClient.newHttpClient();
        URI base = URI.create("http://127.0.0.1:" + port);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
          try {
            if (http.send(HttpRequest.newBuilder(base.resolve("/-/ready")).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode() == 200) {
              break;
            }
          } catch (java.io.IOException e) {
            // not listening yet
          }
          assertThat(System.nanoTime()).as("Alertmanager ready; log: %s", Files.readString(dir.resolve("am.log")))
              .isLessThan(deadline);
          Thread.sleep(100);
        }

        AtomicReference<Double> value = new AtomicReference<>(50.0);
        long now = Instant.now().getEpochSecond() * 1_000_000_000L;
        Alerting alerting = new Alerting((r, t) -> new Evaluation.Outcome(value.get(), value.get().longValue(), -1,
            t - r.over(), t - 1, 0), new Delivery(), "mira-0", "https://mira.example", () -> now, true);
        alerting.replace(RulesFile.parse("rules.kyaml", """
            {rules: [{name: "checkout-errors", query: {signal: "logs", q: "service.name=checkout severity_number>=17"},
                      over: "5m", every: "30s", above: "10", labels: {team: "payments", severity: "page"}, targets: ["am"]}],
             targets: [{name: "am", alertmanager: "%s"}]}
            """.formatted(base)));
        alerting.evaluate("checkout-errors", now);
        Map<String, Object> rule = Json.obj(Json.list(Json.obj(alerting.render()).get("alerts")).getFirst());
        assertThat(Json.obj(Json.obj(Json.list(rule.get("targets")).getFirst()).get("last")))
            .as("Alertmanager accepted the POST").containsEntry("result", "ok").containsEntry("status", 200L);

        List<Object> active = Json.list(Json.parse(http.send(HttpRequest.newBuilder(base.resolve("/api/v2/alerts")).build(),
            HttpResponse.BodyHandlers.ofString()).body()));
        assertThat(active).hasSize(1);
        Map<String, Object> a = Json.obj(active.getFirst());
        assertThat(a.get("labels")).isEqualTo(Map.of("alertname", "checkout-errors", "team", "payments", "severity", "page"));
        assertThat(Json.obj(a.get("status"))).containsEntry("state", "active");
        assertThat((String) a.get("generatorURL")).startsWith("https://mira.example/#/logs?q=service.name%3Dcheckout");
        assertThat(Json.obj(a.get("annotations"))).containsEntry("value", "50")
            .containsEntry("filter", "service.name=checkout severity_number>=17");

        Map<String, Object> firing = Json.obj(routed.next(Duration.ofSeconds(20)).body());
        assertThat(firing).containsEntry("status", "firing").containsEntry("receiver", "hook");
        assertThat(Json.obj(Json.obj(Json.list(firing.get("alerts")).getFirst()).get("labels")))
            .containsEntry("alertname", "checkout-errors");

        value.set(2.0);
        // endsAt is the evaluation time, so it must not lie ahead of Alertmanager's clock.
        alerting.evaluate("checkout-errors", Instant.now().getEpochSecond() * 1_000_000_000L + 1);
        Map<String, Object> resolved = null;
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (resolved == null && System.nanoTime() < until) {
          Receiver.Request r = routed.next(Duration.ofSeconds(2));
          if (r != null && "resolved".equals(Json.obj(r.body()).get("status"))) {
            resolved = Json.obj(r.body());
          }
        }
        assertThat(resolved).as("Alertmanager routed the resolve").isNotNull();
        assertThat(Json.obj(Json.list(resolved.get("alerts")).getFirst())).containsEntry("status", "resolved");
        alerting.close();
      } finally {
        am.destroy();
        am.waitFor();
      }
    }
  }
}
