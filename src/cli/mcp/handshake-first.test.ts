/**
 * `ctxwin mcp` answers the client's handshake before it opens the store (issue 49): a coding CLI
 * offers only the tools of a server that answered in time. Shown with a file that is no database:
 * `initialize` and `tools/list` are answered, then opening the store fails and ends the server
 * with that error (exit code 1). Before, the server exited without answering.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CTXWIN_BINARY } from "../test-support/run-ctxwin.js";

const folder = mkdtempSync(path.join(os.tmpdir(), "ctxwin-mcp-handshake-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("ctxwin mcp", () => {
  it("answers initialize and tools/list before it opens the store", async () => {
    const database = path.join(folder, "not-a-database.db");
    writeFileSync(database, "this is not a SQLite file\n".repeat(200));
    const child = spawn(process.execPath, [CTXWIN_BINARY, "mcp", "--db", database], { cwd: folder });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      if (stdout.includes('"id":1') && !stdout.includes('"id":2')) {
        send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
        send({ jsonrpc: "2.0", method: "notifications/initialized" });
      }
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const clientInfo = { name: "test", version: "1.0.0" };
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo },
    });

    expect(await exited).toBe(1);
    const answers = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: number; result: { tools?: { name: string }[] } });
    expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
    expect(answers[1]!.result.tools!.map((tool) => tool.name)).toEqual(["session_history"]);
    expect(stderr.trim()).toMatch(/not a ctxwin database/);
    expect(stderr.trim().split("\n")).toHaveLength(1);
  });
});
