package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import mira.bench.agent.IncidentHour;
import mira.bench.agent.Investigation;
import mira.server.config.Key;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scripted agent on an incident corpus from the load generator: an hour of the fleet in which
 * the payment path starts failing at minute 40. In three MCP tool calls the script must find when
 * it started (to the minute), which service broke (where the failures start, not the services
 * that pass them on), the error logs that say why, and every service upstream of it — each
 * checked against what the generator did, not against a recorded answer.
 */
class AgentScenarioTest {
  @TempDir Path data;

  @Test
  void threeCallsFindTheBrokenServiceSinceWhenWhyAndWhoIsAffected() throws Exception {
    try (Node node = new Node(data, Map.of(Key.INGEST_WAL, "true"))) {
      IncidentHour hour = new IncidentHour(120_000, System.currentTimeMillis() * 1_000_000L, 1);
      hour.send(node.http());
      hour.awaitVisible(node.http(), Duration.ofSeconds(30));
      assertThat(hour.brokenInTraces()).as("the corpus has a broken service in its traces").isNotEmpty();
      assertThat(hour.upstream()).as("and services upstream of it").isNotEmpty();

      Investigation.Findings f = new Investigation(node.http()).run(hour.start(), hour.end());

      assertThat(f.calls()).hasSize(3);
      assertThat(f.since()).as("the incident's start, to the minute").isEqualTo(hour.incidentStart());
      assertThat(f.broken()).isEqualTo(hour.brokenInTraces());
      assertThat(f.upstream()).isEqualTo(hour.upstream());
      assertThat(f.errorLogs()).isNotEmpty().allSatisfy(l -> {
        String service = l.substring(0, l.indexOf(' '));
        assertThat(hour.brokenInTraces()).contains(service);
        long time = Long.parseLong(l.split(" ", 3)[1]);
        assertThat(time).isGreaterThanOrEqualTo(hour.incidentStart());
        assertThat(l.split(" ", 3)[2]).as("an error log that says what failed").isNotBlank();
      });
    }
  }
}
