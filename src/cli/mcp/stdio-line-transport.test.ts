/**
 * The stdio transport on in-memory streams: the id of a line too long to parse is read from its
 * top level only; a failing stdin closes the transport with a typed failure, an ending one without.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { McpTransportError, StdioLineTransport } from "./stdio-line-transport.js";

function connected(maxLineBytes = 64) {
  const input = new PassThrough();
  const output = new PassThrough();
  const reports: string[] = [];
  const transport = new StdioLineTransport({ input, output, maxLineBytes, report: (line) => reports.push(line) });
  const messages: unknown[] = [];
  const firstMessage = new Promise<void>((resolve) => {
    transport.onmessage = (message) => {
      messages.push(message);
      resolve();
    };
  });
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  // Every chunk written, collected as it comes: on Node 26 `output.read()` returns one buffered
  // chunk, not all of them, so reading the answers that way saw only the first.
  const written: string[] = [];
  output.on("data", (chunk: Buffer) => written.push(chunk.toString("utf8")));
  const answers = () =>
    written
      .join("")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { id: unknown; error: { code: number } });
  return { input, transport, messages, reports, answers, firstMessage, closed };
}

describe("StdioLineTransport", () => {
  it("refuses a line over the limit with the top-level id, wherever it is, and reads the next line", async () => {
    const { input, transport, messages, answers, firstMessage } = connected();
    await transport.start();
    const padding = "x".repeat(100);
    input.write(
      `{"jsonrpc":"2.0","method":"tools/call","params":{"id":1,"arguments":{"id":"inner","q":"${padding}"}},"id":"outer"}\n`,
    );
    input.write(`{"id":42,"pad":"${padding}\\"}","more":{"id":3}}\r\n`);
    input.write(`{"id":{"nested":1},"pad":"${padding}"}\n`);
    input.write(`{"idx":5,"pad":"${padding}"}\n`);
    // A line over the limit may arrive in any number of chunks.
    for (const piece of `{"pad":"${padding}",\n`.match(/.{1,7}/gs) ?? []) input.write(piece);
    input.write('{"jsonrpc":"2.0","id":9,"method":"ping"}\n');
    await firstMessage;
    expect(answers().map((answer) => [answer.id, answer.error.code])).toEqual([
      ["outer", -32600],
      [42, -32600],
      [null, -32600],
      [null, -32600],
      [null, -32600],
    ]);
    expect(messages).toEqual([{ jsonrpc: "2.0", id: 9, method: "ping" }]);
  });

  it("closes with a typed failure when stdin fails, and without one when stdin ends", async () => {
    const failing = connected();
    await failing.transport.start();
    failing.input.destroy(new Error("EIO: i/o error, read"));
    await failing.closed;
    expect(McpTransportError.isInstance(failing.transport.failure)).toBe(true);
    expect(failing.transport.failure?.message).toMatch(/stdin failed: EIO/);

    const ending = connected();
    await ending.transport.start();
    ending.input.end();
    await ending.closed;
    expect(ending.transport.failure).toBeUndefined();
  });
});
