/**
 * A project's store gets only that project's sessions (issue 47): Claude Code's folder for the
 * project under ~/.claude/projects, and the Codex rollouts whose cwd is inside the project — not
 * a sibling whose path merely starts the same, not another project's.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importFiles } from "./import-files.js";
import { claudeCodeProjectFolderName, projectSourcePaths } from "./project-sessions.js";
import { scratchStores } from "./test-support/scratch-stores.js";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const CLAUDE_SESSION = "5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37";
const CODEX_ROLLOUT = "rollout-2026-12-01T11-00-00-01b2c3d4-e5f6-7a8b-9c0d-1e2f3a4b5c6d.jsonl";
const { temporaryDirectory, openScratchStore } = scratchStores("ctxwin-project-sessions-");

/** The Claude Code fixture as a session of `project`, under `home`'s ~/.claude/projects. */
function claudeCodeSession(home: string, project: string, sessionId: string): void {
  const folder = path.join(home, ".claude", "projects", claudeCodeProjectFolderName(project));
  mkdirSync(folder, { recursive: true });
  const text = readFileSync(path.join(fixtures, "claude-code-session.jsonl"), "utf8")
    .replaceAll(CLAUDE_SESSION, sessionId)
    .replaceAll("/home/dev/shop-api", project);
  writeFileSync(path.join(folder, `${sessionId}.jsonl`), text);
}

/** The Codex fixture as a session that ran in `cwd`, under `home`'s ~/.codex/sessions. */
function codexSession(home: string, cwd: string, sessionId: string): string {
  const folder = path.join(home, ".codex", "sessions", "2026", "12", "01");
  mkdirSync(folder, { recursive: true });
  const text = readFileSync(path.join(fixtures, "codex-0.171.0", CODEX_ROLLOUT), "utf8")
    .replaceAll("01b2c3d4-e5f6-7a8b-9c0d-1e2f3a4b5c6d", sessionId)
    .replaceAll("/home/dev/billing", cwd);
  const file = path.join(folder, `rollout-2026-12-01T11-00-00-${sessionId}.jsonl`);
  writeFileSync(file, text);
  return file;
}

async function sessionIds(store: ReturnType<typeof openScratchStore>): Promise<string[]> {
  return (await store.sessions()).map((session) => session.sessionId).sort();
}

describe("a project's sessions", () => {
  it("names Claude Code's folder as Claude Code does", () => {
    expect(claudeCodeProjectFolderName("/home/dev/shop-api")).toBe("-home-dev-shop-api");
    expect(claudeCodeProjectFolderName("/home/dev/my_app.v2")).toBe("-home-dev-my-app-v2");
  });

  it("Claude Code: only the project's folder is imported", async () => {
    const home = temporaryDirectory();
    const project = path.join(home, "work", "shop-api");
    claudeCodeSession(home, project, "11111111-1111-4111-8111-111111111111");
    claudeCodeSession(home, path.join(home, "work", "billing"), "22222222-2222-4222-8222-222222222222");
    claudeCodeSession(home, `${project}-old`, "33333333-3333-4333-8333-333333333333");

    const paths = await projectSourcePaths({
      format: "claude-code",
      project,
      sourceFolder: path.join(home, ".claude", "projects"),
    });
    const store = openScratchStore();
    await importFiles({ store, format: "claude-code", paths });
    expect(await sessionIds(store)).toEqual(["claude-code:11111111-1111-4111-8111-111111111111"]);
  });

  it("Codex: only sessions whose cwd is the project or inside it", async () => {
    const home = temporaryDirectory();
    const project = path.join(home, "work", "shop-api");
    const inProject = codexSession(home, project, "01b2c3d4-e5f6-7a8b-9c0d-000000000001");
    const below = codexSession(home, path.join(project, "services", "orders"), "01b2c3d4-e5f6-7a8b-9c0d-000000000002");
    codexSession(home, `${project}-old`, "01b2c3d4-e5f6-7a8b-9c0d-000000000003");
    codexSession(home, path.join(home, "work", "billing"), "01b2c3d4-e5f6-7a8b-9c0d-000000000004");

    const paths = await projectSourcePaths({
      format: "codex",
      project,
      sourceFolder: path.join(home, ".codex", "sessions"),
    });
    expect(paths).toEqual([inProject, below]);
    const store = openScratchStore();
    await importFiles({ store, format: "codex", paths });
    expect(await sessionIds(store)).toEqual([
      "codex:01b2c3d4-e5f6-7a8b-9c0d-000000000001",
      "codex:01b2c3d4-e5f6-7a8b-9c0d-000000000002",
    ]);
  });
});
