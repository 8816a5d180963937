// The startup bench's baseline for `ctxwin mcp`: a bare MCP SDK stdio server with one tool.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "bare", version: "1.0.0" }, { capabilities: { tools: {} } });
server.registerTool(
  "echo",
  { description: "Echoes its text.", inputSchema: { text: z.string() } },
  async ({ text }) => ({
    content: [{ type: "text", text }],
  }),
);
await server.connect(new StdioServerTransport());
