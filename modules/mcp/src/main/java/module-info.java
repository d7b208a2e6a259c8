/**
 * The MCP server: JSON-RPC 2.0 documents in, JSON documents out, over the same typed operations
 * as the HTTP API. No HTTP server of its own and no Helidon: the server module hands it each
 * {@code POST /mcp} request's headers and body and sends back what it returns.
 */
module mira.mcp {
  requires transitive mira.query;
  requires transitive mira.cluster;
  requires com.fasterxml.jackson.core;

  exports mira.mcp;
}
