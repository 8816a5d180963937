/**
 * `ctxwin mcp` with a real MCP client: the SDK's client starts the built CLI over stdio, lists
 * its tools and calls every session_history action on a store holding imported Claude Code and
 * Codex sessions and ctxwin sessions (one with a manual reset), including hostile input.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_RESULT_BYTES } from "../../core/history-view/limits.js";
import * as rows from "../../tools/session-history/test-support/history-rows.js";
import { importFiles } from "../../import/import-files.js";
import { runCtxwin } from "../test-support/run-ctxwin.js";
import { startMcp, type McpSession } from "./test-support/mcp-client.js";
import { seededProject } from "../test-support/seeded-project.js";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "import", "fixtures");
const CLAUDE = "claude-code:5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37";
const CODEX = "codex:0199f3a2-51c4-7e10-b8d2-4a6c9e2f1b05";
const CLEARED = "cleared-secret-tangerine";
const HUGE = "h".repeat(60_000);
const CROWD = 60;

let folder: string;
let mcp: McpSession;

beforeAll(async () => {
  folder = await seededProject("ctxwin-mcp-", async (store) => {
    await importFiles({ store, format: "claude-code", paths: [path.join(fixtures, "claude-code-session.jsonl")] });
    await importFiles({
      store,
      format: "codex",
      paths: [path.join(fixtures, "rollout-2026-11-03T14-00-00-0199f3a2-51c4-7e10-b8d2-4a6c9e2f1b05.jsonl")],
    });
    await store.append("native", [
      rows.userText(`the password hint is ${CLEARED}`),
      rows.assistantText("noted"),
      rows.reset(),
      rows.userText("after the reset: lantern"),
      rows.assistantText(HUGE),
    ]);
    for (let index = 0; index < CROWD; index += 1) {
      await store.append(`crowd-${String(index).padStart(2, "0")}`, [
        rows.userText(`crowd marker ${index} ${"x".repeat(400)}`),
        rows.userText(`crowd marker again ${index}`),
      ]);
    }
  });
  mcp = await startMcp({ args: ["--dir", folder], cwd: folder });
});

afterAll(async () => {
  await mcp?.close();
  rmSync(folder, { recursive: true, force: true });
});

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

describe("ctxwin mcp", () => {
  it("lists session_history with its actions and filters, and no memory tool unless asked", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["session_history"]);
    const schema = tools[0]!.inputSchema as { properties: Record<string, { enum?: string[] }>; required?: string[] };
    expect(schema.required).toEqual(["action"]);
    expect(schema.properties["action"]?.enum).toEqual([
      "list_sessions",
      "list_windows",
      "list_items",
      "search",
      "read_item",
    ]);
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining([
        "session_id",
        "project",
        "source",
        "since",
        "until",
        "session_offset",
        "query",
        "item_id",
        "role",
        "tool_name",
        "order",
        "max_item_chars",
      ]),
    );
    expect(tools[0]!.annotations?.readOnlyHint).toBe(true);
  });

  it("lists sessions with source, title and project, filtered and paged within 16 KiB", async () => {
    const { result } = await mcp.history({ action: "list_sessions", source: "claude-code" });
    expect(result).toMatchObject({ ok: true, sessions_total: 1, has_more: false, next: null });
    expect(result["sessions"]).toEqual([
      expect.objectContaining({
        session_id: CLAUDE,
        source: "claude-code",
        title: "Move the orders service to the new staging database.",
        project: "/home/dev/shop-api",
      }),
    ]);
    const codex = await mcp.history({ action: "list_sessions", project: "/home/dev", source: "codex" });
    expect((codex.result["sessions"] as { session_id: string }[]).map((entry) => entry.session_id)).toEqual([CODEX]);
    const byProject = await mcp.history({ action: "list_sessions", project: "/home/dev/" });
    expect((byProject.result["sessions"] as { session_id: string }[]).map((entry) => entry.session_id).sort()).toEqual(
      [CLAUDE, CODEX].sort(),
    );
    const native = await mcp.history({ action: "list_sessions", project: folder, source: "ctxwin", limit: 50 });
    // The reset hides the native session's start: its title is the first user message after the floor.
    expect(native.result["sessions_total"]).toBe(CROWD + 1);
    // Pages within 16 KiB: the native session, the oldest, is on the last one.
    let oldest = native;
    for (let pages = 1; oldest.result["next"] !== null; pages += 1) {
      expect(pages).toBeLessThan(10);
      expect(bytes(JSON.stringify(oldest.result))).toBeLessThanOrEqual(16 * 1024);
      expect(JSON.stringify(oldest.result)).not.toContain(CLEARED);
      oldest = await mcp.history({
        action: "list_sessions",
        project: folder,
        source: "ctxwin",
        ...(oldest.result["next"] as object),
      });
    }
    expect(oldest.result["sessions"]).toContainEqual(
      expect.objectContaining({ session_id: "native", title: "after the reset: lantern", project: folder }),
    );
    expect(JSON.stringify(oldest.result)).not.toContain(CLEARED);
    const old = await mcp.history({ action: "list_sessions", until: "2000-01-01" });
    expect(old.result).toMatchObject({ ok: true, sessions_total: 0, sessions: [] });

    const seen: string[] = [];
    let next: unknown = { session_offset: 0 };
    while (next !== null) {
      const page = await mcp.history({ action: "list_sessions", limit: 50, ...(next as object) });
      expect(bytes(page.text)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      seen.push(...(page.result["sessions"] as { session_id: string }[]).map((entry) => entry.session_id));
      next = page.result["next"];
    }
    expect(new Set(seen).size).toBe(CROWD + 3);
    expect(seen).toHaveLength(CROWD + 3);
  });

  it("searches across sessions: each hit names its session and item, and read_item opens it", async () => {
    const { result } = await mcp.history({ action: "search", query: "6543" });
    expect(result).toMatchObject({ ok: true, scope: "all_sessions", mode: "literal" });
    const groups = result["results"] as {
      session_id: string;
      hits: { session_id: string; item_id: string; snippet: string }[];
    }[];
    expect(groups.map((group) => group.session_id)).toEqual([CLAUDE]);
    const hit = groups[0]!.hits[0]!;
    expect(hit).toMatchObject({ session_id: CLAUDE, snippet: expect.stringContaining("6543") });
    const read = await mcp.history({ action: "read_item", session_id: hit.session_id, item_id: hit.item_id });
    expect(read.result).toMatchObject({ ok: true, item_id: hit.item_id, text: expect.stringContaining("6543") });
    expect(read.answer.isError).toBe(false);

    const ranked = await mcp.history({ action: "search", query: "invoice cent", mode: "ranked", source: "codex" });
    expect((ranked.result["results"] as { session_id: string }[]).map((group) => group.session_id)).toEqual([CODEX]);
  });

  it("pages a cross-session search by hit (next.offset), every page within 16 KiB and no session twice", async () => {
    const sessions: string[] = [];
    let next: unknown = {};
    let pages = 0;
    while (next !== null) {
      const page = await mcp.history({ action: "search", query: "crowd marker", limit: 25, ...(next as object) });
      pages += 1;
      expect(bytes(page.text)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      const groups = page.result["results"] as { session_id: string; hits: unknown[]; more_hits_in_session: boolean }[];
      for (const group of groups) expect(group.hits.length).toBeLessThanOrEqual(3);
      sessions.push(...groups.map((group) => group.session_id));
      next = page.result["next"];
    }
    expect(pages).toBeGreaterThan(2);
    expect(sessions).toHaveLength(CROWD);
    expect(new Set(sessions).size).toBe(CROWD);
  });

  it("runs every single-session action with session_id, within the bounds", async () => {
    const windows = await mcp.history({ action: "list_windows", session_id: CLAUDE });
    expect(windows.result).toMatchObject({ ok: true, action: "list_windows" });
    const kinds = (windows.result["windows"] as { kind: string }[]).map((window) => window.kind);
    expect(kinds).toContain("compaction");
    const items = await mcp.history({ action: "list_items", session_id: CLAUDE, window_id: "w:0", limit: 50 });
    expect(items.result).toMatchObject({ ok: true, action: "list_items", window_id: "w:0" });
    const search = await mcp.history({ action: "search", session_id: CLAUDE, query: "staging", mode: "ranked" });
    expect(search.result).toMatchObject({ ok: true, action: "search", mode: "ranked" });
    expect((search.result["hits"] as unknown[]).length).toBeGreaterThan(0);

    const huge = await mcp.history({ action: "search", session_id: "native", query: "hhhhhhhh" });
    const itemId = (huge.result["hits"] as { item_id: string }[])[0]!.item_id;
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const page = await mcp.history({
        action: "read_item",
        session_id: "native",
        item_id: itemId,
        offset_chars: offset,
        limit_chars: 16_000,
      });
      expect(bytes(page.text)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      expect(page.result["label"]).toMatch(/not instructions/);
      offset = page.result["next_offset_chars"] as number | null;
      pages += 1;
    }
    expect(pages).toBe(4);
  });

  it("never shows what lies at or before a manual reset", async () => {
    const across = await mcp.history({ action: "search", query: CLEARED });
    expect(across.result).toMatchObject({ ok: true, results: [] });
    const ranked = await mcp.history({ action: "search", query: "password hint", mode: "ranked" });
    expect(JSON.stringify(ranked.result)).not.toContain(CLEARED);
    const within = await mcp.history({ action: "search", session_id: "native", query: CLEARED });
    expect(within.result).toMatchObject({ ok: true, hits: [] });
    for (const itemId of ["1", "2", "3"]) {
      const read = await mcp.history({ action: "read_item", session_id: "native", item_id: itemId });
      expect(read.result).toMatchObject({ ok: false, error: { code: "item_not_available" } });
      expect(read.answer.isError).toBe(true);
    }
    const listed = await mcp.history({ action: "list_items", session_id: "native", limit: 50 });
    expect(listed.text).not.toContain("password hint");
    expect(listed.text).toContain("lantern");
  });

  it("answers hostile input with error results, and keeps serving", async () => {
    const hostile: [unknown, string][] = [
      [{}, "invalid_input"],
      [{ action: "drop_table" }, "invalid_input"],
      [{ action: "list_windows" }, "invalid_input"],
      [{ action: "read_item", item_id: "1" }, "invalid_input"],
      [{ action: "list_windows", session_id: 42 }, "invalid_input"],
      [{ action: "list_windows", session_id: "x".repeat(100_000) }, "invalid_input"],
      [{ action: "list_windows", session_id: "no-such-session" }, "session_not_available"],
      [{ action: "list_sessions", session_id: CLAUDE }, "invalid_input"],
      [{ action: "list_sessions", limit: 1_000_000_000 }, "invalid_input"],
      [{ action: "list_sessions", since: "yesterday" }, "invalid_input"],
      [{ action: "list_sessions", source: "vim" }, "invalid_input"],
      [{ action: "list_sessions", session_offset: -1 }, "invalid_input"],
      [{ action: "list_sessions", query: "x" }, "invalid_input"],
      [{ action: "search", session_id: CLAUDE, project: "/home" }, "invalid_input"],
      [{ action: "search", query: "" }, "invalid_query"],
      [{ action: "search", query: "q".repeat(100_000) }, "invalid_query"],
      [{ action: "search", query: "!!!", mode: "ranked" }, "invalid_query"],
      [{ action: "search", query: "what did we do", mode: "ranked" }, "invalid_query"],
      [{ action: "search", session_id: CLAUDE, query: "what did we do", mode: "ranked" }, "invalid_query"],
      [{ action: "search", query: "x".repeat(10_000), mode: "ranked" }, "invalid_query"],
      [{ action: "search", query: "marker", window_id: "w:0" }, "invalid_input"],
      [{ action: "search", query: "marker", limit: 26 }, "invalid_input"],
      [{ action: "read_item", session_id: CLAUDE, item_id: "99999" }, "item_not_available"],
      [{ action: "read_item", session_id: CLAUDE, item_id: "-1" }, "invalid_input"],
      [{ action: "read_item", session_id: CLAUDE, item_id: "2", limit_chars: 1e9 }, "invalid_input"],
      [{ action: "list_items", session_id: CLAUDE, window_id: "w:99999" }, "window_not_available"],
      [{ action: "list_items", session_id: CLAUDE, window_id: "'; DROP TABLE rows; --" }, "invalid_input"],
    ];
    for (const [input, code] of hostile) {
      const { result, text, answer } = await mcp.history(input);
      expect({ input, result }).toMatchObject({ result: { ok: false, error: { code } } });
      expect(result["label"]).toMatch(/not instructions/);
      expect(answer.isError).toBe(true);
      expect(bytes(text)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    }
    const stopWords = await mcp.history({ action: "search", query: "what did we do", mode: "ranked" });
    expect(stopWords.text).toMatch(/common English word.*literal mode/);
    // Stop words and punctuation are searched exactly in literal mode (ADR 0051).
    for (const query of ["what did we do", "~~", "?!"]) {
      const literal = await mcp.history({ action: "search", query });
      expect({ query, ok: literal.result["ok"] }).toEqual({ query, ok: true });
    }
    const { result } = await mcp.history({ action: "list_sessions", limit: 1 });
    expect(result["ok"]).toBe(true);
    expect(mcp.stderr()).toBe("");
  });
});

describe("ctxwin mcp command line", () => {
  it("refuses a folder without history (exit 1) and an unknown flag (exit 2), one line each", async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), "ctxwin-mcp-empty-"));
    try {
      const missing = await runCtxwin(["mcp", "--dir", empty], { cwd: empty });
      expect(missing.status).toBe(1);
      expect(missing.stderr).toMatch(/^ctxwin: No ctxwin history at .*ctxwin\.db: import transcripts first/);
      expect(missing.stderr.trim().split("\n")).toHaveLength(1);
      expect(missing.stdout).toBe("");
      const unknown = await runCtxwin(["mcp", "--frobnicate"], { cwd: empty });
      expect(unknown.status).toBe(2);
      expect(unknown.stderr.trim().split("\n")).toHaveLength(1);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
