import { describe, expect, it } from "vitest";
import type { HistoryStore } from "../../store/port.js";
import { sessionHistoryTool } from "./session-history-tool.js";
import { backends, storePerTest } from "./test-support/backends.js";
import { callTool, expectError, expectOk } from "./test-support/call-tool.js";
import * as rows from "./test-support/history-rows.js";
import { CLEARED_SECRET, seedMixedHistory } from "./test-support/mixed-history.js";

describe.each(backends)("session_history list_windows ($name)", (backend) => {
  let store: HistoryStore;
  storePerTest(backend, (opened) => (store = opened));

  it("lists the windows after the reset, newest first, across rollover and compaction boundaries", async () => {
    const { seq } = await seedMixedHistory(store, "s1");
    const result = expectOk(
      await callTool(sessionHistoryTool({ store, sessionId: "s1" }), { action: "list_windows" }),
      "list_windows",
    );
    expect(result.windows.map((window) => [window.window_id, window.kind, window.active])).toEqual([
      ["w:17", "rollover", true],
      ["w:14", "compaction", false],
      ["w:8", "rollover", false],
      ["w:5", "reset", false],
    ]);
    const [active, compacted, rolled, afterReset] = result.windows;
    // Visible items only: no boundary rows, lead-ins, continue or rejected-input rows.
    expect(active).toMatchObject({
      item_count: 1,
      first_item: String(seq.activeAnswer),
      last_item: String(seq.activeAnswer),
      reason: "on-send",
    });
    expect(active!.preview).toBe("Backfill finished; 1,204 orders updated");
    expect(compacted).toMatchObject({
      item_count: 3,
      first_item: String(seq.compaction),
      last_item: String(seq.historyCall),
    });
    expect(compacted!.preview).toContain("Summary: migration planned");
    expect(rolled).toMatchObject({
      item_count: 3,
      first_item: String(seq.secondWindowQuestion),
      last_item: String(seq.unknownType),
      reason: "on-send",
    });
    expect(afterReset).toMatchObject({
      item_count: 2,
      first_item: String(seq.afterReset),
      last_item: String(seq.afterResetAnswer),
    });
    expect(afterReset).not.toHaveProperty("reason");
    expect(result.has_more).toBe(false);
    expect(result.next).toBeNull();
    expect(JSON.stringify(result)).not.toContain(CLEARED_SECRET);
    expect(JSON.stringify(result)).not.toContain("hidden-lead-in-marker");
  });

  it("pages with before_window and names the next page plainly", async () => {
    await seedMixedHistory(store, "s1");
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const first = expectOk(await callTool(historyTool, { action: "list_windows", limit: 2 }), "list_windows");
    expect(first.windows.map((window) => window.window_id)).toEqual(["w:17", "w:14"]);
    expect(first).toMatchObject({ has_more: true, next: { before_window: "w:14" } });
    const second = expectOk(
      await callTool(historyTool, { action: "list_windows", limit: 2, ...first.next }),
      "list_windows",
    );
    expect(second.windows.map((window) => window.window_id)).toEqual(["w:8", "w:5"]);
    expect(second).toMatchObject({ has_more: false, next: null });
  });

  it("shows legacy-looking rows: a compaction boundary without metadata, unmarked synthetic rows, unknown types", async () => {
    await store.append("s1", [rows.userText("old window one"), rows.legacyMixedRow("legacy assistant text")]);
    await store.append("s1", [
      {
        role: "user",
        parts: [{ type: "text", text: "summary written by an old build" }],
        boundary: { kind: "compaction" },
      },
      { role: "user", parts: [{ type: "text", text: "old synthetic nudge" }], synthetic: true },
      rows.unknownTypeRow("newer build checkpoint"),
      rows.userText("after the legacy boundary"),
    ]);
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const result = expectOk(await callTool(historyTool, { action: "list_windows" }), "list_windows");
    expect(
      result.windows.map((window) => [
        window.window_id,
        window.kind,
        window.item_count,
        window.first_item,
        window.last_item,
      ]),
    ).toEqual([
      ["w:3", "compaction", 4, "3", "6"],
      ["w:0", "start", 2, "1", "2"],
    ]);
    expect(result.windows[0]!.preview).toBe("summary written by an old build");
    const items = expectOk(await callTool(historyTool, { action: "list_items", window_id: "w:3" }), "list_items");
    expect(items.items.map((item) => [item.item_id, item.type ?? null])).toEqual([
      ["3", null],
      ["4", null],
      ["5", "checkpoint-v9"],
      ["6", null],
    ]);
  });

  it("renders a legacy row without its reasoning, media as placeholders", async () => {
    await store.append("s1", [rows.legacyMixedRow("legacy assistant text")]);
    const result = expectOk(
      await callTool(sessionHistoryTool({ store, sessionId: "s1" }), { action: "list_windows" }),
      "list_windows",
    );
    expect(result.windows[0]!.preview).toBe(
      'legacy assistant text [source: https://example.com/doc] [image] grep({"pattern":"TODO"}) → (no result)',
    );
  });

  it("gives an empty page for a session without rows", async () => {
    const result = expectOk(
      await callTool(sessionHistoryTool({ store, sessionId: "empty" }), { action: "list_windows" }),
      "list_windows",
    );
    expect(result).toMatchObject({ windows: [], has_more: false, next: null });
  });

  it("keeps 50 windows with heavy previews inside 16 KiB and pages on from the last one shown", async () => {
    const heavy = '\u0001字😀"'.repeat(200);
    await store.append("s1", [rows.userText(heavy)]);
    for (let index = 1; index <= 60; index += 1)
      await store.append("s1", [rows.rollover(`r${index}`), rows.leadIn(`r${index}`), rows.userText(heavy)]);
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const seen: string[] = [];
    let input: Record<string, unknown> = { action: "list_windows", limit: 50 };
    for (let page = 0; page < 20; page += 1) {
      const result = expectOk(await callTool(historyTool, input), "list_windows");
      seen.push(...result.windows.map((window) => window.window_id));
      if (result.next === null) break;
      expect(result.windows.length).toBeGreaterThan(0);
      input = { ...input, ...result.next };
    }
    expect(seen).toHaveLength(61);
    expect(new Set(seen).size).toBe(61);
  });

  it("refuses a malformed before_window with an error result", async () => {
    const result = await callTool(sessionHistoryTool({ store, sessionId: "s1" }), {
      action: "list_windows",
      before_window: "window 3",
    });
    expect(expectError(result, "invalid_input").error.message).toContain("before_window");
  });
});
