/**
 * The SQLite backend's literal search reads a bounded number of candidates per call (ADR 0051),
 * whatever makes its candidates miss: no trigram to ask the index for, trigrams common while the
 * query is rare, or a filter few candidates pass. What a call read shows in the page it returns:
 * `resumeBeforeSeq` says where it stopped, and paging on finds every hit.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RowInput } from "../../core/row.js";
import { LITERAL_SCAN_LIMIT } from "../filtered-scan.js";
import { openStore } from "../open-store.js";
import type { HistoryStore, SearchOptions } from "../port.js";

const text = (value: string): RowInput => ({ role: "user", parts: [{ type: "text", text: value }] });
const reply = (value: string): RowInput => ({ role: "assistant", parts: [{ type: "text", text: value }] });
const toolCall = (name: string, command: string): RowInput => ({
  role: "assistant",
  parts: [
    {
      type: `tool-${name}`,
      toolCallId: `call-${command}`,
      state: "output-available",
      input: { command },
      output: "done",
    },
  ],
});

describe("SQLite literal search reads at most LITERAL_SCAN_LIMIT candidates a call", () => {
  let store: HistoryStore;
  beforeEach(() => {
    store = openStore({ path: path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-literal-")), "ctxwin.db") });
  });
  afterEach(async () => {
    await store.close();
  });

  /** Pages on where each page says to resume; the hits and the pages it took. */
  const everyHit = async (options: Omit<SearchOptions, "mode" | "beforeSeq">) => {
    const pages: { seqs: number[]; resumeBeforeSeq: number | undefined }[] = [];
    for (let beforeSeq: number | undefined; pages.length < 10;) {
      const page = await store.search("s", {
        ...options,
        mode: "literal",
        ...(beforeSeq === undefined ? {} : { beforeSeq }),
      });
      pages.push({ seqs: page.hits.map((hit) => hit.row.seq), resumeBeforeSeq: page.resumeBeforeSeq });
      if (page.resumeBeforeSeq === undefined) break;
      beforeSeq = page.resumeBeforeSeq;
    }
    return { seqs: pages.flatMap((page) => page.seqs), pages: pages.length, first: pages[0] };
  };

  it("a query without a trigram (punctuation, two letters) stops after the bound instead of reading the whole session", async () => {
    await store.append("s", [
      text("the ~~ marker and zq"),
      ...Array.from({ length: LITERAL_SCAN_LIMIT + 200 }, (_, index) => reply(`plain row ${index}`)),
    ]);
    const newest = LITERAL_SCAN_LIMIT + 201;
    for (const query of ["~~", "zq"]) {
      const found = await everyHit({ query });
      expect(found.seqs).toEqual([1]);
      expect(found.pages).toBe(2);
      // The first call read the newest LITERAL_SCAN_LIMIT rows and stopped at the last of them.
      expect(found.first).toEqual({ seqs: [], resumeBeforeSeq: newest - LITERAL_SCAN_LIMIT + 1 });
    }
  });

  it("a query whose trigrams every row holds, but which no newer row holds, stops after the bound", async () => {
    // Every filler holds each trigram of "beta alpha" ("bet", "ta ", "a a", " al", ...), none the query.
    const fillers = Array.from({ length: LITERAL_SCAN_LIMIT + 200 }, (_, index) =>
      reply(`beta and alpha a al ${index}`),
    );
    await store.append("s", [text("then beta alpha at last"), ...fillers]);
    const found = await everyHit({ query: "beta alpha" });
    expect(found.seqs).toEqual([1]);
    expect(found.pages).toBe(2);
    expect(found.first?.seqs).toEqual([]);
  });

  it("a query of stop words is not walked through the word index's common position lists, but read from bounded trigram candidates", async () => {
    // Every filler holds each trigram of "and the of to" and its words, never the phrase "the of".
    const fillers = Array.from({ length: LITERAL_SCAN_LIMIT + 200 }, (_, index) =>
      reply(`and then the off to a proof of it ${index}`),
    );
    await store.append("s", [text("this and the of to that"), ...fillers]);
    const found = await everyHit({ query: "and the of to" });
    expect(found).toMatchObject({ seqs: [1], pages: 2, first: { seqs: [] } });
  });

  it("a filter few rows pass reads those rows, however many rows the query alone matches", async () => {
    await store.append("s", [
      toolCall("deploy_tool", "deploy ledger"),
      ...Array.from({ length: LITERAL_SCAN_LIMIT + 200 }, (_, index) => reply(`the ledger line ${index}`)),
    ]);
    expect(await everyHit({ query: "ledger", toolName: "Deploy_Tool" })).toMatchObject({ seqs: [1], pages: 1 });
    expect(await everyHit({ query: "ledger", toolName: "grep" })).toMatchObject({ seqs: [], pages: 1 });
  });
});
