package mira.server.api;

import io.helidon.webserver.http.HttpRouting;
import java.util.function.Consumer;
import mira.alert.Alerting;
import mira.cluster.Cluster;
import mira.server.ingest.Ingest;
import mira.server.retention.RetentionSweeper;
import mira.server.ui.Bundle;
import mira.server.ui.UiRoutes;

/** Every route of the HTTP API, for {@code MiraServer.start}. */
public final class Api {
  private Api() {}

  /**
   * The stats route, the query routes over {@code cluster} (this node and its peers), MCP, alerts and the browser UI's files.
   *
   * @param retention the retention sweeper whose state the stats report, or null if none runs
   * @param version Mira's version, which the MCP server names in {@code serverInfo}
   * @param alerting the evaluator whose rules {@code /api/v1/alerts} shows ({@link Alerting#off} when off)
   * @param linkBase the {@code link_base} setting (empty if unset), whose origin the MCP server allows
   *     beside loopback
   */
  public static Consumer<HttpRouting.Builder> routes(String node, Ingest ingest, Cluster cluster,
      RetentionSweeper retention, String version, Alerting alerting, String linkBase) {
    StatsRoute stats = new StatsRoute(node, ingest, retention);
    QueryRoutes query = new QueryRoutes(cluster);
    McpRoute mcp = new McpRoute(cluster, version, alerting, linkBase);
    AlertsRoute alerts = new AlertsRoute(alerting);
    UiRoutes ui = new UiRoutes(Bundle.load());
    return r -> {
      stats.route(r);
      query.route(r);
      mcp.route(r);
      alerts.route(r);
      ui.route(r);
    };
  }
}
