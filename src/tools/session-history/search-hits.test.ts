import { describe, expect, it } from "vitest";
import type { HistoryStore } from "../../store/port.js";
import { findSnippetHits, searchHitEntry, snippetFinder, type SnippetSearchResult } from "./search-hits.js";
import { backends, storePerTest } from "./test-support/backends.js";
import * as rows from "./test-support/history-rows.js";
import { CLEARED_SECRET, seedMixedHistory } from "./test-support/mixed-history.js";

function hitsOf(result: SnippetSearchResult) {
  if (result.status !== "ok") throw new Error(`expected hits, got: ${result.message}`);
  return result.hits;
}

describe.each(backends)("findSnippetHits ($name)", (backend) => {
  let store: HistoryStore;
  storePerTest(backend, (opened) => (store = opened));

  it("finds literal text newest first, with the row's rendering and a snippet around the match", async () => {
    const { seq } = await seedMixedHistory(store, "s1");
    const hits = hitsOf(
      await findSnippetHits({ store, sessionId: "s1", query: "ORDERS.STATUS", mode: "literal", limit: 10 }),
    );
    expect(hits.map((hit) => [hit.row.seq, hit.windowId])).toEqual([
      [seq.compaction, "w:14"],
      [seq.grepCall, "w:8"],
      [seq.secondWindowQuestion, "w:8"],
    ]);
    expect(hits[2]).toMatchObject({
      text: "Which services write to orders.status?",
      snippet: { text: "Which services write to orders.status?", offsetChars: 0 },
    });
    expect(searchHitEntry(hits[2]!)).toEqual({
      item_id: String(seq.secondWindowQuestion),
      window_id: "w:8",
      role: "user",
      created_at: hits[2]!.row.createdAt,
      total_chars: "Which services write to orders.status?".length,
      snippet: "Which services write to orders.status?",
      snippet_offset_chars: 0,
    });
    expect(searchHitEntry(hits[0]!)).toMatchObject({ type: "compaction-summary" });
  });

  it("keeps the privacy floor unless includeCleared lifts it, and never shows hidden or rejected rows", async () => {
    const { seq } = await seedMixedHistory(store, "s1");
    const search = (query: string, includeCleared?: boolean) =>
      findSnippetHits({
        store,
        sessionId: "s1",
        query,
        mode: "literal",
        limit: 25,
        ...(includeCleared === undefined ? {} : { includeCleared }),
      });
    expect(hitsOf(await search(CLEARED_SECRET))).toEqual([]);
    expect(hitsOf(await search(CLEARED_SECRET, false))).toEqual([]);
    const cleared = hitsOf(await search(CLEARED_SECRET, true));
    expect(cleared.map((hit) => hit.row.seq)).toEqual([seq.clearedTool, seq.clearedAnswer, seq.clearedQuestion]);
    for (const marker of ["hidden-lead-in-marker", "hidden-continue-marker", "rejected-input-marker"]) {
      expect(hitsOf(await search(marker, true)), marker).toEqual([]);
    }
  });

  it("ranks by words and cuts the snippet around the first counted word of a long row", async () => {
    const filler = "filler text ".repeat(200);
    // The unrelated row comes first: a row right after the café row would be a hit too (its context, ADR 0052).
    await store.append("s1", [
      rows.assistantText("Unrelated chatter about lunch"),
      rows.userText(`${filler}the café opens at nine`),
    ]);
    const [hit, ...rest] = hitsOf(
      await findSnippetHits({ store, sessionId: "s1", query: "CAFE", mode: "ranked", limit: 10 }),
    );
    expect(rest).toEqual([]);
    expect(hit!.snippet.text.length).toBeLessThanOrEqual(500);
    expect(hit!.snippet.text).toContain("café opens at nine");
    expect(hit!.text.slice(hit!.snippet.offsetChars, hit!.snippet.offsetChars + hit!.snippet.text.length)).toBe(
      hit!.snippet.text,
    );
  });

  it("answers an empty or unsearchable query with a message instead of throwing", async () => {
    await store.append("s1", [rows.userText("hello")]);
    expect(await findSnippetHits({ store, sessionId: "s1", query: "   ", mode: "literal", limit: 10 })).toEqual({
      status: "invalid-query",
      message: "The search text is empty.",
    });
    const punctuation = await findSnippetHits({ store, sessionId: "s1", query: "?!", mode: "ranked", limit: 10 });
    expect(punctuation).toMatchObject({
      status: "invalid-query",
      message: expect.stringContaining("at least one word"),
    });
  });
});

describe("snippetFinder", () => {
  it("places a literal match case-insensitively, a third of the way into at most 500 characters", () => {
    const text = `${"a".repeat(1_000)}NEEDLE${"b".repeat(1_000)}`;
    const snippet = snippetFinder({ query: "needle", mode: "literal" })(text);
    expect(snippet.text).toHaveLength(500);
    expect(snippet.text.indexOf("NEEDLE")).toBe(Math.floor((500 - 6) / 3));
    expect(text.slice(snippet.offsetChars, snippet.offsetChars + 500)).toBe(snippet.text);
  });

  it("starts at the beginning when the rendered text holds no match", () => {
    expect(snippetFinder({ query: "absent", mode: "literal" })("some other text")).toEqual({
      text: "some other text",
      offsetChars: 0,
    });
    expect(snippetFinder({ query: "absent", mode: "ranked" })("x".repeat(600))).toEqual({
      text: "x".repeat(500),
      offsetChars: 0,
    });
  });
});
