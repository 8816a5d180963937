/**
 * `ctxwin history fork` and the session tree of `ctxwin history sessions`, run in process against
 * a real SQLite store in a temp project.
 */
import { rmSync } from "node:fs";
import { Command } from "commander";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RowInput } from "../../core/row.js";
import { registerHistoryCommand } from "./history-command.js";
import { seededProject } from "../test-support/seeded-project.js";

const user = (text: string): RowInput => ({ role: "user", parts: [{ type: "text", text }] });

let project: string;
beforeEach(async () => {
  project = await seededProject("ctxwin-fork-cli-", async (store) => {
    await store.append("main", [user("one"), user("two"), user("three")]);
    await store.append("main/researcher-1", [user("a task")], { parent: { sessionId: "main", itemId: "2" } });
  });
  process.exitCode = undefined;
});
afterEach(() => {
  rmSync(project, { recursive: true, force: true });
  process.exitCode = undefined;
});

async function history(...args: string[]) {
  const output = { stdout: "", stderr: "" };
  const program = new Command("ctxwin").exitOverride();
  registerHistoryCommand({
    program,
    output: { stdout: (chunk) => (output.stdout += chunk), stderr: (chunk) => (output.stderr += chunk) },
  });
  await program.parseAsync(["node", "ctxwin", "history", ...args, "--dir", project]);
  return { ...output, exitCode: process.exitCode };
}

describe("ctxwin history fork", () => {
  it("forks a session at an item; the fork shares its items and the tree shows children and forks", async () => {
    const forked = await history("fork", "main", "--at", "2", "--as", "main-retry");
    expect(forked).toMatchObject({ stdout: "Forked main at #2 as main-retry.\n", stderr: "" });
    const items = await history("search", "main-retry", "t", "--json");
    expect((JSON.parse(items.stdout) as { item_id: string }[]).map((hit) => hit.item_id)).toEqual(["2"]);

    const tree = (await history("sessions")).stdout.split("\n").filter((line) => line !== "");
    expect(tree).toHaveLength(3);
    const mainLine = tree.findIndex((line) => line.startsWith("main  "));
    expect(tree[mainLine + 1]).toMatch(/^└ main\/researcher-1 .*\(task at main #2\)$/);
    expect(tree.find((line) => line.startsWith("main-retry"))).toMatch(/\(fork of main at #2\)$/);
    const listed = JSON.parse((await history("sessions", "--json")).stdout) as Record<string, string>[];
    expect(listed.find((entry) => entry["session_id"] === "main-retry")).toMatchObject({
      fork_of: "main",
      fork_at_item: "2",
      last_item: "2",
    });
    expect(listed.find((entry) => entry["session_id"] === "main/researcher-1")).toMatchObject({
      parent_session_id: "main",
      parent_item: "2",
    });
  });

  it("refuses a bad fork with one line, writing nothing", async () => {
    const unknownItem = await history("fork", "main", "--at", "9", "--as", "f");
    expect(unknownItem.exitCode).toBe(1);
    expect(unknownItem.stderr).toMatch(
      /^ctxwin history: Cannot fork 'main' at item 9: its last item is 3\. Nothing was written\.\n$/,
    );
    const taken = await history("fork", "main", "--at", "1", "--as", "main/researcher-1");
    expect(taken.stderr).toMatch(/a session with that id exists/);
    const badItem = await history("fork", "main", "--at", "w:0");
    expect(badItem.stderr).toMatch(/--at must be an item id/);
    expect((await history("sessions", "--json")).stdout).not.toContain('"f"');
  });
});
