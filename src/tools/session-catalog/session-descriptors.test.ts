/**
 * Cross-session discovery describes only what lies after a session's privacy floor (ADR 0046):
 * with a manual reset, `started_at` is when the reset's window began, `window_count` counts
 * the windows from it on, and the title is the first user message after the floor (ADR 0054).
 * Sessions without a reset are described whole; a ctxwin session is titled by its first user
 * message, as an importer titles an imported one.
 */
import { describe, expect, it } from "vitest";
import type { RowInput } from "../../core/row.js";
import type { HistoryStore } from "../../store/port.js";
import { backendStores } from "../../store/test-support/backend-stores.js";
import { leadIn, reply, reset, rollover, text } from "../../store/test-support/conformance-rows.js";
import { listSessions } from "./list-sessions.js";
import { SessionCatalog } from "./session-descriptors.js";

const at = (row: RowInput, createdAt: string): RowInput => ({ ...row, createdAt });

const importedHeader: RowInput = {
  role: "system",
  parts: [{ type: "text", text: "Imported codex session: Rotate the staging keys" }],
  synthetic: true,
  uiVisible: false,
  meta: {
    type: "imported-session",
    source: "codex",
    sourceSessionId: "x1",
    title: "Rotate the staging keys",
    project: "/home/dev/ops",
    file: "/tmp/x1.jsonl",
  },
};

/** Two windows before the reset, the reset's window and one rollover after it: four windows, two after the floor. */
async function writeCleared(store: HistoryStore, sessionId: string, first: RowInput[] = []): Promise<void> {
  await store.append(sessionId, [
    ...first.map((row) => at(row, "2026-01-01T00:00:00.000Z")),
    at(text("the old plan"), "2026-01-01T00:00:00.000Z"),
    at(rollover("r-1"), "2026-01-01T01:00:00.000Z"),
    at(leadIn("r-1"), "2026-01-01T01:00:00.000Z"),
    at(reply("more of the old plan"), "2026-01-01T02:00:00.000Z"),
    at(reset(), "2026-01-05T00:00:00.000Z"),
    at(text("the new plan"), "2026-01-05T01:00:00.000Z"),
  ]);
  const resetWindow = `w:${first.length + 5}`;
  await store.append(sessionId, [
    at(rollover("r-2", resetWindow), "2026-01-06T00:00:00.000Z"),
    at(text("later"), "2026-01-06T01:00:00.000Z"),
  ]);
}

describe.each(["sqlite", "memory"] as const)("session descriptors after a reset (%s)", (backend) => {
  const open = backendStores(backend, "ctxwin-catalog-");

  it("start time and window count describe only the part after the floor", async () => {
    const opened = open();
    await writeCleared(opened, "cleared");
    await writeCleared(opened, "codex:x1", [importedHeader]);
    await opened.append("whole", [
      at(text("no reset here"), "2026-01-02T00:00:00.000Z"),
      at(rollover("r-9"), "2026-01-02T01:00:00.000Z"),
      at(text("still"), "2026-01-03T00:00:00.000Z"),
    ]);
    expect((await opened.session("cleared"))?.windowCount).toBe(4);

    const catalog = new SessionCatalog({ store: opened, projectDirectory: "/work/app" });
    const listed = await listSessions({ catalog, filter: {}, offset: 0 });
    expect(listed.ok).toBe(true);
    const sessions = listed.ok ? listed.sessions : [];
    const noFacts = {
      git_branch: null,
      model: null,
      parent_session_id: null,
      parent_item_id: null,
      fork_of_session_id: null,
      fork_at_item: null,
    };
    expect(sessions).toEqual([
      {
        session_id: "cleared",
        source: "ctxwin",
        title: "the new plan",
        project: "/work/app",
        ...noFacts,
        started_at: "2026-01-05T00:00:00.000Z",
        ended_at: "2026-01-06T01:00:00.000Z",
        window_count: 2,
      },
      {
        session_id: "codex:x1",
        source: "codex",
        title: "the new plan",
        project: "/home/dev/ops",
        ...noFacts,
        started_at: "2026-01-05T00:00:00.000Z",
        ended_at: "2026-01-06T01:00:00.000Z",
        window_count: 2,
      },
      {
        session_id: "whole",
        source: "ctxwin",
        title: "no reset here",
        project: "/work/app",
        ...noFacts,
        started_at: "2026-01-02T00:00:00.000Z",
        ended_at: "2026-01-03T00:00:00.000Z",
        window_count: 2,
      },
    ]);
    // `until` compares with the start of what is visible: the cleared sessions began after it.
    expect(
      (await catalog.describe({ until: "2026-01-04T00:00:00.000Z" })).map((descriptor) => descriptor.sessionId),
    ).toEqual(["whole"]);
  });

  it("a reset made after a listing is seen by the next one (the cache follows the session's rows)", async () => {
    const opened = open();
    await opened.append("s", [
      at(text("first"), "2026-02-01T00:00:00.000Z"),
      at(rollover("r-1"), "2026-02-01T01:00:00.000Z"),
      at(text("second"), "2026-02-01T02:00:00.000Z"),
    ]);
    const catalog = new SessionCatalog({ store: opened });
    expect((await catalog.describe())[0]).toMatchObject({
      startedAt: "2026-02-01T00:00:00.000Z",
      windowCount: 2,
      title: "first",
    });
    await opened.append("s", [at(reset(), "2026-02-02T00:00:00.000Z")]);
    expect((await catalog.describe())[0]).toMatchObject({
      startedAt: "2026-02-02T00:00:00.000Z",
      windowCount: 1,
      title: null,
    });
    await opened.append("s", [at(text("after the clear\nsecond line"), "2026-02-02T01:00:00.000Z")]);
    expect((await catalog.describe())[0]).toMatchObject({ title: "after the clear" });
  });

  it("titles a ctxwin session by its first user message: typed text only, its first line, at most 120 characters", async () => {
    const opened = open();
    await opened.append("notes", [
      leadIn("r-0"),
      { ...text("a budget warning"), synthetic: true, meta: { type: "budget-warning" } },
    ]);
    await opened.append("notes", [
      reply("the assistant speaks first"),
      text("\n  Rotate the staging keys  \nthen deploy"),
      text("later"),
    ]);
    await opened.append("long", [text(`${"x".repeat(200)}`)]);
    await opened.append("silent", [reply("only the assistant")]);
    const titles = Object.fromEntries(
      (await new SessionCatalog({ store: opened }).describe()).map((descriptor) => [
        descriptor.sessionId,
        descriptor.title,
      ]),
    );
    expect(titles).toEqual({ notes: "Rotate the staging keys", long: `${"x".repeat(119)}…`, silent: null });
  });

  it("list_sessions names a sub-agent's parent and a fork's origin; other sessions carry null lineage fields", async () => {
    const opened = open();
    await opened.append("lead", [text("delegate the review"), reply("calling task")]);
    await opened.append("lead/reviewer-call-1", [text("review the diff")], {
      parent: { sessionId: "lead", itemId: "2" },
    });
    await opened.fork("lead", { atSeq: 1, newSessionId: "lead-edit" });
    const listed = await listSessions({ catalog: new SessionCatalog({ store: opened }), filter: {}, offset: 0 });
    if (!listed.ok) throw new Error(listed.error.message);
    const byId = Object.fromEntries(listed.sessions.map((entry) => [entry.session_id, entry]));
    expect(byId["lead/reviewer-call-1"]).toMatchObject({ parent_session_id: "lead", parent_item_id: "2" });
    expect(byId["lead-edit"]).toMatchObject({ fork_of_session_id: "lead", fork_at_item: "1" });
    expect(byId["lead"]).toMatchObject({
      parent_session_id: null,
      parent_item_id: null,
      fork_of_session_id: null,
      fork_at_item: null,
    });
  });
});
