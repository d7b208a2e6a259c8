// Connects the official MCP TypeScript SDK client to a Mira node, lists its tools, calls the
// tools given as JSON in argv[3], and prints what it saw as one JSON line.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, callsJson] = process.argv.slice(2);
const calls = JSON.parse(callsJson ?? "[]");
const transport = new StreamableHTTPClientTransport(new URL(url));
const client = new Client({ name: "mira-mcp-client-test", version: "1.0.0" });
await client.connect(transport);
const out = {
  protocolVersion: transport.protocolVersion ?? null,
  sessionId: transport.sessionId ?? null,
  server: client.getServerVersion(),
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
