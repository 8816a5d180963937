/**
 * The HistoryStore conformance suite: one set of cases that every backend must pass (like Hono's
 * shared router tests). A backend that cannot support a case lists it in `skip` with the reason.
 * Test-only: excluded from the build.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RowValidationError } from "../core/errors.js";
import type { RowInput } from "../core/row.js";
import { RANKED_CANDIDATE_LIMIT } from "../core/ranked-search-plan.js";
import { InvalidQueryError } from "../core/search-query.js";
import { InvalidArgumentError } from "../core/errors.js";
import { AppendConflictError, DuplicateRolloverError, StoreClosedError } from "./errors.js";
import { FILTER_SCAN_LIMIT } from "./filtered-scan.js";
import type { HistoryStore } from "./port.js";

export interface ConformanceContext {
  now: () => Date;
  generateId: () => string;
}

export interface ConformanceOptions {
  /** Case titles this backend skips, each with the reason. */
  skip?: Record<string, string>;
}

const text = (value: string, extra: Partial<RowInput> = {}): RowInput => ({ role: "user", parts: [{ type: "text", text: value }], ...extra });
const reply = (value: string, extra: Partial<RowInput> = {}): RowInput => ({ role: "assistant", parts: [{ type: "text", text: value }], ...extra });
const rollover = (rolloverId: string, previousWindowId = "w:0"): RowInput => ({
  role: "assistant",
  parts: [],
  boundary: { kind: "rollover" },
  meta: { type: "rollover", rolloverId, reason: "on-send", previousWindowId, flushOpportunity: true, contextTokens: 900, maxTokens: 1000 },
});
const leadIn = (rolloverId: string): RowInput => ({
  role: "user",
  parts: [{ type: "text", text: `lead-in ${rolloverId}` }],
  synthetic: true,
  uiVisible: false,
  meta: { type: "lead-in", rolloverId },
});
const reset = (): RowInput => ({ role: "assistant", parts: [], boundary: { kind: "reset" } });
const compaction = (summary: string): RowInput => ({
  role: "user",
  parts: [{ type: "text", text: summary }],
  synthetic: true,
  boundary: { kind: "compaction" },
  meta: { type: "compaction-summary" },
});
const textOf = (row: { parts: readonly { type: string }[] }) =>
  row.parts.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join("");

/**
 * @example
 * describeStoreConformance("memory", (context) => openStore({ backend: "memory", ...context }));
 */
export function describeStoreConformance(name: string, open: (context: ConformanceContext) => HistoryStore | Promise<HistoryStore>, options: ConformanceOptions = {}): void {
  describe(`HistoryStore conformance: ${name}`, () => {
    let store: HistoryStore;
    let clock: number;
    let counter: number;

    beforeEach(async () => {
      clock = Date.parse("2026-01-01T00:00:00.000Z");
      counter = 0;
      store = await open({
        now: () => new Date((clock += 1000)),
        generateId: () => `id-${(counter += 1)}`,
      });
    });
    afterEach(async () => {
      await store.close();
    });

    const test = (title: string, body: () => Promise<void>) => {
      const reason = options.skip?.[title];
      if (reason === undefined) it(title, body);
      else it.skip(`${title} (skipped: ${reason})`, body);
    };

    describe("append", () => {
      test("assigns gap-free seqs from 1 and fills the envelope", async () => {
        const first = await store.append("s", [text("one"), reply("two")]);
        const second = await store.append("s", [text("three")]);
        expect([...first, ...second].map((row) => row.seq)).toEqual([1, 2, 3]);
        expect(first[0]).toMatchObject({ sessionId: "s", seq: 1, id: "id-1", role: "user", createdAt: "2026-01-01T00:00:01.000Z" });
        expect(await store.lastSeq("s")).toBe(3);
        expect(await store.lastSeq("other")).toBe(0);
      });

      test("keeps caller ids, timestamps, tokens, metadata and complex parts intact", async () => {
        const input: RowInput = {
          id: "mine",
          role: "assistant",
          createdAt: "2025-05-05T05:05:05.000Z",
          tokens: 42,
          metadata: { model: "m", nested: [1, { deep: true }] },
          parts: [
            { type: "step-start" },
            { type: "reasoning", text: "thinking" },
            { type: "tool-read_file", toolCallId: "c1", state: "output-available", input: { path: "a.ts" }, output: { lines: ["x", "y"] } },
            { type: "text", text: "done 😀" },
          ],
        };
        const [stored] = await store.append("s", [input]);
        const read = await store.read("s", 1);
        expect(read).toEqual(stored);
        expect(read).toMatchObject({ ...input, sessionId: "s", seq: 1 });
      });

      test("preserves rows of unknown internal type", async () => {
        await store.append("s", [text("x", { synthetic: true, meta: { type: "future-thing", payload: { a: 1 } } })]);
        expect((await store.read("s", 1))?.meta).toEqual({ type: "future-thing", payload: { a: 1 } });
      });

      test("round-trips a 5 MB row", async () => {
        const big = "0123456789abcdef".repeat(5 * 65536);
        await store.append("s", [reply(big)]);
        expect(textOf((await store.read("s", 1))!)).toBe(big);
      });

      test("refuses invalid rows with a validation error and writes nothing of the call", async () => {
        await store.append("s", [text("before")]);
        const bad = [text("fine"), { role: "robot", parts: [] }] as unknown as RowInput[];
        await expect(store.append("s", bad)).rejects.toSatisfy((error: unknown) => RowValidationError.isInstance(error));
        await expect(store.append("s", [])).rejects.toSatisfy((error: unknown) => RowValidationError.isInstance(error));
        await expect(store.append("", [text("x")])).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error));
        expect(await store.lastSeq("s")).toBe(1);
      });

      test("an operationId retry returns the first result and writes nothing new", async () => {
        const first = await store.append("s", [text("a"), text("b")], { operationId: "op-1" });
        await store.append("s", [text("c")]);
        const retry = await store.append("s", [text("different"), text("rows")], { operationId: "op-1" });
        expect(retry).toEqual(first);
        expect(await store.lastSeq("s")).toBe(3);
        const elsewhere = await store.append("t", [text("a")], { operationId: "op-1" });
        expect(elsewhere.map((row) => row.seq)).toEqual([1]);
      });

      test("expectLastSeq refuses a stale writer and writes nothing", async () => {
        await store.append("s", [text("a")], { expectLastSeq: 0 });
        await store.append("s", [text("b")], { expectLastSeq: 1 });
        const error = await store.append("s", [text("late")], { expectLastSeq: 1 }).catch((caught: unknown) => caught);
        expect(AppendConflictError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ expectedLastSeq: 1, actualLastSeq: 2 });
        expect(await store.lastSeq("s")).toBe(2);
      });

      test("refuses a second boundary for the same rolloverId, atomically", async () => {
        await store.append("s", [text("a"), rollover("r1"), leadIn("r1")]);
        await expect(store.append("s", [text("b"), rollover("r1", "w:2")])).rejects.toSatisfy((error: unknown) => DuplicateRolloverError.isInstance(error));
        await expect(store.append("s", [rollover("r2", "w:2"), rollover("r2", "w:2")])).rejects.toSatisfy((error: unknown) => DuplicateRolloverError.isInstance(error));
        expect(await store.lastSeq("s")).toBe(3);
      });

      test("returned rows are copies: mutating them changes nothing stored", async () => {
        const [row] = await store.append("s", [text("original")]);
        (row!.parts[0] as { text: string }).text = "mutated";
        const read = await store.read("s", 1);
        (read!.parts[0] as { text: string }).text = "mutated again";
        expect(textOf((await store.read("s", 1))!)).toBe("original");
      });

      test("refuses malformed options", async () => {
        for (const options of [{ operationId: "" }, { expectLastSeq: -1 }, { expectLastSeq: 1.5 }]) {
          await expect(store.append("s", [text("x")], options)).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error));
        }
        expect(await store.lastSeq("s")).toBe(0);
      });
    });

    describe("windows", () => {
      test("activeWindow of an unknown session is an empty first window", async () => {
        expect(await store.activeWindow("nobody")).toEqual({ windowId: "w:0", boundarySeq: 0, kind: "start", rows: [], skipped: 0, lastSeq: 0 });
      });

      test("activeWindow starts at the newest boundary and includes its row", async () => {
        await store.append("s", [text("a"), reply("b")]);
        expect((await store.activeWindow("s")).rows.map((row) => row.seq)).toEqual([1, 2]);
        await store.append("s", [rollover("r1"), leadIn("r1"), text("c")]);
        const afterRollover = await store.activeWindow("s");
        expect(afterRollover).toMatchObject({ windowId: "w:3", boundarySeq: 3, kind: "rollover", lastSeq: 5 });
        expect(afterRollover.rows.map((row) => row.seq)).toEqual([3, 4, 5]);
        await store.append("s", [compaction("summary"), text("d")]);
        const afterCompaction = await store.activeWindow("s");
        expect(afterCompaction).toMatchObject({ windowId: "w:6", kind: "compaction" });
        expect(afterCompaction.rows.map((row) => textOf(row))).toEqual(["summary", "d"]);
      });

      test("lists windows newest first with counts, reasons and paging", async () => {
        await store.append("s", [text("a"), reply("b")]);
        await store.append("s", [rollover("r1"), leadIn("r1"), text("c"), reply("d")]);
        await store.append("s", [compaction("sum"), text("e")]);
        const page = await store.windows("s", { limit: 2 });
        expect(page.hasMore).toBe(true);
        expect(page.windows.map((window) => window.windowId)).toEqual(["w:7", "w:3"]);
        expect(page.windows[0]).toMatchObject({ kind: "compaction", firstSeq: 7, lastSeq: 8, rowCount: 2, visibleCount: 2, active: true });
        expect(page.windows[1]).toMatchObject({
          kind: "rollover",
          reason: "on-send",
          rolloverId: "r1",
          firstSeq: 3,
          lastSeq: 6,
          rowCount: 4,
          visibleCount: 2,
          active: false,
          startedAt: "2026-01-01T00:00:02.000Z",
          endedAt: "2026-01-01T00:00:02.000Z",
        });
        const next = await store.windows("s", { limit: 2, beforeWindow: "w:3" });
        expect(next).toEqual({ hasMore: false, windows: [expect.objectContaining({ windowId: "w:0", kind: "start", firstSeq: 1, lastSeq: 2, rowCount: 2 })] });
      });

      test("a rollover window's summary carries its boundary's contextTokens and maxTokens; other windows none", async () => {
        const measured = (rolloverId: string, contextTokens: number, maxTokens: number): RowInput => {
          const row = rollover(rolloverId);
          return { ...row, meta: { ...row.meta, type: "rollover", contextTokens, maxTokens } };
        };
        await store.append("s", [text("a"), measured("r1", 1420, 2000), leadIn("r1"), text("b")]);
        await store.append("s", [measured("r2", 0, 128_000), text("c"), compaction("sum"), reset(), text("d")]);
        const { windows } = await store.windows("s", { includeCleared: true });
        const figures = windows.map(({ windowId, kind, contextTokens, maxTokens }) => ({ windowId, kind, contextTokens, maxTokens }));
        expect(figures).toEqual([
          { windowId: "w:8", kind: "reset", contextTokens: undefined, maxTokens: undefined },
          { windowId: "w:7", kind: "compaction", contextTokens: undefined, maxTokens: undefined },
          { windowId: "w:5", kind: "rollover", contextTokens: 0, maxTokens: 128_000 },
          { windowId: "w:2", kind: "rollover", contextTokens: 1420, maxTokens: 2000 },
          { windowId: "w:0", kind: "start", contextTokens: undefined, maxTokens: undefined },
        ]);
        for (const window of windows.filter((entry) => entry.kind !== "rollover")) {
          expect(Object.keys(window)).not.toContain("contextTokens");
          expect(Object.keys(window)).not.toContain("maxTokens");
        }
        // Rows appended to a window later do not change its figures.
        await store.append("s", [measured("r3", 10, 20), text("e"), text("f")]);
        const [newest] = (await store.windows("s", { limit: 1 })).windows;
        expect(newest).toMatchObject({ windowId: "w:10", contextTokens: 10, maxTokens: 20, rowCount: 3 });
      });

      test("windows before the newest manual reset are hidden unless includeCleared", async () => {
        await store.append("s", [text("secret"), rollover("r1"), text("also secret"), reset(), text("after")]);
        expect((await store.windows("s")).windows.map((window) => window.windowId)).toEqual(["w:4"]);
        expect((await store.windows("s", { includeCleared: true })).windows.map((window) => window.windowId)).toEqual(["w:4", "w:2", "w:0"]);
        expect(await store.privacyFloor("s")).toBe(4);
      });

      test("refuses malformed window options", async () => {
        for (const options of [{ limit: 0 }, { limit: -1 }, { limit: 2.5 }, { limit: 100_000 }, { beforeWindow: "w:-1" }, { beforeWindow: "3" }]) {
          await expect(store.windows("s", options)).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error));
        }
      });
    });

    describe("items and read", () => {
      beforeEach(async () => {
        await store.append("s", [text("one"), reply("two"), text("three")]);
        await store.append("s", [rollover("r1"), leadIn("r1"), text("five"), reply("six"), text("seven")]);
        await store.append("other", [text("foreign")]);
      });

      test("pages a window forward with afterSeq", async () => {
        const first = await store.items("s", { windowId: "w:4", limit: 2 });
        expect(first.rows.map((row) => row.seq)).toEqual([4, 5]);
        expect(first.hasMore).toBe(true);
        const second = await store.items("s", { windowId: "w:4", afterSeq: 5, limit: 2 });
        expect(second.rows.map((row) => row.seq)).toEqual([6, 7]);
        const last = await store.items("s", { windowId: "w:4", afterSeq: 7, limit: 2 });
        expect(last).toEqual({ rows: [expect.objectContaining({ seq: 8 })], hasMore: false, skipped: 0 });
      });

      test("pages backwards with beforeSeq, newest rows first in seq order", async () => {
        const page = await store.items("s", { beforeSeq: 7, limit: 3 });
        expect(page.rows.map((row) => row.seq)).toEqual([4, 5, 6]);
        expect(page.hasMore).toBe(true);
        const earlier = await store.items("s", { beforeSeq: 4, limit: 3 });
        expect(earlier.rows.map((row) => row.seq)).toEqual([1, 2, 3]);
        expect(earlier.hasMore).toBe(false);
      });

      test("stays inside the window and the session", async () => {
        expect((await store.items("s", { windowId: "w:0" })).rows.map((row) => row.seq)).toEqual([1, 2, 3]);
        expect((await store.items("s", { windowId: "w:2" })).rows).toEqual([]);
        expect((await store.items("other")).rows.map((row) => textOf(row))).toEqual(["foreign"]);
        expect(await store.read("other", 2)).toBeUndefined();
        expect(await store.read("s", 99)).toBeUndefined();
        expect(await store.read("nobody", 1)).toBeUndefined();
      });

      test("nothing at or before the newest reset is listed or read unless includeCleared", async () => {
        await store.append("s", [reset(), text("fresh")]);
        expect((await store.items("s")).rows.map((row) => row.seq)).toEqual([10]);
        expect((await store.items("s", { windowId: "w:0" })).rows).toEqual([]);
        expect((await store.items("s", { afterSeq: 0, beforeSeq: 11 })).rows.map((row) => row.seq)).toEqual([10]);
        expect(await store.read("s", 9)).toBeUndefined();
        expect(await store.read("s", 1)).toBeUndefined();
        expect(await store.read("s", 10)).toMatchObject({ seq: 10 });
        expect(await store.read("s", 1, { includeCleared: true })).toMatchObject({ seq: 1 });
        expect((await store.items("s", { includeCleared: true })).rows).toHaveLength(10);
      });

      test("refuses malformed item options", async () => {
        for (const options of [{ windowId: "window-1" }, { afterSeq: -1 }, { beforeSeq: 1.5 }, { limit: 0 }]) {
          await expect(store.items("s", options)).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error));
        }
      });
    });

    describe("search", () => {
      beforeEach(async () => {
        await store.append("s", [
          text("The Deploy key is ZX-4471 for staging"),
          reply("Noted: deploy key ZX-4471."),
          {
            role: "assistant",
            parts: [
              { type: "reasoning", text: "private reasoning mentions ZEBRA" },
              { type: "tool-grep", toolCallId: "c1", state: "output-available", input: { pattern: "needle" }, output: "found the Needle-in-haystack at line 7" },
            ],
          },
          text("hidden ZX-4471 lead", { synthetic: true, uiVisible: false, meta: { type: "continue" } }),
          text("rejected ZX-4471 input", { meta: { type: "rejected-input" } }),
        ]);
        await store.append("s", [rollover("r1"), leadIn("r1"), text("Ärger über \"quotes\" and ZX-4471 again"), reply("café crème")]);
        await store.append("other", [text("ZX-4471 in another session")]);
      });

      test("literal search is a case-insensitive substring match, newest first", async () => {
        const page = await store.search("s", { query: "zx-4471", mode: "literal" });
        expect(page.hits.map((hit) => [hit.row.seq, hit.windowId])).toEqual([
          [8, "w:6"],
          [2, "w:0"],
          [1, "w:0"],
        ]);
        expect(page.hasMore).toBe(false);
        expect((await store.search("s", { query: "key is zx", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([1]);
        expect((await store.search("s", { query: "ärger ÜBER", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([8]);
        expect((await store.search("s", { query: '"quotes"', mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([8]);
      });

      test("literal search pages newest first whether few or many rows match, with another session's rows in between", async () => {
        for (let index = 1; index <= 150; index += 1) {
          await store.append("mixed", [text(`entry ${index} of the qv-ledger${index % 20 === 0 ? " qv-rare" : ""}`)]);
          await store.append("noise", [text(`noise ${index} of the qv-ledger qv-rare`)]);
        }
        const seqsOf = async (options: { query: string; limit?: number; offset?: number; beforeSeq?: number }) =>
          (await store.search("mixed", { mode: "literal", ...options })).hits.map((hit) => hit.row.seq);
        const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, index) => from - index);
        expect(await seqsOf({ query: "qv-ledger", limit: 10 })).toEqual(range(150, 141));
        expect(await seqsOf({ query: "qv-ledger", limit: 10, offset: 60 })).toEqual(range(90, 81));
        expect(await seqsOf({ query: "qv-ledger", limit: 5, beforeSeq: 8 })).toEqual(range(7, 3));
        expect(await seqsOf({ query: "qv-rare", limit: 10 })).toEqual([140, 120, 100, 80, 60, 40, 20]);
        expect(await seqsOf({ query: "qv-rare", limit: 2, offset: 3 })).toEqual([80, 60]);
        expect(await seqsOf({ query: "qv-rare", beforeSeq: 100 })).toEqual([80, 60, 40, 20]);
      });

      test("literal search finds tool input and output but not reasoning, hidden or rejected rows", async () => {
        expect((await store.search("s", { query: "needle-in-haystack", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([3]);
        expect((await store.search("s", { query: "zebra", mode: "literal" })).hits).toEqual([]);
        expect((await store.search("s", { query: "hidden zx", mode: "literal" })).hits).toEqual([]);
        expect((await store.search("s", { query: "rejected", mode: "literal" })).hits).toEqual([]);
        expect((await store.search("s", { query: "lead-in", mode: "literal" })).hits).toEqual([]);
      });

      test("queries shorter than three characters still work", async () => {
        expect((await store.search("s", { query: "zx", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([8, 2, 1]);
        expect((await store.search("s", { query: "é", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([9]);
      });

      test("filters by window, before an item, limit and offset", async () => {
        expect((await store.search("s", { query: "zx-4471", mode: "literal", windowId: "w:0" })).hits.map((hit) => hit.row.seq)).toEqual([2, 1]);
        expect((await store.search("s", { query: "zx-4471", mode: "literal", beforeSeq: 8 })).hits.map((hit) => hit.row.seq)).toEqual([2, 1]);
        const limited = await store.search("s", { query: "zx-4471", mode: "literal", limit: 2 });
        expect(limited.hits.map((hit) => hit.row.seq)).toEqual([8, 2]);
        expect(limited.hasMore).toBe(true);
        const offset = await store.search("s", { query: "zx-4471", mode: "literal", limit: 2, offset: 2 });
        expect(offset.hits.map((hit) => hit.row.seq)).toEqual([1]);
        expect(offset.hasMore).toBe(false);
      });

      test("search respects the privacy floor", async () => {
        await store.append("s", [reset(), text("after the reset ZX-4471")]);
        expect((await store.search("s", { query: "zx-4471", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([11]);
        expect((await store.search("s", { query: "deploy key", mode: "ranked" })).hits).toEqual([]);
        expect((await store.search("s", { query: "zx", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([11]);
        expect((await store.search("s", { query: "zx-4471", mode: "literal", includeCleared: true })).hits).toHaveLength(4);
      });

      test("ranked search orders by relevance and drops rows without any query word", async () => {
        await store.append("r", [
          text("apples and oranges"),
          text("bananas only"),
          text("oranges oranges apples apples"),
          text("just apples"),
          text("Crème brûlée recipe"),
        ]);
        const page = await store.search("r", { query: "apples oranges", mode: "ranked" });
        expect(page.hits.map((hit) => hit.row.seq).sort()).toEqual([1, 3, 4]);
        expect(page.hits.at(-1)?.row.seq).toBe(4);
        expect((await store.search("r", { query: "CREME brulee", mode: "ranked" })).hits.map((hit) => hit.row.seq)).toEqual([5]);
        const paged = await store.search("r", { query: "apples oranges", mode: "ranked", limit: 2 });
        expect(paged.hasMore).toBe(true);
        const rest = await store.search("r", { query: "apples oranges", mode: "ranked", limit: 2, offset: 2 });
        expect(rest.hits.map((hit) => hit.row.seq)).toEqual([4]);
      });

      test("a ranked query drops its English stop words, unless it has nothing else", async () => {
        await store.append("q", [text("what did you do there"), text("the ledger was reconciled"), text("when is it due"), text("ledger")]);
        const question = await store.search("q", { query: "What did the ledger say?", mode: "ranked" });
        expect(question.hits.map((hit) => hit.row.seq)).toEqual((await store.search("q", { query: "ledger say", mode: "ranked" })).hits.map((hit) => hit.row.seq));
        expect(question.hits.map((hit) => hit.row.seq).sort()).toEqual([2, 4]);
        expect((await store.search("q", { query: "when is it", mode: "ranked" })).hits.map((hit) => hit.row.seq)).toEqual([3]);
      });

      test("a matching row right after another matching row ranks higher; a row without a query word is never a hit (ADR 0031)", async () => {
        await store.append("n", [
          text("did you paint the sunrise"),
          reply("yes, the sunrise last year"),
          text("unrelated words here"),
          reply("yes, the sunrise last year"),
          reply("nothing to see"),
        ]);
        const page = await store.search("n", { query: "sunrise", mode: "ranked" });
        // Rows 2 and 4 say the same; row 2 follows a row that matched, so it ranks first although older.
        expect(page.hits.map((hit) => hit.row.seq)).toEqual([2, 4, 1]);
      });

      // ADR 0016: a ranked search scores at most RANKED_CANDIDATE_LIMIT rows.
      const fillers = (count: number, from = 0) => Array.from({ length: count }, (_, index) => reply(`routine progress note ${from + index}`));

      test("ranked search drops a word found in very many rows when a rarer word is given", async () => {
        const half = RANKED_CANDIDATE_LIMIT / 2;
        await store.append("c", [...fillers(half), text("ledger migration is blocked"), ...fillers(half + 100, half), text("ledger totals checked in the progress note")]);
        const page = await store.search("c", { query: "progress ledger", mode: "ranked", limit: 25 });
        expect(page.hits.map((hit) => hit.row.seq).sort((left, right) => left - right)).toEqual([half + 1, RANKED_CANDIDATE_LIMIT + 102]);
        expect(page.hasMore).toBe(false);
        // The rare word alone, and rare words together, are ranked as before.
        expect((await store.search("c", { query: "ledger", mode: "ranked" })).hits).toHaveLength(2);
        expect((await store.search("c", { query: "ledger blocked", mode: "ranked" })).hits.map((hit) => hit.row.seq)[0]).toBe(half + 1);
      });

      test("a ranked query of only common words ranks the newest matching rows, and pages them without gaps or repeats", async () => {
        await store.append("c", [...fillers(RANKED_CANDIDATE_LIMIT + 100), text("ledger totals checked in the progress note"), text("nothing to see")]);
        const newest = RANKED_CANDIDATE_LIMIT + 101;
        const seen: number[] = [];
        for (let offset = 0; ; offset += 300) {
          const page = await store.search("c", { query: "progress", mode: "ranked", limit: 300, offset });
          seen.push(...page.hits.map((hit) => hit.row.seq));
          if (!page.hasMore) break;
        }
        // Equal scores (the fillers) come newest first; the longer row scores lower, and so does
        // the oldest scored filler, whose previous row was not scored (ADR 0031).
        const oldest = newest - (RANKED_CANDIDATE_LIMIT - 1);
        const fillersNewestFirst = Array.from({ length: RANKED_CANDIDATE_LIMIT - 2 }, (_, index) => newest - 1 - index);
        expect(seen).toEqual([...fillersNewestFirst, newest, oldest]);
        const first = await store.search("c", { query: "progress", mode: "ranked", limit: 10 });
        const second = await store.search("c", { query: "progress", mode: "ranked", limit: 10, offset: 10 });
        const both = await store.search("c", { query: "progress", mode: "ranked", limit: 20 });
        expect([...first.hits, ...second.hits].map((hit) => hit.row.seq)).toEqual(both.hits.map((hit) => hit.row.seq));
        expect(second.hasMore).toBe(true);
        // Older matches stay reachable by narrowing the range (here: before an item).
        const older = await store.search("c", { query: "progress", mode: "ranked", beforeSeq: 50, limit: 100 });
        expect(older.hits.map((hit) => hit.row.seq)).toEqual(Array.from({ length: 49 }, (_, index) => 49 - index));
      });

      test("ranked search counts words within the searched range: window, privacy floor and session", async () => {
        const quiet = (count: number) => Array.from({ length: count }, (_, index) => reply(`quiet line ${index}`));
        const only = (word: string, count: number) => Array.from({ length: count }, (_, index) => text(`${word} only ${index}`));
        // A range of at most RANKED_CANDIDATE_LIMIT rows keeps every word, however common.
        const window = [...only("alpha", 200), ...only("beta", 200), ...Array.from({ length: 80 }, (_, index) => text(`alpha beta ${index}`))];
        await store.append("c", [...quiet(RANKED_CANDIDATE_LIMIT), rollover("rc"), ...window]);
        const boundary = RANKED_CANDIDATE_LIMIT + 1;
        const inWindow = await store.search("c", { query: "alpha beta", mode: "ranked", windowId: `w:${boundary}`, limit: 1_000 });
        expect(inWindow.hits).toHaveLength(window.length);
        // Over the whole session (more rows than the limit) the two words together match too many
        // rows: the rarer is kept, the first one on a tie.
        const whole = await store.search("c", { query: "alpha beta", mode: "ranked", limit: 1_000 });
        expect(whole.hits.map((hit) => textOf(hit.row)).every((value) => value.startsWith("alpha"))).toBe(true);
        expect(whole.hits).toHaveLength(280);

        // Rows before the privacy floor do not make a word common.
        await store.append("f", [...fillers(RANKED_CANDIDATE_LIMIT + 1), reset(), text("progress after the reset"), ...quiet(RANKED_CANDIDATE_LIMIT), text("ledger after the reset")]);
        expect((await store.search("f", { query: "progress ledger", mode: "ranked" })).hits).toHaveLength(2);

        // Nor do another session's rows written in between.
        await store.append("d", [text("progress once"), ...quiet(RANKED_CANDIDATE_LIMIT)]);
        await store.append("e", fillers(RANKED_CANDIDATE_LIMIT + 1));
        await store.append("d", [text("ledger once")]);
        const interleaved = await store.search("d", { query: "progress ledger", mode: "ranked" });
        expect(interleaved.hits.map((hit) => [hit.row.sessionId, hit.row.seq]).sort()).toEqual([
          ["d", 1],
          ["d", RANKED_CANDIDATE_LIMIT + 2],
        ]);
      });

      test("literal search stays exact where a word pre-filter would mislead", async () => {
        const decoys = Array.from({ length: 260 }, (_, index) => reply(`decoy ${index}: alpha, beta; alpha-beta`));
        await store.append("w", [text("the real x alpha beta gamma"), ...decoys, text("alpha beta at the start")]);
        const page = await store.search("w", { query: " alpha beta", mode: "literal", limit: 5 });
        expect(page.hits.map((hit) => hit.row.seq)).toEqual([1]);
        expect((await store.search("w", { query: "x alpha beta g", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([1]);
        expect((await store.search("w", { query: "alpha beta", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([262, 1]);
        expect((await store.search("w", { query: "ALPHA, BETA; alpha", mode: "literal", limit: 2 })).hits.map((hit) => hit.row.seq)).toEqual([261, 260]);
      });

      test("sessions written in turns stay apart in search", async () => {
        for (let index = 0; index < 30; index += 1) {
          await store.append("left", [text(`shared phrase number ${index}`)]);
          await store.append("right", [text(`shared phrase number ${index}`)]);
        }
        const left = await store.search("left", { query: "shared phrase number", mode: "literal", limit: 3 });
        expect(left.hits.map((hit) => [hit.row.sessionId, hit.row.seq])).toEqual([
          ["left", 30],
          ["left", 29],
          ["left", 28],
        ]);
        const ranked = await store.search("right", { query: "shared phrase", mode: "ranked", limit: 50 });
        expect(ranked.hits).toHaveLength(30);
        expect(new Set(ranked.hits.map((hit) => hit.row.sessionId))).toEqual(new Set(["right"]));
      });

      const toolRows = (): RowInput[] => [
        text("deploy the ledger service"),
        reply("ledger deployed"),
        { role: "assistant", parts: [{ type: "tool-Bash", toolCallId: "c1", state: "output-available", input: { command: "ledger status" }, output: "ok" }] },
        {
          role: "assistant",
          parts: [{ type: "dynamic-tool", toolName: "read_file", toolCallId: "c2", state: "output-error", input: { path: "ledger.md" }, errorText: "missing" }],
        },
        text("ledger again"),
        { role: "assistant", parts: [{ type: "text", text: "checking the ledger" }, { type: "tool-bash", toolCallId: "c3", state: "input-available", input: { command: "ls" } }] },
      ];
      const seqsOf = (page: { hits: { row: { seq: number } }[] }) => page.hits.map((hit) => hit.row.seq);

      test("filters by role and by tool name (ADR 0033), in both modes", async () => {
        await store.append("t", toolRows());
        for (const mode of ["literal", "ranked"] as const) {
          const sorted = async (options: object) => seqsOf(await store.search("t", { query: "ledger", mode, limit: 25, ...options })).sort((left, right) => left - right);
          expect(await sorted({})).toEqual([1, 2, 3, 4, 5, 6]);
          expect(await sorted({ role: "user" })).toEqual([1, 5]);
          expect(await sorted({ role: "assistant" })).toEqual([2, 3, 4, 6]);
          // A tool part matches in any state (call only, result, error), whatever the name's case.
          expect(await sorted({ toolName: "BASH" })).toEqual([3, 6]);
          expect(await sorted({ toolName: "read_file" })).toEqual([4]);
          expect(await sorted({ toolName: "grep" })).toEqual([]);
          expect(await sorted({ role: "user", toolName: "bash" })).toEqual([]);
        }
        expect(seqsOf(await store.search("t", { query: "ledger", mode: "literal", role: "assistant" }))).toEqual([6, 4, 3, 2]);
        // A filtered page is full when enough rows pass, and pages on by offset without gaps.
        const first = await store.search("t", { query: "ledger", mode: "ranked", role: "assistant", limit: 3 });
        const rest = await store.search("t", { query: "ledger", mode: "ranked", role: "assistant", limit: 3, offset: 3 });
        expect(first.hasMore).toBe(true);
        expect(rest.hasMore).toBe(false);
        expect([...seqsOf(first), ...seqsOf(rest)].sort((left, right) => left - right)).toEqual([2, 3, 4, 6]);
        const literalPage = await store.search("t", { query: "ledger", mode: "literal", toolName: "bash", limit: 1 });
        expect([seqsOf(literalPage), literalPage.hasMore]).toEqual([[6], true]);
      });

      test("ranked results come newest first on request, the same rows as by relevance", async () => {
        await store.append("t", toolRows());
        const newest = await store.search("t", { query: "ledger deploy", mode: "ranked", order: "newest", limit: 25 });
        expect(seqsOf(newest)).toEqual([6, 5, 4, 3, 2, 1]);
        const relevant = await store.search("t", { query: "ledger deploy", mode: "ranked", order: "relevance", limit: 25 });
        expect(seqsOf(relevant)).not.toEqual(seqsOf(newest));
        expect([...seqsOf(relevant)].sort((left, right) => right - left)).toEqual(seqsOf(newest));
        const paged = await store.search("t", { query: "ledger", mode: "ranked", order: "newest", role: "user", limit: 1, offset: 1 });
        expect([seqsOf(paged), paged.hasMore]).toEqual([[1], false]);
        expect(seqsOf(await store.search("t", { query: "ledger", mode: "literal", order: "newest", limit: 2 }))).toEqual([6, 5]);
      });

      test("filters never reach rows at or before the privacy floor, hidden or rejected rows", async () => {
        expect(seqsOf(await store.search("s", { query: "zx-4471", mode: "literal", role: "user" }))).toEqual([8, 1]);
        expect(seqsOf(await store.search("s", { query: "needle", mode: "ranked", toolName: "grep" }))).toEqual([3]);
        await store.append("s", [reset(), reply("after the reset: needle again")]);
        expect(seqsOf(await store.search("s", { query: "needle", mode: "ranked", toolName: "grep" }))).toEqual([]);
        expect(seqsOf(await store.search("s", { query: "needle", mode: "literal", role: "assistant" }))).toEqual([11]);
        expect(seqsOf(await store.search("s", { query: "zx-4471", mode: "literal", role: "user", includeCleared: true }))).toEqual([8, 1]);
      });

      test("a filtered ranked search keeps to the rows the ranked bound scores (ADR 0016, 0033)", async () => {
        await store.append("b", [text("progress from the user"), ...fillers(RANKED_CANDIDATE_LIMIT + 10)]);
        // The newest RANKED_CANDIDATE_LIMIT rows with the word are all the assistant's.
        expect(seqsOf(await store.search("b", { query: "progress", mode: "ranked", role: "user" }))).toEqual([]);
        expect(seqsOf(await store.search("b", { query: "progress", mode: "literal", role: "user" }))).toEqual([1]);
        expect(seqsOf(await store.search("b", { query: "progress", mode: "ranked", role: "user", beforeSeq: 100 }))).toEqual([1]);
      });

      test("a filtered literal search reads a bounded number of rows and says where to resume (ADR 0033)", async () => {
        await store.append("l", [text("progress from the user"), ...fillers(FILTER_SCAN_LIMIT + 100)]);
        const first = await store.search("l", { query: "progress", mode: "literal", role: "user" });
        expect([seqsOf(first), first.hasMore]).toEqual([[], true]);
        expect(first.resumeBeforeSeq).toBeGreaterThan(1);
        expect(first.resumeBeforeSeq).toBeLessThanOrEqual(FILTER_SCAN_LIMIT + 101);
        const second = await store.search("l", { query: "progress", mode: "literal", role: "user", beforeSeq: first.resumeBeforeSeq! });
        expect([seqsOf(second), second.hasMore, second.resumeBeforeSeq]).toEqual([[1], false, undefined]);
        // A page that fills first, an unfiltered search and a ranked one never stop early.
        const assistant = await store.search("l", { query: "progress", mode: "literal", role: "assistant", limit: 3 });
        expect([seqsOf(assistant), assistant.resumeBeforeSeq]).toEqual([[FILTER_SCAN_LIMIT + 101, FILTER_SCAN_LIMIT + 100, FILTER_SCAN_LIMIT + 99], undefined]);
        expect((await store.search("l", { query: "from the user", mode: "literal" })).resumeBeforeSeq).toBeUndefined();
        expect((await store.search("l", { query: "progress", mode: "ranked", role: "user" })).resumeBeforeSeq).toBeUndefined();
      });

      test("refuses malformed filters and orders", async () => {
        for (const options of [
          { role: "tool" },
          { role: "" },
          { toolName: "" },
          { toolName: "  " },
          { toolName: 7 },
          { toolName: "x".repeat(201) },
          { order: "oldest" },
          { order: "relevance" },
        ]) {
          await expect(store.search("s", { query: "zx", mode: "literal", ...(options as object) })).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error));
        }
        await expect(store.search("s", { query: "zx", mode: "ranked", order: "oldest" as "newest" })).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error));
      });

      test("refuses queries that cannot be searched", async () => {
        for (const options of [
          { query: "", mode: "literal" },
          { query: "   ", mode: "ranked" },
          { query: "x".repeat(10_000), mode: "literal" },
          { query: "!!!", mode: "ranked" },
          { query: "x\u0000y", mode: "literal" },
          { query: "needle\u0000", mode: "literal" },
          { query: "alpha\u0000beta", mode: "ranked" },
        ] as const) {
          await expect(store.search("s", options)).rejects.toSatisfy((error: unknown) => InvalidQueryError.isInstance(error));
        }
        await expect(store.search("s", { query: "x", mode: "fuzzy" as "literal" })).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error));
      });
    });

    describe("sessions", () => {
      test("lists sessions and deletes one completely", async () => {
        await store.append("a", [text("alpha needle")]);
        await store.append("b", [text("beta needle"), rollover("r1"), text("more")]);
        const sessions = await store.sessions();
        expect(sessions.map((session) => [session.sessionId, session.lastSeq, session.windowCount])).toEqual([
          ["b", 3, 2],
          ["a", 1, 1],
        ]);
        expect(await store.deleteSession("b")).toBe(true);
        expect(await store.deleteSession("b")).toBe(false);
        expect((await store.sessions()).map((session) => session.sessionId)).toEqual(["a"]);
        expect((await store.search("b", { query: "needle", mode: "literal" })).hits).toEqual([]);
        expect((await store.search("a", { query: "needle", mode: "ranked" })).hits).toHaveLength(1);
        const [fresh] = await store.append("b", [text("new life")]);
        expect(fresh?.seq).toBe(1);
        expect((await store.session("b"))?.incarnation).not.toBe(sessions[0]?.incarnation);
        expect((await store.append("b", [rollover("r1")]))[0]?.seq).toBe(2);
      });

      test("summarizes one session with its incarnation, counters and floor", async () => {
        expect(await store.session("nobody")).toBeUndefined();
        await store.append("s", [text("a"), rollover("r1"), text("b"), reset(), text("c")]);
        const summary = await store.session("s");
        expect(summary).toMatchObject({ sessionId: "s", lastSeq: 5, floorSeq: 4, windowCount: 3, createdAt: "2026-01-01T00:00:01.000Z" });
        expect(summary?.incarnation).toEqual(expect.any(String));
        expect((await store.sessions())[0]).toEqual(summary);
        await store.append("s", [text("d")]);
        expect((await store.session("s"))?.incarnation).toBe(summary?.incarnation);
      });

      test("a closed store refuses further use", async () => {
        await store.close();
        await expect(store.lastSeq("s")).rejects.toSatisfy((error: unknown) => StoreClosedError.isInstance(error));
        await expect(store.append("s", [text("x")])).rejects.toSatisfy((error: unknown) => StoreClosedError.isInstance(error));
      });
    });
  });
}
