package mira.server.api;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import mira.alert.Alerting;
import mira.mcp.McpServer;
import mira.query.LocalQueries;

/**
 * {@code /mcp}: the MCP server (docs/mcp.md) on the HTTP listener. The body is read with the same
 * limits as a query document; everything else — methods, headers, the JSON-RPC message — is
 * {@link McpServer}'s to judge.
 */
final class McpRoute {
  private final McpServer mcp;

  McpRoute(LocalQueries queries, String version, Alerting alerting, String linkBase) {
    this.mcp = new McpServer(queries, version, alerting::render, linkBase);
  }

  void route(HttpRouting.Builder r) {
    r.any("/mcp", (req, res) -> {
      String method = req.prologue().method().text();
      byte[] body = method.equals("POST") ? QueryRoutes.document(req, res) : new byte[0];
      if (body == null) {
        return; // refused (encoding, size) and answered already
      }
      McpServer.Reply reply = mcp.handle(method, name -> req.headers().first(HeaderNames.create(name)).orElse(null),
          body);
      if (reply.status() == 405) {
        res.header(HeaderNames.ALLOW, "POST");
      }
      res.status(Status.create(reply.status()));
      if (reply.body() == null) {
        res.send();
      } else {
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(reply.body());
      }
    });
  }
}
