/**
 * Issue 36: `ctxwin mcp` answers every line it cannot serve with a JSON-RPC error (parse error,
 * invalid request, invalid params, a line over the size limit) and keeps serving — through the
 * built CLI in a child process, fed raw stdin lines.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCtxwin } from "../test-support/run-ctxwin.js";
import { startRawMcp, type RawMcpProcess, type ServerLine } from "./test-support/raw-mcp-process.js";
import { CLAUDE_CODE_FIXTURE as fixture } from "../../import/test-support/claude-code-fixture.js";

const folder = mkdtempSync(path.join(os.tmpdir(), "ctxwin-mcp-malformed-"));
const MEBIBYTE = 1024 * 1024;
let server: RawMcpProcess;

beforeAll(async () => {
  const imported = await runCtxwin(["import", "claude-code", fixture, "--dir", folder], { cwd: folder });
  expect(imported.status).toBe(0);
  server = await startRawMcp({ args: ["--dir", folder], cwd: folder });
});

afterAll(() => {
  server.kill();
  rmSync(folder, { recursive: true, force: true });
});

const call = (id: number, params: unknown) => ({ jsonrpc: "2.0", id, method: "tools/call", params });

/** The one error answer, its message a single readable line. */
function onlyError(answers: ServerLine[]): { id: ServerLine["id"]; code: number; message: string } {
  expect(answers).toHaveLength(1);
  const [answer] = answers;
  expect(answer?.error).toBeDefined();
  expect(answer?.error?.message).not.toContain("\n");
  return { id: answer?.id, code: answer?.error?.code ?? 0, message: answer?.error?.message ?? "" };
}

/** The server still works: a real tool call is answered. */
async function stillServes(id: number): Promise<void> {
  server.writeLine(call(id, { name: "session_history", arguments: { action: "list_sessions" } }));
  const answer = await server.answerOf(id);
  expect(answer.error).toBeUndefined();
  expect(JSON.stringify(answer.result)).toContain("sessions");
}

describe("ctxwin mcp: lines it cannot serve", () => {
  it("answers a line that is not JSON with a parse error (-32700, id null)", async () => {
    const error = onlyError(await server.answersTo("this is not json {"));
    expect(error).toMatchObject({ id: null, code: -32700 });
    expect(error.message).toMatch(/not valid JSON/);
    await stillServes(1);
  });

  it("answers JSON that is not a JSON-RPC request with an invalid request (-32600)", async () => {
    expect(onlyError(await server.answersTo({ hello: "world" }))).toMatchObject({ id: null, code: -32600 });
    expect(onlyError(await server.answersTo([{ jsonrpc: "2.0", id: 2, method: "ping" }]))).toMatchObject({
      id: null,
      code: -32600,
    });
    expect(onlyError(await server.answersTo({ jsonrpc: "2.0", id: { x: 1 }, method: "ping" }))).toMatchObject({
      id: null,
      code: -32600,
    });
    expect(onlyError(await server.answersTo({ jsonrpc: "1.0", id: 3, method: "ping" }))).toMatchObject({
      id: 3,
      code: -32600,
    });
    await stillServes(4);
  });

  it("answers tools/call with params that are not an object with invalid params (-32602)", async () => {
    const error = onlyError(await server.answersTo(call(5, "hello")));
    expect(error).toMatchObject({ id: 5, code: -32602 });
    expect(error.message).toMatch(/params/);
    await stillServes(6);
  });

  it("answers tools/call whose arguments are a string with invalid params (-32602) in one readable line", async () => {
    const error = onlyError(await server.answersTo(call(7, { name: "session_history", arguments: "hello" })));
    expect(error).toMatchObject({ id: 7, code: -32602 });
    expect(error.message).toMatch(/^Invalid params for tools\/call: params\.arguments: .*object/);
    expect(error.message).not.toMatch(/[[{]/);
    await stillServes(8);
  });

  it("refuses a tools/call line over 10 MiB with its id (-32600) and keeps serving", async () => {
    const query = "x".repeat(10 * MEBIBYTE);
    const error = onlyError(
      await server.answersTo(call(9, { name: "session_history", arguments: { action: "search", query } })),
    );
    expect(error).toMatchObject({ id: 9, code: -32600 });
    expect(error.message).toMatch(/10485760 bytes/);
    await stillServes(10);
  });

  it("refuses an 11 MiB line of garbage (-32600, id null), keeps serving, and exits 0 when stdin ends", async () => {
    const error = onlyError(await server.answersTo("g".repeat(11 * MEBIBYTE)));
    expect(error).toMatchObject({ id: null, code: -32600 });
    await stillServes(11);
    expect(server.stderr()).toMatch(/refused a line of 11534336 bytes/);
    expect(await server.end()).toBe(0);
  });
});
