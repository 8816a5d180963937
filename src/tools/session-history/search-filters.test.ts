import { describe, expect, it } from "vitest";
import { MAX_RESULT_BYTES } from "../../core/history-view/limits.js";
import { LITERAL_SCAN_LIMIT } from "../../store/filtered-scan.js";
import type { HistoryStore } from "../../store/port.js";
import { SESSION_HISTORY_DESCRIPTION, sessionHistoryTool } from "./session-history-tool.js";
import { backends, storePerTest } from "./test-support/backends.js";
import { callTool, expectError, expectOk } from "./test-support/call-tool.js";
import * as rows from "./test-support/history-rows.js";
import { CLEARED_SECRET, seedMixedHistory } from "./test-support/mixed-history.js";

describe.each(backends)("session_history search filters ($name)", (backend) => {
  let store: HistoryStore;
  storePerTest(backend, (opened) => (store = opened));

  const seedDeploy = async () => {
    await store.append("s1", [
      rows.userText("Please deploy the billing service"),
      rows.toolCall({ name: "run_command", input: { command: "deploy billing" }, output: "deployed billing v2" }),
      rows.assistantText("The billing deploy finished"),
      rows.toolCall({ name: "read_file", input: { path: "billing/deploy.md" }, output: "how to deploy" }),
      rows.userText("Deploy billing again tomorrow"),
    ]);
    return sessionHistoryTool({ store, sessionId: "s1" });
  };
  const ids = (result: { hits: { item_id: string }[] }) => result.hits.map((hit) => hit.item_id);

  it("keeps only items of one role, or only items calling one tool, in both modes", async () => {
    const historyTool = await seedDeploy();
    for (const mode of ["literal", "ranked"] as const) {
      const search = async (fields: Record<string, unknown>) =>
        ids(expectOk(await callTool(historyTool, { action: "search", query: "deploy", mode, ...fields }), "search"));
      expect((await search({ role: "user" })).sort()).toEqual(["1", "5"]);
      expect((await search({ role: "assistant" })).sort()).toEqual(["2", "3", "4"]);
      expect(await search({ tool_name: "Run_Command" })).toEqual(["2"]);
      expect(await search({ tool_name: "read_file", role: "assistant" })).toEqual(["4"]);
      expect(await search({ tool_name: "read_file", role: "user" })).toEqual([]);
    }
  });

  it("lists ranked hits newest first on request and pages them with offset", async () => {
    const historyTool = await seedDeploy();
    const base = { action: "search", query: "deploy billing", mode: "ranked", order: "newest", limit: 2 };
    const first = expectOk(await callTool(historyTool, base), "search");
    expect(ids(first)).toEqual(["5", "4"]);
    expect(first.next).toEqual({ offset: 2 });
    const second = expectOk(await callTool(historyTool, { ...base, ...first.next }), "search");
    expect(ids(second)).toEqual(["3", "2"]);
    const relevant = expectOk(await callTool(historyTool, { ...base, order: null, limit: 5 }), "search");
    expect(ids(relevant).sort()).toEqual(["1", "2", "3", "4", "5"]);
  });

  it("cuts every snippet and preview to max_item_chars, so more items fit in 16 KiB", async () => {
    const long = (index: number) => `${"lorem ipsum ".repeat(60)}needle-${index} ${"dolor sit ".repeat(60)}`;
    await store.append(
      "s1",
      Array.from({ length: 40 }, (_unused, index) => rows.userText(long(index))),
    );
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const full = expectOk(await callTool(historyTool, { action: "search", query: "needle-", limit: 25 }), "search");
    const short = expectOk(
      await callTool(historyTool, { action: "search", query: "needle-", limit: 25, max_item_chars: 40 }),
      "search",
    );
    expect(full.hits.length).toBeLessThan(25);
    expect(short.hits).toHaveLength(25);
    for (const hit of short.hits) {
      expect(hit.snippet.length).toBeLessThanOrEqual(40);
      expect(hit.snippet).toContain("needle-");
    }
    for (const result of [full, short])
      expect(new TextEncoder().encode(JSON.stringify(result)).length).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    const items = expectOk(
      await callTool(historyTool, { action: "list_items", limit: 50, max_item_chars: 500 }),
      "list_items",
    );
    expect(items.items[0]!.preview.length).toBeGreaterThan(200);
    expect(items.items.every((item) => item.preview.length <= 500)).toBe(true);
    expect(new TextEncoder().encode(JSON.stringify(items)).length).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    const tiny = expectOk(
      await callTool(historyTool, { action: "list_items", limit: 50, max_item_chars: 20 }),
      "list_items",
    );
    expect(tiny.items).toHaveLength(40);
    expect(tiny.items.every((item) => item.preview.length <= 20)).toBe(true);
  });

  it("never lets a filter reach past the privacy floor or hidden rows", async () => {
    await seedMixedHistory(store, "s1");
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    for (const fields of [{ role: "user" }, { role: "assistant" }, { tool_name: "read_file" }]) {
      for (const [mode, query] of [
        ["literal", CLEARED_SECRET],
        ["ranked", "kiwi"],
      ] as const) {
        const result = expectOk(await callTool(historyTool, { action: "search", query, mode, ...fields }), "search");
        expect(result.hits, JSON.stringify(fields)).toEqual([]);
      }
    }
    const hidden = expectOk(
      await callTool(historyTool, { action: "search", query: "hidden-lead-in-marker", role: "user" }),
      "search",
    );
    expect(hidden.hits).toEqual([]);
  });

  it("pages a filtered literal search that stopped early with a plain before_item", async () => {
    // Many user rows and many matches, but only the oldest row is both: no index narrows it to one call.
    const chatter = Array.from({ length: LITERAL_SCAN_LIMIT + 10 }, (_unused, index) =>
      rows.userText(`user chatter ${index}`),
    );
    const progress = Array.from({ length: LITERAL_SCAN_LIMIT + 50 }, (_unused, index) =>
      rows.assistantText(`progress note ${index}`),
    );
    await store.append("s1", [rows.userText("progress from the user"), ...chatter, ...progress]);
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const base = { action: "search", query: "progress", role: "user" };
    const first = expectOk(await callTool(historyTool, base), "search");
    expect(first.hits).toEqual([]);
    expect(first.has_more).toBe(true);
    expect(first.next).toEqual({ before_item: expect.stringMatching(/^[0-9]+$/) });
    const second = expectOk(await callTool(historyTool, { ...base, ...first.next }), "search");
    expect([ids(second), second.has_more, second.next]).toEqual([["1"], false, null]);
  });

  it("answers bad filters with error results that say what to send", async () => {
    const historyTool = await seedDeploy();
    const cases: [Record<string, unknown>, string][] = [
      [{ action: "search", query: "deploy", role: "tool" }, "role must be 'user', 'assistant' or 'system'"],
      [{ action: "search", query: "deploy", tool_name: "" }, "tool_name must be a tool name"],
      [{ action: "search", query: "deploy", tool_name: "   " }, "tool_name must name a tool"],
      [{ action: "search", query: "deploy", tool_name: "x".repeat(300) }, "a string of 300 characters"],
      [{ action: "search", query: "deploy", order: "oldest" }, "order must be 'relevance' or 'newest'"],
      [{ action: "search", query: "deploy", order: "relevance" }, "needs mode 'ranked'"],
      [{ action: "search", query: "deploy", max_item_chars: 5 }, "max_item_chars must be an integer from 20 to 500"],
      [{ action: "search", query: "deploy", max_item_chars: 501 }, "max_item_chars must be an integer from 20 to 500"],
      [{ action: "read_item", item_id: "1", role: "user" }, "role applies to search only"],
      [
        { action: "list_items", order: "newest", tool_name: "grep" },
        "tool_name applies to search only; order applies to search only",
      ],
      [{ action: "list_windows", max_item_chars: 100 }, "max_item_chars applies to search and list_items only"],
    ];
    for (const [input, hint] of cases) {
      const result = expectError(await callTool(historyTool, input), "invalid_input");
      expect(result.error.message, JSON.stringify(input).slice(0, 80)).toContain(hint);
    }
  });
});

describe("session_history description", () => {
  it("tells the agent when to search literally and when ranked, and names every filter", () => {
    for (const phrase of [
      "Use 'literal' for exact text",
      "'ranked' for a question",
      "role",
      "tool_name",
      "max_item_chars",
      "order 'newest'",
    ]) {
      expect(SESSION_HISTORY_DESCRIPTION).toContain(phrase);
    }
  });
});
