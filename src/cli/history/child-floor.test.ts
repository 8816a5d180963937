/**
 * `ctxwin history` applies the privacy floor to sub-agent children (issue 46, ADR 0073): a child
 * started at or before its parent's manual clear, and its own child, are not listed and cannot
 * be read, searched, exported, charted or forked; `--include-cleared` shows them to the person
 * who asks. Runs the command tree in this process (run-ctxwin-in-process.ts).
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../store/open-store.js";
import { CHILD_SECRET, seedClearedChildTree } from "../../store/test-support/cleared-child-tree.js";
import { runCtxwinInProcess } from "../test-support/run-ctxwin-in-process.js";
import { seededProject } from "../test-support/seeded-project.js";

let project: string;

beforeAll(async () => {
  project = await seededProject("ctxwin-history-child-floor-", seedClearedChildTree);
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

const ctxwin = (args: string[]) => runCtxwinInProcess(["history", ...args], { cwd: project });

describe("ctxwin history: the privacy floor covers sub-agent children", () => {
  it("sessions leaves the hidden children out, unless --include-cleared", async () => {
    const listed = await ctxwin(["sessions", "--json"]);
    expect(listed.status).toBe(0);
    expect((JSON.parse(listed.stdout) as { session_id: string }[]).map((entry) => entry.session_id).sort()).toEqual([
      "main",
      "main/late",
    ]);
    const all = await ctxwin(["sessions", "--json", "--include-cleared"]);
    expect((JSON.parse(all.stdout) as { session_id: string }[]).map((entry) => entry.session_id).sort()).toEqual([
      "main",
      "main/child",
      "main/child/grandchild",
      "main/late",
    ]);
  });

  it.each(["main/child", "main/child/grandchild"])(
    "windows, search, read, export and usage of %s refuse, naming --include-cleared",
    async (sessionId) => {
      for (const args of [
        ["windows", sessionId],
        ["search", sessionId, "vault"],
        ["read", sessionId, "1"],
        ["export", sessionId],
        ["usage", sessionId],
        ["items", sessionId, "w:0"],
      ]) {
        const result = await ctxwin(args);
        expect(result.status, args.join(" ")).toBe(1);
        expect(result.stdout).toBe("");
        expect(result.stderr).toMatch(/hidden; add --include-cleared to show it/);
        expect(result.stderr).not.toContain(CHILD_SECRET);
      }
    },
  );

  it("the person sees a hidden child with --include-cleared", async () => {
    const read = await ctxwin(["read", "main/child", "2", "--include-cleared"]);
    expect(read.status).toBe(0);
    expect(read.stdout).toContain(CHILD_SECRET);
  });

  it("fork of a hidden child is refused and writes nothing", async () => {
    const result = await ctxwin(["fork", "main/child", "--at", "2", "--as", "copied"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/manual clear of a session above it/);
    const store = openStore({ directory: project });
    try {
      expect(await store.session("copied")).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
