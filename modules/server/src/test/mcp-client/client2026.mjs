// Connects the official 2026-07-28 MCP client (@modelcontextprotocol/client, pinned to that
// revision: no initialize, server/discover at connect, _meta on every request) to a Mira node,
// lists its tools, calls the tools given as JSON in argv[3], and prints what it saw as one JSON line.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const [url, callsJson] = process.argv.slice(2);
const calls = JSON.parse(callsJson ?? "[]");
const transport = new StreamableHTTPClientTransport(new URL(url));
const client = new Client({ name: "mira-mcp-client-test-2026", version: "1.0.0" },
  { versionNegotiation: { mode: { pin: "2026-07-28" } } });
await client.connect(transport);
const out = {
  protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
  era: client.getProtocolEra() ?? null,
  server: client.getServerVersion() ?? null,
  instructions: client.getInstructions() ?? null,
  tools: (await client.listTools()).tools,
  results: [],
};
for (const c of calls) {
  try {
    out.results.push(await client.callTool(c));
  } catch (e) {
    out.results.push({ thrown: String(e.message ?? e) });
  }
}
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
