/**
 * The MCP SDK's own client, talking to the built `ctxwin mcp` in a child process over stdio,
 * as Claude Code or Codex would.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CTXWIN_BINARY } from "../../test-support/run-ctxwin.js";

export interface McpSession {
  client: Client;
  /** Calls a tool and returns its whole answer. */
  call: (name: string, input: unknown) => Promise<CallToolResult>;
  /** Calls session_history and parses its JSON result (the first text item); `note`: a second text item. */
  history: (
    input: unknown,
  ) => Promise<{ result: Record<string, unknown>; text: string; note: string | undefined; answer: CallToolResult }>;
  /** What the server wrote to stderr so far. */
  stderr: () => string;
  close: () => Promise<void>;
}

/**
 * @example
 * const mcp = await startMcp({ args: ["--dir", folder], cwd: folder });
 * const { result } = await mcp.history({ action: "list_sessions" });
 */
export async function startMcp({
  args,
  cwd,
  env = {},
}: {
  args: readonly string[];
  cwd: string;
  env?: Record<string, string>;
}): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CTXWIN_BINARY, "mcp", ...args],
    cwd,
    env: { ...(process.env as Record<string, string>), NO_COLOR: "1", ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "ctxwin-test", version: "0.0.0" });
  await client.connect(transport);
  const call = async (name: string, input: unknown) =>
    (await client.callTool({ name, arguments: input as Record<string, unknown> })) as CallToolResult;
  return {
    client,
    call,
    history: async (input) => {
      const answer = await call("session_history", input);
      const [first, second] = answer.content;
      const text = first?.type === "text" ? first.text : "";
      const note = second?.type === "text" ? second.text : undefined;
      return { result: JSON.parse(text) as Record<string, unknown>, text, note, answer };
    },
    stderr: () => stderr,
    close: () => client.close(),
  };
}
