/**
 * What the session lists say of imported sessions (issues 30 and 31): `ctxwin history sessions
 * --json` and the MCP `list_sessions` give the transcript's own start and end times, git branch,
 * model, and a sub-agent's parent session and item.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importFiles } from "../../import/import-files.js";
import { createMemoryStore } from "../../store/memory/memory-store.js";
import { listSessions as listCatalogSessions } from "../../tools/session-catalog/list-sessions.js";
import { SessionCatalog } from "../../tools/session-catalog/session-descriptors.js";
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
});
