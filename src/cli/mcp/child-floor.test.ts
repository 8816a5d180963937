/**
 * `ctxwin mcp` with a real MCP client (issue 46, ADR 0073): a child session started at or before
 * its parent's manual clear, and its own child, are neither listed nor searched nor readable by
 * `session_id`; a child started after the clear is.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHILD_SECRET, LATE_WORD, seedClearedChildTree } from "../../store/test-support/cleared-child-tree.js";
import { startMcp, type McpSession } from "./test-support/mcp-client.js";
import { seededProject } from "../test-support/seeded-project.js";

let folder: string;
let mcp: McpSession;

beforeAll(async () => {
  folder = await seededProject("ctxwin-mcp-child-floor-", seedClearedChildTree);
  mcp = await startMcp({ args: ["--dir", folder], cwd: folder });
});

afterAll(async () => {
  await mcp?.close();
  rmSync(folder, { recursive: true, force: true });
});

const notAvailable = { ok: false, error: { code: "session_not_available" } };

describe("ctxwin mcp: the privacy floor covers sub-agent children", () => {
  it("list_sessions leaves out the children a clear hides, and their pre-clear titles", async () => {
    const { result, text } = await mcp.history({ action: "list_sessions" });
    expect((result["sessions"] as { session_id: string }[]).map((entry) => entry.session_id).sort()).toEqual([
      "main",
      "main/late",
    ]);
    expect(result["sessions_total"]).toBe(2);
    expect(text).not.toContain("vault");
  });

  it("search across sessions finds nothing in the hidden children", async () => {
    const { result, text } = await mcp.history({ action: "search", query: "vault" });
    expect(result).toMatchObject({ ok: true, results: [] });
    expect(text).not.toContain(CHILD_SECRET);
    const late = await mcp.history({ action: "search", query: LATE_WORD });
    expect((late.result["results"] as { session_id: string }[]).map((group) => group.session_id)).toEqual([
      "main/late",
    ]);
  });

  it.each(["main/child", "main/child/grandchild"])(
    "search, read_item, list_items and list_windows with session_id %s are not available",
    async (sessionId) => {
      for (const input of [
        { action: "search", session_id: sessionId, query: "vault" },
        { action: "read_item", session_id: sessionId, item_id: "1" },
        { action: "list_items", session_id: sessionId },
        { action: "list_windows", session_id: sessionId },
      ]) {
        const { result, text } = await mcp.history(input);
        expect(result).toMatchObject({ ...notAvailable, action: input.action });
        expect(text).not.toContain(CHILD_SECRET);
      }
    },
  );

  it("a child started after the clear stays readable", async () => {
    const { result } = await mcp.history({ action: "list_items", session_id: "main/late" });
    expect(result).toMatchObject({ ok: true });
    expect(JSON.stringify(result)).toContain(LATE_WORD);
  });
});
