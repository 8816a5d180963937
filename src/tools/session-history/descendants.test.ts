import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RowInput } from "../../core/row.js";
import { visibleSession } from "../../store/lineage/session-visibility.js";
import type { HistoryStore } from "../../store/port.js";
import { CHILD_SECRET, seedClearedChildTree } from "../../store/test-support/cleared-child-tree.js";
import { sessionHistoryTool } from "./session-history-tool.js";
import { backends, type OpenedStore } from "./test-support/backends.js";
import { callTool, expectError, expectOk } from "./test-support/call-tool.js";

const user = (text: string): RowInput => ({ role: "user", parts: [{ type: "text", text }] });
const assistant = (text: string): RowInput => ({ role: "assistant", parts: [{ type: "text", text }] });
const reset = (): RowInput => ({ role: "assistant", parts: [], boundary: { kind: "reset" } });
const child = (parentSessionId: string, itemId: number) => ({
  parent: { sessionId: parentSessionId, itemId: String(itemId) },
});

describe.each(backends)("session_history follows sub-agent sessions ($name)", (backend) => {
  let opened: OpenedStore;
  let store: HistoryStore;
  beforeEach(() => {
    opened = backend.open();
    store = opened.store;
  });
  afterEach(async () => opened.close());

  const tool = () => sessionHistoryTool({ store, sessionId: "main" });

  it("search without parameters finds a fact only a sub-agent's transcript holds, naming its session", async () => {
    await store.append("main", [user("Find the staging codename."), assistant("Delegated to the researcher.")]);
    await store.append(
      "main/researcher-1",
      [user("Find the codename."), assistant("notes.txt says the codename is HERON-41.")],
      child("main", 2),
    );
    await store.append(
      "main/researcher-1/checker-1",
      [user("Double-check HERON-41 in the deploy log.")],
      child("main/researcher-1", 2),
    );
    await store.append("other", [assistant("HERON-41 also appears in an unrelated session.")]);

    const result = expectOk(await callTool(tool(), { action: "search", query: "HERON-41" }), "search");
    expect(result.hits.map((hit) => [hit.session_id, hit.item_id])).toEqual([
      ["main/researcher-1/checker-1", "1"],
      ["main/researcher-1", "2"],
    ]);
    const ranked = expectOk(
      await callTool(tool(), { action: "search", query: "staging codename", mode: "ranked" }),
      "search",
    );
    expect(new Set(ranked.hits.map((hit) => hit.session_id))).toEqual(new Set(["main", "main/researcher-1"]));

    const sessions = expectOk(await callTool(tool(), { action: "list_sessions" }), "list_sessions");
    expect(
      sessions.sessions.map((entry) => [
        entry.session_id,
        entry.parent_session_id,
        entry.parent_item_id,
        entry.depth,
        entry.last_item,
      ]),
    ).toEqual([
      ["main/researcher-1", "main", "2", 1, "2"],
      ["main/researcher-1/checker-1", "main/researcher-1", "2", 2, "1"],
    ]);
  });

  it("reads into a sub-agent session with session_id, with the same bounds; other sessions stay out of reach", async () => {
    await store.append("main", [user("go"), assistant("delegating")]);
    await store.append(
      "main/worker-1",
      [user("task"), assistant(`The answer is ${"x".repeat(20_000)}`)],
      child("main", 2),
    );
    await store.append("other", [user("not yours")]);

    const page = expectOk(
      await callTool(tool(), { action: "read_item", session_id: "main/worker-1", item_id: "2", limit_chars: 100 }),
      "read_item",
    );
    expect(page.text).toBe(`The answer is ${"x".repeat(86)}`);
    expect(page.next).toEqual({ offset_chars: 100 });
    const items = expectOk(await callTool(tool(), { action: "list_items", session_id: "main/worker-1" }), "list_items");
    expect(items.items.map((item) => item.item_id)).toEqual(["1", "2"]);
    expectError(
      await callTool(tool(), { action: "read_item", session_id: "other", item_id: "1" }),
      "session_not_available",
    );
    expectError(
      await callTool(tool(), { action: "read_item", session_id: "nobody", item_id: "1" }),
      "session_not_available",
    );
    expectError(await callTool(tool(), { action: "list_sessions", session_id: "main/worker-1" }), "invalid_input");
  });

  it("a manual clear of the parent hides every child started before it, with its own children", async () => {
    await store.append("main", [user("go"), assistant("delegating the secret")]);
    await store.append("main/early-1", [user("early task: the secret is PLUM-9")], child("main", 2));
    await store.append("main/early-1/deeper-1", [user("deeper: PLUM-9 again")], child("main/early-1", 1));
    await store.append("main", [reset(), user("after the clear"), assistant("delegating again")]);
    await store.append("main/late-1", [user("late task, PLUM-9 is not secret here")], child("main", 5));

    const search = expectOk(await callTool(tool(), { action: "search", query: "PLUM-9" }), "search");
    expect(search.hits.map((hit) => hit.session_id)).toEqual(["main/late-1"]);
    const sessions = expectOk(await callTool(tool(), { action: "list_sessions" }), "list_sessions");
    expect(sessions.sessions.map((entry) => entry.session_id)).toEqual(["main/late-1"]);
    expectError(
      await callTool(tool(), { action: "read_item", session_id: "main/early-1", item_id: "1" }),
      "session_not_available",
    );
    expectError(
      await callTool(tool(), { action: "search", session_id: "main/early-1/deeper-1", query: "PLUM" }),
      "session_not_available",
    );
  });

  it("agrees with the store-wide rule (ADR 0073) on issue 46's set-up: a child is readable here exactly when visibleSession finds it", async () => {
    await seedClearedChildTree(store);
    for (const sessionId of ["main/child", "main/child/grandchild", "main/late"]) {
      const result = await callTool(tool(), { action: "list_items", session_id: sessionId });
      expect(result.ok, sessionId).toBe((await visibleSession({ store, sessionId })) !== undefined);
      expect(JSON.stringify(result)).not.toContain(CHILD_SECRET);
    }
    expectError(
      await callTool(tool(), { action: "read_item", session_id: "main/child", item_id: "2" }),
      "session_not_available",
    );
  });
});
