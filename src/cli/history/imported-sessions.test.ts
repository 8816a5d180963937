/**
 * What the session lists say of imported sessions (issues 30 and 31): `ctxwin history sessions
 * --json` and the MCP `list_sessions` give the transcript's own start and end times, git branch,
 * model, and a sub-agent's parent session and item.
 */
import { cpSync, mkdtempSync, readdirSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importFiles } from "../../import/import-files.js";
import { createMemoryStore } from "../../store/memory/memory-store.js";
import { listSessions as listCatalogSessions } from "../../tools/session-catalog/list-sessions.js";
import { SessionCatalog } from "../../tools/session-catalog/session-descriptors.js";
import { formatSessions } from "./format-human.js";
import { listSessions } from "./history-queries.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../import/fixtures");
const PARENT = "codex:01c0ffee-0000-7000-8000-000000000001";
const CHILD = "codex:01c0ffee-0000-7000-8000-000000000002";

describe("imported sessions in the session lists", () => {
  it("history sessions --json and list_sessions show times, branch, model and parent from the transcript", async () => {
    const store = createMemoryStore();
    await importFiles({ store, format: "codex", paths: [path.join(fixtures, "codex-0.171.0-subagent")], settleMs: 0 });
    const spawnItem = (await store.session(CHILD))?.parent?.itemId;
    expect(spawnItem).toMatch(/^\d+$/);

    const byId = new Map((await listSessions({ store })).map((entry) => [entry.session_id, entry]));
    expect(byId.get(PARENT)).toMatchObject({ source_session_id: "01c0ffee-0000-7000-8000-000000000001", started_at: "2026-12-04T11:00:00.000Z", ended_at: "2026-12-04T11:00:06.000Z", git_branch: "release/2026-12", model: "gpt-5.1-codex" });
    expect(byId.get(CHILD)).toMatchObject({ started_at: "2026-12-04T11:00:01.200Z", model: "gpt-5.1-codex-mini", parent_session_id: PARENT, parent_item: spawnItem });

    const listed = await listCatalogSessions({ catalog: new SessionCatalog({ store }), filter: { source: "codex" }, offset: 0 });
    const sessions = listed.ok ? listed.sessions : [];
    expect(sessions.find((entry) => entry.session_id === PARENT)).toMatchObject({ git_branch: "release/2026-12", model: "gpt-5.1-codex", parent_session_id: null, parent_item_id: null, started_at: "2026-12-04T11:00:00.000Z", ended_at: "2026-12-04T11:00:06.000Z" });
    expect(sessions.find((entry) => entry.session_id === CHILD)).toMatchObject({ model: "gpt-5.1-codex-mini", git_branch: null, parent_session_id: PARENT, parent_item_id: spawnItem });
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
    const listed = await listCatalogSessions({ catalog: new SessionCatalog({ store }), filter: { source: "codex" }, offset: 0 });
    const sessions = listed.ok ? listed.sessions : [];
    expect(sessions.find((entry) => entry.session_id === CHILD)).toMatchObject({ parent_session_id: PARENT, parent_item_id: spawnItem });
  });
});
