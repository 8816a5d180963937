/**
 * `ctxwin mcp` and a client that sends every argument as a string, as MCP Inspector 0.15 does
 * with `--tool-arg limit=5`: the SDK's client sends them to the built CLI over stdio; canonical
 * decimal strings are read as integers, other text is refused as before, the listed schemas still
 * say `integer`. Also what such a client is told: every result is labelled as data from the
 * sessions ctxwin keeps, and ctxwin's own sessions carry a title.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STORE_HISTORY_LABEL } from "../../core/history-view/limits.js";
import * as rows from "../../tools/session-history/test-support/history-rows.js";
import { startMcp, type McpSession } from "./test-support/mcp-client.js";
import { seededProject } from "../test-support/seeded-project.js";

let folder: string;
let mcp: McpSession;

beforeAll(async () => {
  folder = await seededProject("ctxwin-mcp-strings-", async (store) => {
    for (const name of ["alpha", "beta", "gamma"]) {
      await store.append(name, [
        rows.userText(`${name}: plan the orders migration\nwith details`),
        rows.assistantText(`${name} answers: migrate on friday`),
        rows.userText(`${name} thanks`),
      ]);
    }
  });
  mcp = await startMcp({ args: ["--dir", folder, "--memory", path.join(folder, "memory")], cwd: folder });
});

afterAll(async () => {
  await mcp?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Calls the memory tool on the tests' note, /memories/project/a.md. */
const onNote = (input: Record<string, unknown>) => mcp.call("memory", { path: "/memories/project/a.md", ...input });

describe("ctxwin mcp with every argument a string", () => {
  it("reads canonical decimal strings as integers in every action", async () => {
    const listed = await mcp.history({ action: "list_sessions", limit: "1", session_offset: "1" });
    expect(listed.result).toMatchObject({ ok: true, sessions_total: 3, next: { session_offset: 2 } });
    expect(listed.result["sessions"]).toHaveLength(1);
    const across = await mcp.history({
      action: "search",
      query: "migrat",
      limit: "2",
      session_offset: "0",
      max_item_chars: "40",
    });
    expect(across.result).toMatchObject({ ok: true, scope: "all_sessions" });
    const hits = (across.result["results"] as { hits: unknown[] }[]).flatMap((group) => group.hits);
    expect(hits).toHaveLength(2);
    const windows = await mcp.history({ action: "list_windows", session_id: "beta", limit: "1" });
    expect(windows.result).toMatchObject({ ok: true, action: "list_windows" });
    const items = await mcp.history({ action: "list_items", session_id: "beta", limit: "2" });
    expect((items.result["items"] as unknown[]).length).toBe(2);
    const ranked = await mcp.history({
      action: "search",
      session_id: "beta",
      query: "migrate friday",
      mode: "ranked",
      limit: "1",
      offset: "0",
    });
    expect(ranked.result).toMatchObject({ ok: true, mode: "ranked" });
    const page = await mcp.history({
      action: "read_item",
      session_id: "beta",
      item_id: "2",
      offset_chars: "5",
      limit_chars: "7",
    });
    expect(page.result).toMatchObject({ ok: true, text: "answers", next_offset_chars: 12 });
    expect(page.answer.isError).toBe(false);

    expect((await onNote({ command: "create", file_text: "one\nthree\n" })).isError).toBe(false);
    const inserted = await onNote({ command: "insert", insert_line: "1", insert_text: "two" });
    expect(inserted.isError).toBe(false);
    const viewed = await onNote({ command: "view", view_range: ["2", "-1"] });
    expect(viewed.content).toEqual([
      { type: "text", text: "File /memories/project/a.md — lines 2 to 3 of 3:\n     2\ttwo\n     3\tthree" },
    ]);
  });

  it("refuses any other text with the error result a wrong number gets", async () => {
    for (const text of ["5.5", "1e3", "", " 5", "+5", "05", "-5", "51"]) {
      const listed = await mcp.history({ action: "list_sessions", limit: text });
      expect(listed.result).toMatchObject({
        ok: false,
        error: {
          code: "invalid_input",
          message: `Invalid input: limit must be an integer from 1 to 50; got ${JSON.stringify(text)}.`,
        },
      });
      expect(listed.answer.isError).toBe(true);
      const items = await mcp.history({ action: "list_items", session_id: "beta", limit: text });
      expect(items.result).toMatchObject({
        ok: false,
        error: {
          code: "invalid_input",
          message: `Invalid input: limit must be an integer from 1 to 50 (search: up to 25); got ${JSON.stringify(text)}.`,
        },
      });
    }
    const insert = await onNote({ command: "insert", insert_line: "01", insert_text: "x" });
    expect(insert.isError).toBe(true);
    expect(insert.content).toEqual([
      { type: "text", text: expect.stringMatching(/insert_line must be a whole number/) },
    ]);
  });

  it("still lists integer fields as integers", async () => {
    const { tools } = await mcp.client.listTools();
    const history = tools.find((tool) => tool.name === "session_history")!.inputSchema as {
      properties: Record<string, { anyOf?: unknown[] }>;
    };
    for (const field of ["limit", "session_offset", "offset", "offset_chars", "limit_chars", "max_item_chars"]) {
      expect(history.properties[field]!.anyOf, field).toContainEqual(expect.objectContaining({ type: "integer" }));
      expect(JSON.stringify(history.properties[field]), field).not.toContain('"string"');
    }
  });

  it("titles ctxwin's own sessions by their first user message's first line", async () => {
    const listed = await mcp.history({ action: "list_sessions" });
    expect(
      (listed.result["sessions"] as { session_id: string; title: string | null }[])
        .map((entry) => [entry.session_id, entry.title])
        .sort(),
    ).toEqual([
      ["alpha", "alpha: plan the orders migration"],
      ["beta", "beta: plan the orders migration"],
      ["gamma", "gamma: plan the orders migration"],
    ]);
  });

  it("labels every result as data from the sessions ctxwin keeps, never as this session's", async () => {
    for (const input of [
      { action: "list_sessions" },
      { action: "search", query: "friday" },
      { action: "list_windows", session_id: "alpha" },
      { action: "read_item", session_id: "alpha", item_id: "2" },
      { action: "read_item", session_id: "alpha", item_id: "999" },
    ]) {
      const { result } = await mcp.history(input);
      expect(result["label"], JSON.stringify(input)).toBe(STORE_HISTORY_LABEL);
      expect(result["label"]).not.toMatch(/this session/);
    }
  });
});
