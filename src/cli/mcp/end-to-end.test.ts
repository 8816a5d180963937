/**
 * Issue 18's "done when": a user runs two commands — `ctxwin import claude-code <transcript>`
 * and the MCP server their agent starts — and the agent finds, through session_history, a
 * detail that its own compaction dropped. Shown on the fixture transcript, whose compaction
 * summary no longer mentions the staging database's port.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { runCtxwin } from "../test-support/run-ctxwin.js";
import { startMcp, type McpSession } from "./test-support/mcp-client.js";
import { CLAUDE_CODE_FIXTURE as fixture } from "../../import/test-support/claude-code-fixture.js";

const folder = mkdtempSync(path.join(os.tmpdir(), "ctxwin-mcp-e2e-"));
let mcp: McpSession | undefined;

afterAll(async () => {
  await mcp?.close();
  rmSync(folder, { recursive: true, force: true });
});

it("finds through MCP a detail from before the transcript's compaction", async () => {
  const transcript = path.join(folder, "5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37.jsonl");
  copyFileSync(fixture, transcript);
  const compactionSummary =
    readFileSync(transcript, "utf8")
      .split("\n")
      .find((line) => line.includes('"isCompactSummary": true')) ?? "";
  expect(compactionSummary).toContain("staging database");
  expect(compactionSummary).not.toContain("6543");

  const imported = await runCtxwin(["import", "claude-code", transcript, "--dir", folder], { cwd: folder });
  expect(imported.status).toBe(0);

  mcp = await startMcp({ args: ["--dir", folder], cwd: folder });
  const sessions = await mcp.history({ action: "list_sessions", project: "/home/dev/shop-api" });
  const [session] = sessions.result["sessions"] as { session_id: string; title: string }[];
  expect(session?.title).toBe("Move the orders service to the new staging database.");

  const found = await mcp.history({ action: "search", query: "staging database port", mode: "ranked" });
  const group = (
    found.result["results"] as { session_id: string; hits: { item_id: string; window_id: string }[] }[]
  )[0];
  expect(group?.session_id).toBe(session?.session_id);

  // Within the session, the same words find every item about it, ranked.
  const within = await mcp.history({
    action: "search",
    session_id: group!.session_id,
    query: "staging database port",
    mode: "ranked",
    limit: 10,
  });
  const hits = within.result["hits"] as { item_id: string }[];

  const windows = await mcp.history({ action: "list_windows", session_id: group!.session_id });
  const compaction = (windows.result["windows"] as { window_id: string; kind: string }[]).find(
    (window) => window.kind === "compaction",
  );
  expect(compaction).toBeDefined();
  const compactionSeq = Number(compaction!.window_id.slice(2));
  const before = hits.filter((hit) => Number(hit.item_id) < compactionSeq);
  expect(before.length).toBeGreaterThan(0);

  const texts: string[] = [];
  for (const hit of before) {
    const read = await mcp.history({ action: "read_item", session_id: group!.session_id, item_id: hit.item_id });
    texts.push(String(read.result["text"]));
  }
  expect(texts.join("\n")).toContain("6543");
});
