package mira.server.api;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import mira.alert.Alerting;
import mira.mcp.McpServer;
import mira.cluster.Cluster;

/**
 * {@code /mcp}: the MCP server (docs/mcp.md) on the HTTP listener. The body is read with the same
 * limits as a query document; everything else — methods, headers, the JSON-RPC message — is
 * {@link McpServer}'s to judge.
 */
final class McpRoute {
  private final McpServer mcp;

  McpRoute(Cluster cluster, String version, Alerting alerting, String linkBase) {
    this.mcp = new McpServer(cluster, version, alerting::render, linkBase);
  }

  void route(HttpRouting.Builder r) {
    r.any("/mcp", (req, res) -> {
      String method = req.prologue().method().text();
      byte[] body = method.equals("POST") ? QueryRoutes.document(req, res) : new byte[0];
      if (body == null) {
        return; // refused (encoding, size) and answered already
      }
      java.util.function.Supplier<McpServer.Reply> handle = () -> mcp.handle(method,
          name -> req.headers().first(HeaderNames.create(name)).orElse(null), body);
      // The caller's credentials go on to the peers a tool's cluster read asks.
      java.util.Optional<String> auth = req.headers().first(HeaderNames.AUTHORIZATION);
      McpServer.Reply reply = auth.isEmpty() ? handle.get()
          : ScopedValue.where(Cluster.AUTHORIZATION, auth.get()).call(handle::get);
      if (reply.status() == 405) {
        res.header(HeaderNames.ALLOW, "POST");
      }
      res.status(Status.create(reply.status()));
      if (reply.body() == null) {
        res.send();
      } else {
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        Compression.send(req, res, reply.body());
      }
    });
  }
}
