/**
 * Issue 46: a `tools/call` whose arguments nest 100,000 levels deep is refused with its id and a
 * message naming the nesting limit (512, as for stored rows), before anything walks it; the next
 * line is served. On in-memory streams, through the stdio transport `ctxwin mcp` runs.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readIncomingLine } from "./incoming-line.js";
import { StdioLineTransport } from "./stdio-line-transport.js";

const deep = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
const toolCall = (id: number, argument: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"session_history","arguments":{"action":"search","query":"x","extra":${argument}}}}`;

describe("ctxwin mcp: argument nesting", () => {
  it("refuses arguments nested 100,000 levels deep with the request's id and the limit, and serves the next line", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new StdioLineTransport({
      input,
      output,
      maxLineBytes: 10 * 1024 * 1024,
      report: () => undefined,
    });
    let written = "";
    output.on("data", (chunk: Buffer) => (written += chunk.toString("utf8")));
    const messages: unknown[] = [];
    const received = new Promise<void>((resolve) => {
      transport.onmessage = (message) => {
        messages.push(message);
        resolve();
      };
    });
    await transport.start();
    input.write(`${toolCall(7, deep(100_000))}\n`);
    input.write('{"jsonrpc":"2.0","id":8,"method":"ping"}\n');
    await received;
    const answers = written
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { id: unknown; error: { code: number; message: string } });
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ id: 7, error: { code: -32600 } });
    expect(answers[0]?.error.message).toMatch(/more than 512 levels deep; the limit is 512/);
    expect(messages).toEqual([{ jsonrpc: "2.0", id: 8, method: "ping" }]);
  });

  it("takes arguments within the limit", () => {
    // The message is level 1, params 2, arguments 3: `extra` may nest 509 levels (4 to 512).
    expect(readIncomingLine(toolCall(1, deep(509)))).toMatchObject({ kind: "message" });
    expect(readIncomingLine(toolCall(1, deep(510)))).toMatchObject({ kind: "refused", id: 1, code: -32600 });
  });
});
