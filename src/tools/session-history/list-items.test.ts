import { describe, expect, it } from "vitest";
import type { HistoryStore } from "../../store/port.js";
import { sessionHistoryTool } from "./session-history-tool.js";
import { backends, storePerTest } from "./test-support/backends.js";
import { callTool, expectError, expectOk } from "./test-support/call-tool.js";
import * as rows from "./test-support/history-rows.js";
import { seedMixedHistory } from "./test-support/mixed-history.js";

describe.each(backends)("session_history list_items ($name)", (backend) => {
  let store: HistoryStore;
  storePerTest(backend, (opened) => (store = opened));

  it("lists the visible items of one window with one-line previews", async () => {
    const { seq } = await seedMixedHistory(store, "s1");
    const result = expectOk(
      await callTool(sessionHistoryTool({ store, sessionId: "s1" }), { action: "list_items", window_id: "w:8" }),
      "list_items",
    );
    expect(result.window_id).toBe("w:8");
    expect(result.items.map((item) => item.item_id)).toEqual(
      [seq.secondWindowQuestion, seq.grepCall, seq.unknownType].map(String),
    );
    expect(result.items[1]).toMatchObject({
      role: "assistant",
      window_id: "w:8",
      preview: 'grep({"pattern":"orders.status"}) → billing/service.ts:12 shipping/worker.ts:40',
    });
    expect(result.items[1]!.total_chars).toBe(
      'grep({"pattern":"orders.status"}) → billing/service.ts:12\nshipping/worker.ts:40'.length,
    );
    expect(result).toMatchObject({ has_more: false, next: null });
  });

  it("without window_id lists the whole readable history, each item in its window", async () => {
    const { seq } = await seedMixedHistory(store, "s1");
    const result = expectOk(
      await callTool(sessionHistoryTool({ store, sessionId: "s1" }), {
        action: "list_items",
        window_id: null,
        after_item: null,
        limit: 50,
      }),
      "list_items",
    );
    expect(result.items.map((item) => [Number(item.item_id), item.window_id])).toEqual([
      [seq.afterReset, "w:5"],
      [seq.afterResetAnswer, "w:5"],
      [seq.secondWindowQuestion, "w:8"],
      [seq.grepCall, "w:8"],
      [seq.unknownType, "w:8"],
      [seq.compaction, "w:14"],
      [seq.legacyMixed, "w:14"],
      [seq.historyCall, "w:14"],
      [seq.activeAnswer, "w:17"],
    ]);
    const historyCall = result.items.find((item) => item.item_id === String(seq.historyCall));
    expect(historyCall?.preview).toBe(
      'session_history({"action":"search","query":"secret"}) → [history result omitted]',
    );
  });

  it("pages with after_item without repeating or losing an item, skipping hidden rows", async () => {
    const { seq } = await seedMixedHistory(store, "s1");
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const seen: string[] = [];
    let input: Record<string, unknown> = { action: "list_items", limit: 2 };
    for (let page = 0; page < 20; page += 1) {
      const result = expectOk(await callTool(historyTool, input), "list_items");
      expect(result.items.length).toBeLessThanOrEqual(2);
      seen.push(...result.items.map((item) => item.item_id));
      if (!result.has_more) {
        expect(result.next).toBeNull();
        break;
      }
      expect(result.next).toEqual({ after_item: result.items.at(-1)!.item_id });
      input = { ...input, ...result.next };
    }
    expect(seen).toEqual(
      [
        seq.afterReset,
        seq.afterResetAnswer,
        seq.secondWindowQuestion,
        seq.grepCall,
        seq.unknownType,
        seq.compaction,
        seq.legacyMixed,
        seq.historyCall,
        seq.activeAnswer,
      ].map(String),
    );
  });

  it("accepts item ids as numbers and skips past many hidden rows in one call", async () => {
    await store.append("s1", [rows.userText("first")]);
    await store.append(
      "s1",
      Array.from({ length: 120 }, (_unused, index) => rows.continueRow(`hidden ${index}`)),
    );
    await store.append("s1", [rows.userText("after the hidden run")]);
    const result = expectOk(
      await callTool(sessionHistoryTool({ store, sessionId: "s1" }), { action: "list_items", after_item: 1, limit: 5 }),
      "list_items",
    );
    expect(result.items.map((item) => item.preview)).toEqual(["after the hidden run"]);
    expect(result.has_more).toBe(false);
  });

  it("when a call's scan budget runs out among hidden rows, says so and pages on past them", async () => {
    await store.append("s1", [rows.userText("first")]);
    await store.append(
      "s1",
      Array.from({ length: 2_000 }, (_unused, index) => rows.continueRow(`hidden ${index}`)),
    );
    await store.append("s1", [rows.userText("after the long hidden run")]);
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    let input: Record<string, unknown> = { action: "list_items", after_item: "1", limit: 5 };
    const previews: string[] = [];
    let calls = 0;
    for (; calls < 20; calls += 1) {
      const result = expectOk(await callTool(historyTool, input), "list_items");
      previews.push(...result.items.map((item) => item.preview));
      if (result.next === null) break;
      expect(Number(result.next.after_item)).toBeGreaterThan(Number(input["after_item"]));
      input = { ...input, ...result.next };
    }
    expect(previews).toEqual(["after the long hidden run"]);
    expect(calls).toBeGreaterThan(0);
  });

  it("keeps 50 items with heavy previews inside 16 KiB and continues from the last one shown", async () => {
    const heavy = '\u0002"字😀'.repeat(300);
    await store.append(
      "s1",
      Array.from({ length: 50 }, () => rows.userText(heavy)),
    );
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const first = expectOk(await callTool(historyTool, { action: "list_items", limit: 50 }), "list_items");
    expect(first.items.length).toBeGreaterThan(0);
    expect(first.items.length).toBeLessThan(50);
    expect(first).toMatchObject({ has_more: true, next: { after_item: first.items.at(-1)!.item_id } });
    for (const item of first.items) expect(item.preview.length).toBeLessThanOrEqual(200);
  });

  it("answers an unknown or malformed window id with an error result", async () => {
    await seedMixedHistory(store, "s1");
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    expectError(await callTool(historyTool, { action: "list_items", window_id: "w:9" }), "window_not_available");
    expectError(await callTool(historyTool, { action: "list_items", window_id: "w:99999" }), "window_not_available");
    expectError(await callTool(historyTool, { action: "list_items", window_id: "9" }), "invalid_input");
    expectError(await callTool(historyTool, { action: "list_items", after_item: "-3" }), "invalid_input");
    expectError(await callTool(historyTool, { action: "list_items", limit: 51 }), "invalid_input");
    expectError(await callTool(historyTool, { action: "list_items", limit: 0 }), "invalid_input");
  });
});
