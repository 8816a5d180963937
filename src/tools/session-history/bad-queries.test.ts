/**
 * Queries that are only stop words, only punctuation, or 10,000 characters long (issue 27, ADR
 * 0051): an error result that says what to send instead, or an exact literal search whose misses
 * cost a bounded call, with a note and `next` when it stopped early. Never an exception.
 */
import { describe, expect, it } from "vitest";
import { MAX_QUERY_CHARS } from "../../core/search-query.js";
import { LITERAL_SCAN_LIMIT } from "../../store/filtered-scan.js";
import type { HistoryStore } from "../../store/port.js";
import type { SearchResult } from "./results.js";
import { sessionHistoryTool } from "./session-history-tool.js";
import { backends, storePerTest } from "./test-support/backends.js";
import { callTool, expectError, expectOk } from "./test-support/call-tool.js";
import * as rows from "./test-support/history-rows.js";

describe.each(backends)("session_history with bad queries ($name)", (backend) => {
  let store: HistoryStore;
  storePerTest(backend, (opened) => (store = opened));

  const seed = async () => {
    // Each filler holds every trigram of "the the the" ("the theme"), none of the queries below.
    const fillers = Array.from({ length: LITERAL_SCAN_LIMIT + 100 }, (_unused, index) =>
      rows.assistantText(`the theme: routine progress note ${index}`),
    );
    await store.append("s1", [rows.userText("it is what it is ?! ~~ said the user"), ...fillers]);
    return sessionHistoryTool({ store, sessionId: "s1" });
  };

  it("refuses a ranked query of stop words or punctuation only, and a query over the limit in either mode, saying what to send", async () => {
    const historyTool = await seed();
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { query: "what did we do", mode: "ranked" },
        /every word .* common English word .*'what', 'did', 'we', 'do'.*literal mode/is,
      ],
      [{ query: "To be, or not to be?", mode: "ranked" }, /common English word.*a name, a file/is],
      [{ query: "?! ~~ ...", mode: "ranked" }, /at least one word of letters or digits; use literal mode/],
      [{ query: "x".repeat(10_000) }, new RegExp(`10000 characters long; the limit is ${MAX_QUERY_CHARS}`)],
      [{ query: "ledger ".repeat(1_430), mode: "ranked" }, /10010 characters long/],
    ];
    for (const [fields, message] of cases) {
      const result = expectError(await callTool(historyTool, { action: "search", ...fields }), "invalid_query");
      expect(result.error.message).toMatch(message);
      expect(result.error.message.length).toBeLessThan(400);
    }
  });

  it("searches a literal query of stop words or punctuation exactly; a miss ends in a few bounded calls", async () => {
    const historyTool = await seed();
    for (const [query, expected] of [
      ["?!", ["1"]],
      ["~~", ["1"]],
      ["it is what it is", ["1"]],
      ["the the the", []],
      ["#@", []],
      ["%_\\", []],
    ] as const) {
      const found: string[] = [];
      const pages: SearchResult[] = [];
      for (let next: Record<string, unknown> | null = {}; next !== null && pages.length < 5;) {
        const page: SearchResult = expectOk(
          await callTool(historyTool, { action: "search", query, ...next }),
          "search",
        );
        pages.push(page);
        found.push(...page.hits.map((hit) => hit.item_id));
        next = page.next;
      }
      expect([query, found, pages.at(-1)?.has_more]).toEqual([query, expected, false]);
      // A page that stopped at the bound says so, and what to do.
      for (const page of pages.slice(0, -1)) {
        if (page.hits.length === 0)
          expect(page.note).toMatch(
            new RegExp(`^No match among the ${LITERAL_SCAN_LIMIT.toLocaleString("en")} items this call read.*\`next\``),
          );
      }
      // SQLite reads candidates (rows holding the query's trigrams, or every row for a query without one): the first call stops at the bound.
      if (backend.name === "sqlite" && ["?!", "~~", "the the the", "#@"].includes(query))
        expect([query, pages.length, pages[0]?.hits]).toEqual([query, 2, []]);
    }
  });
});
