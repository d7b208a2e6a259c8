package mira.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import mira.proto.wire.Signal;
import mira.query.doc.FilterText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RulesFileTest {
  /** The example, with real values. */
  static final String EXAMPLE = """
      {
        rules: [
          {name: "checkout-errors",
           query: {signal: "logs", where: [{attr: "service.name", eq: "checkout"}, {field: "severity_number", gte: "17"}]},
           over: "5m", every: "30s", for: "2m", above: "10",
           labels: {team: "payments", severity: "page"}, targets: ["pd", "slack"]},
          {name: "checkout-slow-p95",
           query: {signal: "traces", where: [{attr: "service.name", eq: "checkout"}, {field: "duration_nano", gt: "500000000"}]},
           of:    {signal: "traces", where: [{attr: "service.name", eq: "checkout"}]},
           over: "5m", every: "30s", above: "0.05", targets: ["am"]},
          {name: "queue-depth",
           series: {name: "queue.depth", where: [{attr: "queue", eq: "orders"}], fn: "max"}, over: "5m", every: "1m",
           above: "10000", targets: ["hook"]},
          {name: "quiet", query: {signal: "logs", q: "service.name=api k8s.pod.name?"}, over: "10m", below: "1", repeat: "1h"}
        ],
        targets: [
          {name: "slack", slack: "https://hooks.slack.com/services/T000/B000/XXXX"},
          {name: "pd", pagerduty: "R0UT1NGKEY", url: "https://events.eu.pagerduty.com/v2/enqueue"},
          {name: "am", alertmanager: "http://alertmanager:9093"},
          {name: "hook", webhook: "https://example.com/alerts", headers: {Authorization: "Bearer s3cret"}}
        ]
      }
      """;

  @Test
  void theExampleLoads() throws Exception {
    Rules rs = RulesFile.parse("rules.kyaml", EXAMPLE);
    assertThat(rs.rules()).extracting(Rule::name).containsExactly("checkout-errors", "checkout-slow-p95", "queue-depth",
        "quiet");
    Rule errors = rs.rules().get(0);
    assertThat(errors.kind()).isEqualTo(Rule.Kind.COUNT);
    assertThat(errors.signal()).isEqualTo(Signal.LOGS);
    assertThat(FilterText.print(errors.where())).isEqualTo("service.name=checkout severity_number>=\"17\"");
    assertThat(errors.over()).isEqualTo(300_000_000_000L);
    assertThat(errors.every()).isEqualTo(30_000_000_000L);
    assertThat(errors.hold()).isEqualTo(120_000_000_000L);
    assertThat(errors.repeat()).isEqualTo(4 * 3_600_000_000_000L);
    assertThat(errors.above()).isTrue();
    assertThat(errors.threshold()).isEqualTo(10.0);
    assertThat(errors.labels()).isEqualTo(Map.of("team", "payments", "severity", "page"));
    assertThat(errors.targets()).containsExactly("pd", "slack");

    Rule p95 = rs.rules().get(1);
    assertThat(p95.kind()).isEqualTo(Rule.Kind.RATIO);
    assertThat(p95.ofSignal()).isEqualTo(Signal.TRACES);
    assertThat(FilterText.print(p95.of())).isEqualTo("service.name=checkout");
    assertThat(p95.hold()).isZero();

    Rule depth = rs.rules().get(2);
    assertThat(depth.kind()).isEqualTo(Rule.Kind.METRIC);
    assertThat(depth.series()).isEqualTo("\"name\":\"queue.depth\",\"where\":[{\"attr\":\"queue\",\"eq\":\"orders\"}],\"fn\":\"max\"");
    assertThat(RulesFile.seriesQuery(depth.series(), 1_000_000_000_000L, depth.over(), "x").fn().step())
        .isEqualTo(depth.over());

    Rule quiet = rs.rules().get(3);
    assertThat(quiet.above()).isFalse();
    assertThat(quiet.every()).as("default every").isEqualTo(60_000_000_000L);
    assertThat(quiet.repeat()).isEqualTo(3_600_000_000_000L);
    assertThat(FilterText.print(quiet.where())).isEqualTo("service.name=api k8s.pod.name?");
    assertThat(quiet.targets()).isEmpty();

    assertThat(rs.targets().get("pd")).isInstanceOfSatisfying(Target.PagerDuty.class, p -> {
      assertThat(p.routingKey()).isEqualTo("R0UT1NGKEY");
      assertThat(p.url().toString()).isEqualTo("https://events.eu.pagerduty.com/v2/enqueue");
    });
    assertThat(rs.targets().get("am").url().toString()).isEqualTo("http://alertmanager:9093/api/v2/alerts");
    assertThat(((Target.Webhook) rs.targets().get("hook")).headers()).containsEntry("Authorization", "Bearer s3cret");
  }

  @Test
  void targetsNeverPrintTheirSecrets() throws Exception {
    Rules rs = RulesFile.parse("rules.kyaml", EXAMPLE);
    String printed = rs.targets().values().toString() + rs;
    assertThat(printed).doesNotContain("XXXX", "R0UT1NGKEY", "s3cret", "/services/", "/alerts", "/v2/enqueue")
        .contains("https://hooks.slack.com", "https://events.eu.pagerduty.com", "http://alertmanager:9093");
  }

  @Test
  void existsAndQuantileGetTheirJsonTypes() throws Exception {
    Rules rs = RulesFile.parse("r", """
        {rules: [
          {name: "a", query: {signal: "traces", where: [{attr: "db.system", exists: "true"}]}, over: "1m", above: "0"},
          {name: "b", series: {name: "latency", fn: "quantile", quantile: "0.99"}, over: "1m", above: "0.5"}
        ]}
        """);
    assertThat(FilterText.print(rs.rules().get(0).where())).isEqualTo("db.system?");
    assertThat(RulesFile.seriesQuery(rs.rules().get(1).series(), 0, 60_000_000_000L, "b").fn().quantile()).isEqualTo(0.99);
  }

  /** Each refusal names the position, the rule and the key. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      unknown key             | {name: "r", query: {signal: "logs"}, over: "5m", above: "1", limt: "3"}          | r:2:64: rule "r": unknown key limt; valid keys are name, query, of, series
      unquoted scalar         | {name: "r", query: {signal: "logs"}, over: 5m, above: "1"}                       | r:2:46: 5m is unquoted; every value must be a double-quoted string ("5m")
      single-quoted scalar    | {name: "r", query: {signal: 'logs'}, over: "5m", above: "1"}                     | r:2:31: 'logs' is unquoted
      limit in a query        | {name: "r", query: {signal: "logs", limit: "10"}, over: "5m", above: "1"}        | r:2:39: rule "r": query: limit is not allowed in a rule; the evaluator owns the window (over)
      from in a query         | {name: "r", query: {signal: "logs", from: "-1h"}, over: "5m", above: "1"}        | r:2:39: rule "r": query: from is not allowed in a rule
      after in an of          | {name: "r", query: {signal: "logs"}, of: {signal: "logs", after: "x"}, over: "5m", above: "1"} | rule "r": of: after is not allowed in a rule
      step in a series        | {name: "r", series: {name: "m", fn: "max", step: "1m"}, over: "5m", above: "1"}  | rule "r": series: step is not allowed in a rule
      unknown target          | {name: "r", query: {signal: "logs"}, over: "5m", above: "1", targets: ["nope"]}  | rule "r": targets: unknown target "nope"; defined: hook
      bad duration            | {name: "r", query: {signal: "logs"}, over: "5 minutes", above: "1"}              | rule "r": over: "5 minutes" is not a duration; write digits then ms, s, m, h or d
      bad for                 | {name: "r", query: {signal: "logs"}, over: "5m", for: "-1s", above: "1"}         | rule "r": for: "-1s" is not a duration
      bad number              | {name: "r", query: {signal: "logs"}, over: "5m", above: "ten"}                   | rule "r": above: "ten" is not a number
      both above and below    | {name: "r", query: {signal: "logs"}, over: "5m", above: "1", below: "2"}         | rule "r": give exactly one of above and below
      no query                | {name: "r", over: "5m", above: "1"}                                              | rule "r": give exactly one of query
      bad query term          | {name: "r", query: {signal: "logs", where: [{attr: "a", eqq: "1"}]}, over: "5m", above: "1"} | rule "r": query: unknown key "eqq" in where[0]
      bad filter text         | {name: "r", query: {signal: "logs", q: "a=\\"open"}, over: "5m", above: "1"}     | rule "r": query: q: column
      metrics are not counted | {name: "r", query: {signal: "metrics"}, over: "5m", above: "1"}                  | rule "r": query: signal: "metrics" is not searchable
      series without fn       | {name: "r", series: {name: "m"}, over: "5m", above: "1"}                         | rule "r": series needs a name and an fn
      alertname label         | {name: "r", query: {signal: "logs"}, over: "5m", above: "1", labels: {alertname: "x"}} | rule "r": label "alertname" must match
      every under a second    | {name: "r", query: {signal: "logs"}, over: "5m", every: "500ms", above: "1"}      | rule "r": over and every are at least 1s
      nameless rule           | {query: {signal: "logs"}, over: "5m", above: "1"}                                | r:2:3: a rule needs a name
      """)
  void refusals(String what, String rule, String message) {
    String text = "{targets: [{name: \"hook\", webhook: \"http://127.0.0.1:9/x\"}], rules: [\n  " + rule + "\n]}";
    assertThatThrownBy(() -> RulesFile.parse("r", text)).as(what).isInstanceOf(RulesException.class)
        .hasMessageContaining(message.strip());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      https URL that does not parse | {name: "t", slack: "https://hooks slack.com/x"}         | r:1:31: target "t": slack: not a URL (Illegal character in authority at index 13)
      no scheme                     | {name: "t", webhook: "hooks.example.com/x"}             | target "t": webhook: the URL must start with http:// or https://
      no host                       | {name: "t", alertmanager: "http:///api"}                | target "t": alertmanager: the URL has no host
      two kinds                     | {name: "t", slack: "https://a.example", webhook: "https://b.example"} | target "t": give exactly one of webhook, slack, pagerduty, alertmanager
      url on slack                  | {name: "t", slack: "https://a.example", url: "https://b.example"}     | target "t": url goes with pagerduty only
      empty routing key             | {name: "t", pagerduty: ""}                              | target "t": pagerduty is the routing key and is empty
      unknown key                   | {name: "t", webhook: "https://a.example", header: {}}   | target "t": unknown key header
      forbidden header              | {name: "t", webhook: "https://a.example", headers: {Host: "x"}} | target "t": header "Host" is not a header Mira may set
      """)
  void targetRefusals(String what, String target, String message) {
    String text = "{targets: [" + target + "], rules: []}";
    assertThatThrownBy(() -> RulesFile.parse("r", text)).as(what).isInstanceOf(RulesException.class)
        .hasMessageContaining(message.strip())
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("/x", "/api"));
  }

  @Test
  void fileLevelRefusals() {
    assertThatThrownBy(() -> RulesFile.parse("r", "{rules: [], alerts: []}")).hasMessage(
        "r:1:13: the rules file: unknown key alerts; valid keys are rules, targets");
    assertThatThrownBy(() -> RulesFile.parse("r", "{targets: []}")).hasMessageContaining("rules is required");
    assertThatThrownBy(() -> RulesFile.parse("r", "")).hasMessageContaining("empty");
    assertThatThrownBy(() -> RulesFile.parse("r", "{rules: [}")).hasMessageContaining("r:1:").hasMessageContaining("not valid KYAML");
    assertThatThrownBy(() -> RulesFile.parse("r", """
        {rules: [{name: "a", query: {signal: "logs"}, over: "1m", above: "1"},
                 {name: "a", query: {signal: "logs"}, over: "1m", above: "1"}]}
        """)).hasMessageContaining("r:2:10: rule \"a\" is defined twice");
    assertThatThrownBy(() -> RulesFile.parse("r", "{rules: [], rules: []}")).hasMessageContaining("key rules is given twice");
  }

  @Test
  void aMissingFileIsNamed() {
    assertThatThrownBy(() -> RulesFile.load(java.nio.file.Path.of("no-such-rules.kyaml")))
        .hasMessage("rules file no-such-rules.kyaml cannot be read: no such file");
  }
}
