import { describe, expect, it } from "vitest";
import type { HistoryStore } from "../../store/port.js";
import type { SearchResult } from "./results.js";
import { sessionHistoryTool } from "./session-history-tool.js";
import { backends, storePerTest } from "./test-support/backends.js";
import { callTool, expectError, expectOk } from "./test-support/call-tool.js";
import * as rows from "./test-support/history-rows.js";
import { seedMixedHistory } from "./test-support/mixed-history.js";

describe.each(backends)("session_history search ($name)", (backend) => {
  let store: HistoryStore;
  storePerTest(backend, (opened) => (store = opened));

  it("finds literal text case-insensitively, newest first, across rollover and compaction boundaries", async () => {
    const { seq } = await seedMixedHistory(store, "s1");
    const result = expectOk(
      await callTool(sessionHistoryTool({ store, sessionId: "s1" }), { action: "search", query: "ORDERS.STATUS" }),
      "search",
    );
    expect(result.mode).toBe("literal");
    expect(result.hits.map((hit) => [Number(hit.item_id), hit.window_id])).toEqual([
      [seq.compaction, "w:14"],
      [seq.grepCall, "w:8"],
      [seq.secondWindowQuestion, "w:8"],
    ]);
    expect(result.hits[2]).toMatchObject({
      snippet: "Which services write to orders.status?",
      snippet_offset_chars: 0,
      role: "user",
    });
    expect(result.hits[0]).toMatchObject({ type: "compaction-summary" });
  });

  it("never finds hidden rows, rejected input, reasoning or earlier session_history results", async () => {
    await seedMixedHistory(store, "s1");
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const literal = [
      "hidden-lead-in-marker",
      "hidden-continue-marker",
      "rejected-input-marker",
      "private reasoning",
      "secret earlier output",
    ];
    const ranked = ["marker", "hidden", "pasted", "reasoning", "earlier"];
    for (const [mode, queries] of [
      ["literal", literal],
      ["ranked", ranked],
    ] as const) {
      for (const query of queries) {
        const result = expectOk(await callTool(historyTool, { action: "search", query, mode }), "search");
        expect(result.hits, `${mode} ${query}`).toEqual([]);
      }
    }
  });

  it("never returns the agent's own lookups, and cuts a row's snippet from its content, not from a lookup in it", async () => {
    const lookup = (query: string) => ({
      type: "dynamic-tool",
      toolName: "session_history",
      toolCallId: `h-${query}`,
      state: "output-available",
      input: { action: "search", query },
      output: "…",
    });
    const [, , mixed] = await store.append("s1", [
      rows.userText("The deploy key is KESTREL-3141."),
      { role: "assistant", parts: [lookup("KESTREL-3141")] } as never,
      {
        role: "assistant",
        parts: [
          lookup(`KESTREL-3141 ${"and more words ".repeat(80)}`),
          {
            type: "dynamic-tool",
            toolName: "grep",
            toolCallId: "g1",
            state: "output-available",
            input: { pattern: "KESTREL" },
            output: "deploy.md: KESTREL-3141",
          },
        ],
      } as never,
    ]);
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    for (const mode of ["literal", "ranked"] as const) {
      const result = expectOk(await callTool(historyTool, { action: "search", query: "KESTREL-3141", mode }), "search");
      expect(result.hits.map((hit) => Number(hit.item_id)).sort()).toEqual([1, 3]);
      const hit = result.hits.find((entry) => Number(entry.item_id) === mixed!.seq)!;
      // The lookup's input is long: a snippet cut around a match in it would not reach the grep output.
      expect(hit.snippet).toContain("deploy.md: KESTREL-3141");
      const page = expectOk(
        await callTool(historyTool, {
          action: "read_item",
          item_id: hit.item_id,
          offset_chars: hit.snippet_offset_chars,
          limit_chars: hit.snippet.length,
        }),
        "read_item",
      );
      expect(page.text).toBe(hit.snippet);
    }
  });

  it("cuts a snippet of at most 500 characters around a deep match that read_item finds at the same offset", async () => {
    const before = "😀 filler ".repeat(2_000);
    const after = " tail 字".repeat(2_000);
    const [row] = await store.append("s1", [
      rows.toolCall({ name: "read_file", input: { path: "big.log" }, output: `${before}NEEDLE-42${after}` }),
    ]);
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const result = expectOk(await callTool(historyTool, { action: "search", query: "needle-42" }), "search");
    const [hit] = result.hits;
    expect(hit!.snippet.length).toBeLessThanOrEqual(500);
    expect(hit!.snippet).toContain("NEEDLE-42");
    expect(hit!.snippet).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
    const page = expectOk(
      await callTool(historyTool, {
        action: "read_item",
        item_id: String(row!.seq),
        offset_chars: hit!.snippet_offset_chars,
        limit_chars: hit!.snippet.length,
      }),
      "read_item",
    );
    expect(page.text).toBe(hit!.snippet);
    expect(page.total_chars).toBe(hit!.total_chars);
  });

  it("ranks by words and pages ranked results with offset", async () => {
    await store.append("s1", [
      rows.userText("The migration of the orders table is blocked"),
      rows.assistantText("Unrelated chatter about lunch"),
      rows.assistantText("Migration migration migration: orders orders"),
      rows.userText("A note on the café menu"),
    ]);
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const rankedPage = async (limit: number, next: SearchResult["next"] = null) =>
      expectOk(
        await callTool(historyTool, { action: "search", query: "orders migration", mode: "ranked", limit, ...next }),
        "search",
      );
    const first = await rankedPage(1);
    expect(first.hits.map((hit) => hit.item_id)).toEqual(["3"]);
    expect(first.hits[0]!.snippet).toBe("Migration migration migration: orders orders");
    expect(first).toMatchObject({ has_more: true, next: { offset: 1 } });
    const second = await rankedPage(1, first.next);
    expect(second.hits.map((hit) => hit.item_id)).toEqual(["1"]);
    expect(second).toMatchObject({ has_more: true, next: { offset: 2 } });
    // Items 4 and 2 hold neither word: they follow items that do (their context, ADR 0052), and rank last.
    const rest = await rankedPage(2, second.next);
    expect(rest.hits.map((hit) => hit.item_id)).toEqual(["4", "2"]);
    expect(rest.hits[0]!.snippet).toBe("A note on the café menu");
    expect(rest).toMatchObject({ has_more: false, next: null });
    const accent = expectOk(await callTool(historyTool, { action: "search", query: "CAFE", mode: "ranked" }), "search");
    expect(accent.hits.map((hit) => hit.item_id)).toEqual(["4"]);
  });

  it("pages literal results with before_item and keeps heavy snippets inside 16 KiB", async () => {
    const heavy = (index: number) => `${'\u0003"字😀'.repeat(150)} match-here ${index} ${"\u0004字".repeat(150)}`;
    await store.append(
      "s1",
      Array.from({ length: 60 }, (_unused, index) => rows.userText(heavy(index))),
    );
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const seen: string[] = [];
    let input: Record<string, unknown> = { action: "search", query: "match-here", limit: 25 };
    for (let page = 0; page < 30; page += 1) {
      const result = expectOk(await callTool(historyTool, input), "search");
      expect(result.hits.length).toBeGreaterThan(0);
      seen.push(...result.hits.map((hit) => hit.item_id));
      if (result.next === null) break;
      expect(result.next).toEqual({ before_item: result.hits.at(-1)!.item_id });
      input = { ...input, ...result.next };
    }
    expect(seen).toEqual(Array.from({ length: 60 }, (_unused, index) => String(60 - index)));
  });

  it("restricts to one window and refuses a window that is not there", async () => {
    const { seq } = await seedMixedHistory(store, "s1");
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const result = expectOk(
      await callTool(historyTool, { action: "search", query: "orders", window_id: "w:14" }),
      "search",
    );
    expect(result.hits.map((hit) => Number(hit.item_id))).toEqual([seq.compaction]);
    expectError(
      await callTool(historyTool, { action: "search", query: "orders", window_id: "w:15" }),
      "window_not_available",
    );
  });

  it("answers bad queries and parameters with error results the model can act on", async () => {
    await seedMixedHistory(store, "s1");
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ action: "search" }, "invalid_query", "needs a query"],
      [{ action: "search", query: "   " }, "invalid_query", "needs a query"],
      [{ action: "search", query: "x".repeat(10_240) }, "invalid_query", "10240 characters"],
      [{ action: "search", query: "?!", mode: "ranked" }, "invalid_query", "literal"],
      [{ action: "search", query: "orders", offset: 5 }, "invalid_input", "before_item"],
      [{ action: "search", query: "orders", limit: 26 }, "invalid_input", "25"],
      [{ action: "search", query: "orders", before_item: "w:3" }, "invalid_input", "before_item"],
      [{ action: "search", query: "orders", mode: "fuzzy" }, "invalid_input", "mode"],
      [{ action: "search", query: 42 }, "invalid_input", "query must be a string"],
      [{ action: "search", query: "orders", mode: "ranked", offset: 1_001 }, "invalid_input", "offset"],
    ];
    for (const [input, code, hint] of cases) {
      const result = expectError(await callTool(historyTool, input), code);
      expect(result.error.message, JSON.stringify(input).slice(0, 80)).toContain(hint);
      expect(result.error.message.length).toBeLessThan(400);
    }
  });
});
