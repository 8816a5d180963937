/**
 * What the session lists say of imported sessions (issues 30 and 31): `ctxwin history sessions
 * --json` and the MCP `list_sessions` give the transcript's own start and end times, git branch,
 * model, and a sub-agent's parent session and item. Issue 50: every session is listed with its
 * transcript's times and its title (the first user message), newest activity first, and `history
 * search <text>` without a session id searches every session as `session_history` does.
 */
import { cpSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importFiles } from "../../import/import-files.js";
import { createMemoryStore } from "../../store/memory/memory-store.js";
import type { HistoryStore } from "../../store/port.js";
import { listSessions as listCatalogSessions } from "../../tools/session-catalog/list-sessions.js";
import { SessionCatalog } from "../../tools/session-catalog/session-descriptors.js";
import { formatSessions } from "./format-human.js";
import { listSessions } from "./history-queries.js";
import { runCtxwinInProcess } from "../test-support/run-ctxwin-in-process.js";
import { testData } from "../../../test/test-data.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../import/fixtures");
const interactive = testData(
  "transcripts/claude-code-2.1.197-interactive",
  "the session-list test of real interactive sessions",
);
const PARENT = "codex:01c0ffee-0000-7000-8000-000000000001";
const CHILD = "codex:01c0ffee-0000-7000-8000-000000000002";

/** The Codex sessions as `session_history`'s `list_sessions` lists them (none when it refuses). */
async function codexSessionsListed(store: HistoryStore) {
  const listed = await listCatalogSessions({
    catalog: new SessionCatalog({ store }),
    filter: { source: "codex" },
    offset: 0,
  });
  return listed.ok ? listed.sessions : [];
}

describe("imported sessions in the session lists", () => {
  it("history sessions --json and list_sessions show times, branch, model and parent from the transcript", async () => {
    const store = createMemoryStore();
    await importFiles({ store, format: "codex", paths: [path.join(fixtures, "codex-0.171.0-subagent")], settleMs: 0 });
    const spawnItem = (await store.session(CHILD))?.parent?.itemId;
    expect(spawnItem).toMatch(/^\d+$/);

    const byId = new Map((await listSessions({ store })).map((entry) => [entry.session_id, entry]));
    expect(byId.get(PARENT)).toMatchObject({
      source_session_id: "01c0ffee-0000-7000-8000-000000000001",
      started_at: "2026-12-04T11:00:00.000Z",
      ended_at: "2026-12-04T11:00:06.000Z",
      git_branch: "release/2026-12",
      model: "gpt-5.1-codex",
    });
    expect(byId.get(CHILD)).toMatchObject({
      started_at: "2026-12-04T11:00:01.200Z",
      model: "gpt-5.1-codex-mini",
      parent_session_id: PARENT,
      parent_item: spawnItem,
    });

    const sessions = await codexSessionsListed(store);
    expect(sessions.find((entry) => entry.session_id === PARENT)).toMatchObject({
      git_branch: "release/2026-12",
      model: "gpt-5.1-codex",
      parent_session_id: null,
      parent_item_id: null,
      started_at: "2026-12-04T11:00:00.000Z",
      ended_at: "2026-12-04T11:00:06.000Z",
    });
    expect(sessions.find((entry) => entry.session_id === CHILD)).toMatchObject({
      model: "gpt-5.1-codex-mini",
      git_branch: null,
      parent_session_id: PARENT,
      parent_item_id: spawnItem,
    });
  });

  it("a sub-agent imported before its parent is attached by the import that brings the parent: tree, --json and list_sessions", async () => {
    const source = path.join(fixtures, "codex-0.171.0-subagent");
    const folder = mkdtempSync(path.join(tmpdir(), "ctxwin-reattach-"));
    const fileOf = (id: string) => readdirSync(source).find((name) => name.includes(id.slice(-12)))!;
    // Settled even with settleMs 0 (a fresh copy's mtime can be ahead of Date.now()).
    const copy = (id: string) => {
      cpSync(path.join(source, fileOf(id)), path.join(folder, fileOf(id)));
      utimesSync(path.join(folder, fileOf(id)), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    };
    const store = createMemoryStore();
    copy(CHILD);
    await importFiles({ store, format: "codex", paths: [folder], settleMs: 0 });
    expect(formatSessions(await listSessions({ store }))).not.toMatch(/└/);

    copy(PARENT);
    const report = await importFiles({ store, format: "codex", paths: [folder], settleMs: 0 });
    expect(report).toMatchObject({ childrenReattached: 1, warnings: [] });
    const spawnItem = (await store.session(CHILD))?.parent?.itemId;
    expect(spawnItem).toMatch(/^\d+$/);
    expect(spawnItem).not.toBe("1");

    const lines = formatSessions(await listSessions({ store })).split("\n");
    expect(lines[0]).toMatch(new RegExp(`^${PARENT} `));
    expect(lines[1]).toMatch(new RegExp(`^└ ${CHILD} .*\\(task at ${PARENT} #${spawnItem}\\)`));
    const sessions = await codexSessionsListed(store);
    expect(sessions.find((entry) => entry.session_id === CHILD)).toMatchObject({
      parent_session_id: PARENT,
      parent_item_id: spawnItem,
    });
  });
});

const NEWER = "claude-code:0a000000-0000-4000-8000-000000000002";
const OLDER = "claude-code:0a000000-0000-4000-8000-000000000001";

/** `ctxwin <args…> --dir <project>`, in this process. */
const inProject = (project: string, ...args: string[]) =>
  runCtxwinInProcess([...args, "--dir", project], { cwd: project });

/** A project folder whose store holds two imported Claude Code sessions, the older one imported last. */
async function projectWithTwoSessions(): Promise<string> {
  const project = mkdtempSync(path.join(tmpdir(), "ctxwin-history-imported-"));
  const sources = mkdtempSync(path.join(tmpdir(), "ctxwin-history-sources-"));
  const session = (id: string, day: number, prompt: string) => {
    const at = (second: number) => new Date(Date.UTC(2026, 10, day, 9, 0, second)).toISOString();
    const line = (body: Record<string, unknown>) =>
      JSON.stringify({ sessionId: id, cwd: "/home/dev/app", isSidechain: false, ...body });
    const answer = { role: "assistant", model: "claude-opus-4-8", content: [{ type: "text", text: "Noted." }] };
    const file = path.join(sources, `${id}.jsonl`);
    const lines = [
      // An untimed first line (issue 50): the session still starts at its transcript's first time.
      line({ type: "permission-mode", permissionMode: "default" }),
      line({
        type: "user",
        uuid: `${id}-q`,
        parentUuid: null,
        timestamp: at(1),
        message: { role: "user", content: prompt },
      }),
      line({ type: "assistant", uuid: `${id}-r`, parentUuid: `${id}-q`, timestamp: at(9), message: answer }),
    ];
    writeFileSync(file, lines.map((text) => `${text}\n`).join(""));
    utimesSync(file, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    return file;
  };
  const newer = session(NEWER.slice("claude-code:".length), 20, "Where is the SPRUCE-9 port set?");
  const older = session(OLDER.slice("claude-code:".length), 3, "Rotate the SPRUCE-9 staging keys");
  for (const file of [newer, older]) expect((await inProject(project, "import", "claude-code", file)).status).toBe(0);
  return project;
}

describe("history sessions and search across sessions (issue 50)", () => {
  it("history sessions shows each session's transcript times and title, newest activity first", async () => {
    const project = await projectWithTwoSessions();
    const listed = await inProject(project, "history", "sessions", "--json");
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        session_id: NEWER,
        title: "Where is the SPRUCE-9 port set?",
        started_at: "2026-11-20T09:00:01.000Z",
        ended_at: "2026-11-20T09:00:09.000Z",
      }),
      expect.objectContaining({
        session_id: OLDER,
        title: "Rotate the SPRUCE-9 staging keys",
        started_at: "2026-11-03T09:00:01.000Z",
        ended_at: "2026-11-03T09:00:09.000Z",
      }),
    ]);
    const human = (await inProject(project, "history", "sessions")).stdout.trim().split("\n");
    expect(human[0]).toMatch(
      /^claude-code:\S+2 {2}2026-11-20T09:00:01\.000Z – 2026-11-20T09:00:09\.000Z .*“Where is the SPRUCE-9 port set\?”$/,
    );
    expect(human[1]).toMatch(/^claude-code:\S+1 {2}2026-11-03T09:00:01\.000Z – .*“Rotate the SPRUCE-9 staging keys”$/);
  });

  it("history search <text> without a session id searches every session, with --role, --tool and --hybrid; semantic asks for one", async () => {
    const project = await projectWithTwoSessions();
    const found = await inProject(project, "history", "search", "SPRUCE-9", "--json");
    expect(found.stderr).toBe("");
    const results = JSON.parse(found.stdout) as { session_id: string; hits: { item_id: string }[] }[];
    expect(results.map((result) => result.session_id).sort()).toEqual([OLDER, NEWER]);
    const human = (await inProject(project, "history", "search", "staging keys")).stdout;
    expect(human).toMatch(
      /^═══ claude-code:\S+1 {2}Rotate the SPRUCE-9 staging keys ═══\n── w:0 ──\n#2 {2}user {2}.*staging keys/,
    );
    // Role and tool filters are part of the one query (ADR 0093); semantic needs a session.
    const sessionsOf = (result: { stdout: string }) =>
      (JSON.parse(result.stdout) as { session_id: string }[]).map((entry) => entry.session_id).sort();
    expect(sessionsOf(await inProject(project, "history", "search", "SPRUCE-9", "--role", "user", "--json"))).toEqual([
      OLDER,
      NEWER,
    ]);
    expect(
      sessionsOf(await inProject(project, "history", "search", "SPRUCE-9", "--role", "assistant", "--json")),
    ).toEqual([]);
    expect(sessionsOf(await inProject(project, "history", "search", "SPRUCE-9", "--tool", "Bash", "--json"))).toEqual(
      [],
    );
    // Hybrid is one query across sessions too (ADR 0105); without an embedding model it says word search answered.
    const hybrid = await inProject(project, "history", "search", "SPRUCE-9", "--hybrid", "--json");
    expect(hybrid.status).toBe(0);
    // Ranked by relevance, so one session's hits may come in more than one group.
    expect([...new Set(sessionsOf(hybrid))]).toEqual([OLDER, NEWER].sort());
    expect(hybrid.stderr).toMatch(/^ctxwin history: This store was opened without an embedding model/);
    const scoped = await inProject(project, "history", "search", "SPRUCE-9", "--semantic");
    const refusal = "ctxwin history: --semantic work within one session: give its id before the text.";
    expect([scoped.status, scoped.stderr.trim()]).toEqual([1, refusal]);
    // With a session id it is the single-session search, as before.
    const one = await inProject(project, "history", "search", NEWER, "SPRUCE-9", "--json");
    expect((JSON.parse(one.stdout) as unknown[]).length).toBe(1);
  });

  const withInteractive = it.skipIf(interactive === undefined);
  withInteractive(
    "the real interactive sessions: ctxwin's hook guidance is found in no session, the user's words are",
    async () => {
      const project = mkdtempSync(path.join(tmpdir(), "ctxwin-history-interactive-"));
      expect((await inProject(project, "import", "claude-code", interactive ?? "")).status).toBe(0);
      const guidance = await inProject(project, "history", "search", "instead of guessing");
      expect([guidance.status, guidance.stdout.trim()]).toEqual([0, "No matches."]);
      const words = await inProject(project, "history", "search", "MARMALADE-913", "--json");
      expect((JSON.parse(words.stdout) as unknown[]).length).toBeGreaterThanOrEqual(2);
    },
  );
});
