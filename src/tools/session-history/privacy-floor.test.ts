/**
 * Invariant 6 (docs/design.md §10): session_history never returns a row at or before the newest manual
 * reset, whatever ids, window ids, cursors or offsets the model passes. Run on both backends.
 */
import { describe, expect, it } from "vitest";
import type { HistoryStore } from "../../store/port.js";
import type { SessionHistoryResult } from "./results.js";
import { sessionHistoryTool } from "./session-history-tool.js";
import { backends, storePerTest } from "./test-support/backends.js";
import { callTool, expectOk } from "./test-support/call-tool.js";
import * as rows from "./test-support/history-rows.js";
import { CLEARED_SECRET, seedMixedHistory } from "./test-support/mixed-history.js";

const OTHER_SECRET = "other-session-secret-plum";

/** Every item id and window id a result names. */
function namedIds(result: SessionHistoryResult): { items: number[]; windows: string[] } {
  if (!result.ok) return { items: [], windows: [] };
  switch (result.action) {
    case "list_windows":
      return {
        items: result.windows
          .flatMap((window) => [window.first_item, window.last_item])
          .filter((id): id is string => id !== null)
          .map(Number),
        windows: result.windows.map((window) => window.window_id),
      };
    case "list_items":
      return {
        items: result.items.map((item) => Number(item.item_id)),
        windows: result.items.map((item) => item.window_id),
      };
    case "search":
      return { items: result.hits.map((hit) => Number(hit.item_id)), windows: result.hits.map((hit) => hit.window_id) };
    case "read_item":
      return { items: [Number(result.item_id)], windows: [result.window_id] };
    case "list_sessions":
      return { items: [], windows: [] };
  }
}

const cursors = ["0", "1", "3", "4", "5", 0, 5, "6"];
const windowIds = ["w:0", "w:1", "w:4", "w:5", "w:8", "w:30", "w:35"];
const itemIds = ["1", "2", "3", "4", "5", 1, 5, "30", "36", "40"];

function attacks(): Record<string, unknown>[] {
  const inputs: Record<string, unknown>[] = [];
  for (const limit of [undefined, 1, 50]) {
    inputs.push({ action: "list_windows", limit });
    for (const beforeWindow of windowIds) inputs.push({ action: "list_windows", before_window: beforeWindow, limit });
  }
  for (const windowId of [undefined, null, ...windowIds]) {
    for (const afterItem of [undefined, null, ...cursors])
      inputs.push({ action: "list_items", window_id: windowId, after_item: afterItem, limit: 50 });
  }
  for (const mode of ["literal", "ranked"]) {
    for (const query of [CLEARED_SECRET, "kiwi", "password hint", "reset", OTHER_SECRET, "plum", "orders", "e"]) {
      inputs.push({ action: "search", query, mode, limit: 25 });
      for (const beforeItem of cursors) inputs.push({ action: "search", query, mode, before_item: beforeItem });
      for (const windowId of windowIds) inputs.push({ action: "search", query, mode, window_id: windowId });
      if (mode === "ranked")
        for (const offset of [0, 1, 5, 1_000]) inputs.push({ action: "search", query, mode, offset });
    }
  }
  for (const itemId of itemIds) {
    for (const offsetChars of [undefined, 0, 3, 10_000])
      inputs.push({ action: "read_item", item_id: itemId, offset_chars: offsetChars, limit_chars: 16_000 });
  }
  return inputs;
}

describe.each(backends)("session_history privacy floor ($name)", (backend) => {
  let store: HistoryStore;
  storePerTest(backend, (opened) => (store = opened));

  it("nothing at or before the newest reset is listable, searchable or readable, through any action or parameter", async () => {
    const { seq } = await seedMixedHistory(store, "s1");
    const floor = seq.resetBoundary!;
    // Another session with more rows: its ids must not open anything of it.
    await store.append(
      "other",
      Array.from({ length: 40 }, (_unused, index) => rows.userText(`${OTHER_SECRET} row ${index} orders`)),
    );
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    let successes = 0;
    for (const input of attacks()) {
      const result = await callTool(historyTool, input);
      const json = JSON.stringify(result);
      const context = JSON.stringify(input).slice(0, 120);
      expect(json, context).not.toContain(CLEARED_SECRET);
      expect(json, context).not.toContain(OTHER_SECRET);
      expect(json, context).not.toContain("hidden-lead-in-marker");
      const { items, windows } = namedIds(result);
      for (const item of items) expect(item, context).toBeGreaterThan(floor);
      for (const window of windows) expect(Number(window.slice(2)), context).toBeGreaterThanOrEqual(floor);
      if (result.ok) successes += 1;
    }
    // The attacks include plenty of legitimate calls: the floor must not close everything.
    expect(successes).toBeGreaterThan(100);
  });

  it("answers out-of-floor and foreign ids with the same error as unknown ones", async () => {
    await seedMixedHistory(store, "s1");
    await store.append(
      "other",
      Array.from({ length: 40 }, (_unused, index) => rows.userText(`${OTHER_SECRET} ${index}`)),
    );
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const messages = new Set<string>();
    for (const itemId of ["1", "4", "5", "36"]) {
      const result = await callTool(historyTool, { action: "read_item", item_id: itemId });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe("item_not_available");
        messages.add(result.error.message.replace(/Item \d+/, "Item N"));
      }
    }
    expect(messages.size).toBe(1);
    for (const windowId of ["w:0", "w:35"]) {
      const result = await callTool(historyTool, { action: "list_items", window_id: windowId });
      expect(result.ok ? "ok" : result.error.code).toBe("window_not_available");
    }
  });

  it("applies a reset made after the tool was created at the next call", async () => {
    const { seq } = await seedMixedHistory(store, "s1");
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const before = await callTool(historyTool, { action: "read_item", item_id: String(seq.activeAnswer) });
    expect(before.ok).toBe(true);
    const [newReset] = await store.append("s1", [rows.reset(), rows.userText("fresh start")]);
    const after = await callTool(historyTool, { action: "read_item", item_id: String(seq.activeAnswer) });
    expect(after.ok ? "ok" : after.error.code).toBe("item_not_available");
    const search = expectOk(
      await callTool(historyTool, { action: "search", query: "orders", mode: "ranked" }),
      "search",
    );
    expect(search.hits).toEqual([]);
    const windows = expectOk(await callTool(historyTool, { action: "list_windows" }), "list_windows");
    expect(windows.windows.map((window) => window.window_id)).toEqual([`w:${newReset!.seq}`]);
  });
});
