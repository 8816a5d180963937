/**
 * The search cases of the HistoryStore conformance suite (`../conformance.ts`): literal and ranked
 * search, their bounds, filters and refusals, the same on every backend. Test-only.
 */
import { beforeEach, describe, expect } from "vitest";
import { InvalidArgumentError } from "../../core/errors.js";
import { RANKED_CANDIDATE_LIMIT } from "../../core/ranked-search-plan.js";
import { InvalidQueryError } from "../../core/search-query.js";
import type { HistoryStore } from "../port.js";
import { leadIn, reply, reset, rollover, text, textOf, fillers } from "./conformance-rows.js";

export interface ConformanceSuite {
  /** The store of the running case (opened before each case). */
  readonly store: HistoryStore;
  /** Declares a case, or skips it when the backend lists it. */
  test: (title: string, body: () => Promise<void>) => void;
}

/** The rows every search case starts from: sessions `s` (two windows) and `other`. */
export async function seedSearchRows(store: HistoryStore): Promise<void> {
  await store.append("s", [
    text("The Deploy key is ZX-4471 for staging"),
    reply("Noted: deploy key ZX-4471."),
    {
      role: "assistant",
      parts: [
        { type: "reasoning", text: "private reasoning mentions ZEBRA" },
        {
          type: "tool-grep",
          toolCallId: "c1",
          state: "output-available",
          input: { pattern: "needle" },
          output: "found the Needle-in-haystack at line 7",
        },
      ],
    },
    text("hidden ZX-4471 lead", { synthetic: true, uiVisible: false, meta: { type: "continue" } }),
    text("rejected ZX-4471 input", { meta: { type: "rejected-input" } }),
  ]);
  await store.append("s", [
    rollover("r1"),
    leadIn("r1"),
    text('Ärger über "quotes" and ZX-4471 again'),
    reply("café crème"),
  ]);
  await store.append("other", [text("ZX-4471 in another session")]);
}

/**
 * @example
 * describeSearchConformance({ get store() { return store; }, test });
 */
export function describeSearchConformance(suite: ConformanceSuite): void {
  const { test } = suite;
  describe("search", () => {
    beforeEach(() => seedSearchRows(suite.store));

    test("literal search is a case-insensitive substring match, newest first", async () => {
      const page = await suite.store.search("s", { query: "zx-4471", mode: "literal" });
      expect(page.hits.map((hit) => [hit.row.seq, hit.windowId])).toEqual([
        [8, "w:6"],
        [2, "w:0"],
        [1, "w:0"],
      ]);
      expect(page.hasMore).toBe(false);
      expect(
        (await suite.store.search("s", { query: "key is zx", mode: "literal" })).hits.map((hit) => hit.row.seq),
      ).toEqual([1]);
      expect(
        (await suite.store.search("s", { query: "ärger ÜBER", mode: "literal" })).hits.map((hit) => hit.row.seq),
      ).toEqual([8]);
      expect(
        (await suite.store.search("s", { query: '"quotes"', mode: "literal" })).hits.map((hit) => hit.row.seq),
      ).toEqual([8]);
    });

    test("literal search folds case as toLowerCase does in every script, also where SQLite's folding table stops", async () => {
      const rows = ["ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ", "ᲥᲐᲠᲗᲣᲚᲘ ᲔᲜᲐ", "İzmir'e hoş geldiniz"];
      await suite.store.append(
        "f",
        rows.map((row) => text(row)),
      );
      const seqs = async (query: string) =>
        (await suite.store.search("f", { query, mode: "literal" })).hits.map((hit) => hit.row.seq);
      for (const [index, row] of rows.entries()) expect(await seqs(row.toLowerCase().slice(0, 6))).toEqual([index + 1]);
      expect(await seqs("i\u0307zmir")).toEqual([3]);
      expect(await seqs("ᲥᲐᲠ")).toEqual([2]);
    });

    test("literal search pages newest first whether few or many rows match, with another session's rows in between", async () => {
      for (let index = 1; index <= 150; index += 1) {
        await suite.store.append("mixed", [
          text(`entry ${index} of the qv-ledger${index % 20 === 0 ? " qv-rare" : ""}`),
        ]);
        await suite.store.append("noise", [text(`noise ${index} of the qv-ledger qv-rare`)]);
      }
      const seqsOf = async (options: { query: string; limit?: number; offset?: number; beforeSeq?: number }) =>
        (await suite.store.search("mixed", { mode: "literal", ...options })).hits.map((hit) => hit.row.seq);
      const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, index) => from - index);
      expect(await seqsOf({ query: "qv-ledger", limit: 10 })).toEqual(range(150, 141));
      expect(await seqsOf({ query: "qv-ledger", limit: 10, offset: 60 })).toEqual(range(90, 81));
      expect(await seqsOf({ query: "qv-ledger", limit: 5, beforeSeq: 8 })).toEqual(range(7, 3));
      expect(await seqsOf({ query: "qv-rare", limit: 10 })).toEqual([140, 120, 100, 80, 60, 40, 20]);
      expect(await seqsOf({ query: "qv-rare", limit: 2, offset: 3 })).toEqual([80, 60]);
      expect(await seqsOf({ query: "qv-rare", beforeSeq: 100 })).toEqual([80, 60, 40, 20]);
    });

    test("literal search finds tool input and output but not reasoning, hidden or rejected rows", async () => {
      expect(
        (await suite.store.search("s", { query: "needle-in-haystack", mode: "literal" })).hits.map(
          (hit) => hit.row.seq,
        ),
      ).toEqual([3]);
      expect((await suite.store.search("s", { query: "zebra", mode: "literal" })).hits).toEqual([]);
      expect((await suite.store.search("s", { query: "hidden zx", mode: "literal" })).hits).toEqual([]);
      expect((await suite.store.search("s", { query: "rejected", mode: "literal" })).hits).toEqual([]);
      expect((await suite.store.search("s", { query: "lead-in", mode: "literal" })).hits).toEqual([]);
    });

    test("queries shorter than three characters still work", async () => {
      expect((await suite.store.search("s", { query: "zx", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([
        8, 2, 1,
      ]);
      expect((await suite.store.search("s", { query: "é", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([
        9,
      ]);
    });

    test("filters by window, before an item, limit and offset", async () => {
      expect(
        (await suite.store.search("s", { query: "zx-4471", mode: "literal", windowId: "w:0" })).hits.map(
          (hit) => hit.row.seq,
        ),
      ).toEqual([2, 1]);
      expect(
        (await suite.store.search("s", { query: "zx-4471", mode: "literal", beforeSeq: 8 })).hits.map(
          (hit) => hit.row.seq,
        ),
      ).toEqual([2, 1]);
      const limited = await suite.store.search("s", { query: "zx-4471", mode: "literal", limit: 2 });
      expect(limited.hits.map((hit) => hit.row.seq)).toEqual([8, 2]);
      expect(limited.hasMore).toBe(true);
      const offset = await suite.store.search("s", { query: "zx-4471", mode: "literal", limit: 2, offset: 2 });
      expect(offset.hits.map((hit) => hit.row.seq)).toEqual([1]);
      expect(offset.hasMore).toBe(false);
    });

    test("search respects the privacy floor", async () => {
      await suite.store.append("s", [reset(), text("after the reset ZX-4471")]);
      expect(
        (await suite.store.search("s", { query: "zx-4471", mode: "literal" })).hits.map((hit) => hit.row.seq),
      ).toEqual([11]);
      expect((await suite.store.search("s", { query: "deploy key", mode: "ranked" })).hits).toEqual([]);
      expect((await suite.store.search("s", { query: "zx", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([
        11,
      ]);
      expect(
        (await suite.store.search("s", { query: "zx-4471", mode: "literal", includeCleared: true })).hits,
      ).toHaveLength(4);
    });

    test("ranked search orders by relevance; a row is a hit when it or the row right before it holds a query word", async () => {
      await suite.store.append("r", [
        text("bananas only"),
        text("apples and oranges"),
        reply("noted"),
        text("more bananas"),
        text("oranges oranges apples apples"),
        text("just apples"),
        reply("pears and plums"),
        text("Crème brûlée recipe"),
        ...Array.from({ length: 8 }, (_, index) => reply(`quiet line ${index}`)),
      ]);
      const page = await suite.store.search("r", { query: "apples oranges", mode: "ranked" });
      // Rows 3 and 7 hold neither word: they answer rows that do (their context, ADR 0052).
      expect(page.hits.map((hit) => hit.row.seq).sort((left, right) => left - right)).toEqual([2, 3, 5, 6, 7]);
      expect(page.hits[0]?.row.seq).toBe(5);
      expect(
        (await suite.store.search("r", { query: "CREME brulee", mode: "ranked" })).hits.map((hit) => hit.row.seq),
      ).toEqual([8, 9]);
      const paged = await suite.store.search("r", { query: "apples oranges", mode: "ranked", limit: 2 });
      expect(paged.hasMore).toBe(true);
      const rest = await suite.store.search("r", { query: "apples oranges", mode: "ranked", limit: 2, offset: 2 });
      expect([...paged.hits, ...rest.hits].map((hit) => hit.row.seq)).toEqual(
        page.hits.slice(0, 4).map((hit) => hit.row.seq),
      );
    });

    test("a ranked query drops its English stop words; one of nothing but stop words is refused, and literal search finds it (ADR 0051)", async () => {
      await suite.store.append("q", [
        text("what did you do there"),
        text("the ledger was reconciled"),
        text("when is it due"),
        text("ledger"),
      ]);
      const question = await suite.store.search("q", { query: "What did the ledger say?", mode: "ranked" });
      expect(question.hits.map((hit) => hit.row.seq)).toEqual(
        (await suite.store.search("q", { query: "ledger say", mode: "ranked" })).hits.map((hit) => hit.row.seq),
      );
      // Row 3 holds no query word: it follows row 2, which does (its context, ADR 0052).
      expect(question.hits.map((hit) => hit.row.seq).sort()).toEqual([2, 3, 4]);
      await expect(suite.store.search("q", { query: "when is it", mode: "ranked" })).rejects.toSatisfy(
        (error: unknown) =>
          InvalidQueryError.isInstance(error) && /common English word .*literal mode/.test((error as Error).message),
      );
      expect(
        (await suite.store.search("q", { query: "when is it", mode: "literal" })).hits.map((hit) => hit.row.seq),
      ).toEqual([3]);
    });

    test("a matching row right after another matching row ranks higher (ADR 0031); a reply is found by the row it answers (ADR 0052)", async () => {
      await suite.store.append("n", [
        ...Array.from({ length: 6 }, (_, index) => reply(`quiet line ${index}`)),
        text("did you paint the sunrise"),
        reply("yes, the sunrise last year"),
        text("unrelated words here"),
        reply("yes, the sunrise last year"),
        reply("nothing to see"),
        text("still nothing"),
      ]);
      const page = await suite.store.search("n", { query: "sunrise", mode: "ranked" });
      // Rows 8 and 10 say the same; row 8 follows a row that matched, so it ranks first although
      // older. Rows 9 and 11 hold the word only through the row before them (their context), so
      // they rank below every row that holds it; row 12 follows such a row: context does not chain.
      expect(page.hits.map((hit) => hit.row.seq)).toEqual([8, 10, 7, 9, 11]);
    });

    test("a row's context is the indexed row right before it, never across a reset, a rollover or a hidden row (ADR 0052)", async () => {
      const quiet = Array.from({ length: 6 }, (_, index) => reply(`quiet line ${index}`));
      await suite.store.append("x", [...quiet, text("the quokka ledger"), reply("before the floor")]);
      await suite.store.append("x", [reset(), reply("after the floor")]);
      await suite.store.append("x", [
        text("the wombat ledger"),
        rollover("rx"),
        leadIn("rx"),
        reply("after the rollover"),
      ]);
      await suite.store.append("x", [
        text("the numbat ledger"),
        text("hidden", { synthetic: true, uiVisible: false, meta: { type: "continue" } }),
        reply("after a hidden row"),
      ]);
      await suite.store.append("x", [text("the bilby ledger")]);
      await suite.store.append("x", [reply("in the next append")]);
      const seqsOf = async (query: string) =>
        (await suite.store.search("x", { query, mode: "ranked", includeCleared: true })).hits
          .map((hit) => hit.row.seq)
          .sort((left, right) => left - right);
      expect(await seqsOf("quokka")).toEqual([7, 8]);
      expect(await seqsOf("wombat")).toEqual([11]);
      expect(await seqsOf("numbat")).toEqual([15]);
      // A row appended later still carries the last row of the earlier append as its context.
      expect(await seqsOf("bilby")).toEqual([18, 19]);
      // The row right after the floor does not carry what was said before it.
      expect((await suite.store.search("x", { query: "quokka", mode: "ranked" })).hits).toEqual([]);
    });

    // ADR 0016: a ranked search scores at most RANKED_CANDIDATE_LIMIT rows.
    test("ranked search drops a word found in very many rows when a rarer word is given", async () => {
      const half = RANKED_CANDIDATE_LIMIT / 2;
      await suite.store.append("c", [
        ...fillers(half),
        text("ledger migration is blocked"),
        ...fillers(half + 100, half),
        text("ledger totals checked in the progress note"),
      ]);
      const page = await suite.store.search("c", { query: "progress ledger", mode: "ranked", limit: 25 });
      // The rows holding "ledger", and the row after the first (its context holds it, ADR 0052).
      expect(page.hits.map((hit) => hit.row.seq).sort((left, right) => left - right)).toEqual([
        half + 1,
        half + 2,
        RANKED_CANDIDATE_LIMIT + 102,
      ]);
      expect(page.hasMore).toBe(false);
      // The rare word alone, and rare words together, are ranked as before.
      expect((await suite.store.search("c", { query: "ledger", mode: "ranked" })).hits).toHaveLength(3);
      expect(
        (await suite.store.search("c", { query: "ledger blocked", mode: "ranked" })).hits.map((hit) => hit.row.seq)[0],
      ).toBe(half + 1);
    });

    test("a ranked query of only common words ranks the newest matching rows, and pages them without gaps or repeats", async () => {
      await suite.store.append("c", [
        ...fillers(RANKED_CANDIDATE_LIMIT + 100),
        text("ledger totals checked in the progress note"),
        text("nothing to see"),
      ]);
      const ledgerRow = RANKED_CANDIDATE_LIMIT + 101;
      // The last row holds "progress" through its context only (ADR 0052): a match too.
      const newest = ledgerRow + 1;
      const seen: number[] = [];
      for (let offset = 0; ; offset += 300) {
        const page = await suite.store.search("c", { query: "progress", mode: "ranked", limit: 300, offset });
        seen.push(...page.hits.map((hit) => hit.row.seq));
        if (!page.hasMore) break;
      }
      // Equal scores (the fillers) come newest first; the longer row scores lower, and so does
      // the oldest scored filler, whose previous row was not scored (ADR 0031); the row that holds
      // the word in its context only scores lowest.
      const oldest = newest - (RANKED_CANDIDATE_LIMIT - 1);
      const fillersNewestFirst = Array.from(
        { length: RANKED_CANDIDATE_LIMIT - 3 },
        (_, index) => ledgerRow - 1 - index,
      );
      expect(seen).toEqual([...fillersNewestFirst, ledgerRow, oldest, newest]);
      const first = await suite.store.search("c", { query: "progress", mode: "ranked", limit: 10 });
      const second = await suite.store.search("c", { query: "progress", mode: "ranked", limit: 10, offset: 10 });
      const both = await suite.store.search("c", { query: "progress", mode: "ranked", limit: 20 });
      expect([...first.hits, ...second.hits].map((hit) => hit.row.seq)).toEqual(both.hits.map((hit) => hit.row.seq));
      expect(second.hasMore).toBe(true);
      // Older matches stay reachable by narrowing the range (here: before an item). Row 1 has no
      // context, so it is shorter and scores higher alone, and lifts row 2 above the other fillers.
      const older = await suite.store.search("c", { query: "progress", mode: "ranked", beforeSeq: 50, limit: 100 });
      expect(older.hits.map((hit) => hit.row.seq)).toEqual([
        2,
        ...Array.from({ length: 47 }, (_, index) => 49 - index),
        1,
      ]);
    });

    test("ranked search counts words within the searched range: window, privacy floor and session", async () => {
      const quiet = (count: number) => Array.from({ length: count }, (_, index) => reply(`quiet line ${index}`));
      const only = (word: string, count: number) =>
        Array.from({ length: count }, (_, index) => text(`${word} only ${index}`));
      // A range of at most RANKED_CANDIDATE_LIMIT rows keeps every word, however common.
      const window = [
        ...only("alpha", 150),
        ...only("beta", 250),
        ...Array.from({ length: 80 }, (_, index) => text(`alpha beta ${index}`)),
      ];
      await suite.store.append("c", [...quiet(RANKED_CANDIDATE_LIMIT), rollover("rc"), ...window]);
      const boundary = RANKED_CANDIDATE_LIMIT + 1;
      const inWindow = await suite.store.search("c", {
        query: "alpha beta",
        mode: "ranked",
        windowId: `w:${boundary}`,
        limit: 1_000,
      });
      expect(inWindow.hits).toHaveLength(window.length);
      // Over the whole session (more rows than the limit) the two words together match too many
      // rows: the rarer is kept. Its rows, and the first "beta only" row, whose context holds it.
      const whole = await suite.store.search("c", { query: "alpha beta", mode: "ranked", limit: 1_000 });
      expect(whole.hits.map((hit) => textOf(hit.row)).filter((value) => !value.startsWith("alpha"))).toEqual([
        "beta only 0",
      ]);
      expect(whole.hits).toHaveLength(231);

      // Rows before the privacy floor do not make a word common. Hits: the two rows, and the row
      // after the first (its context, ADR 0052).
      await suite.store.append("f", [
        ...fillers(RANKED_CANDIDATE_LIMIT + 1),
        reset(),
        text("progress after the reset"),
        ...quiet(RANKED_CANDIDATE_LIMIT),
        text("ledger after the reset"),
      ]);
      expect((await suite.store.search("f", { query: "progress ledger", mode: "ranked" })).hits).toHaveLength(3);

      // Nor do another session's rows written in between.
      await suite.store.append("d", [text("progress once"), ...quiet(RANKED_CANDIDATE_LIMIT)]);
      await suite.store.append("e", fillers(RANKED_CANDIDATE_LIMIT + 1));
      await suite.store.append("d", [text("ledger once")]);
      const interleaved = await suite.store.search("d", { query: "progress ledger", mode: "ranked" });
      expect(interleaved.hits.map((hit) => [hit.row.sessionId, hit.row.seq]).sort()).toEqual([
        ["d", 1],
        ["d", 2],
        ["d", RANKED_CANDIDATE_LIMIT + 2],
      ]);
    });

    test("literal search stays exact where a word pre-filter would mislead", async () => {
      // Each decoy holds the words "alpha beta" in a row and every trigram of "x alpha beta g", never the text.
      const decoyCount = 300;
      const decoys = Array.from({ length: decoyCount }, (_, index) =>
        reply(`decoy ${index}: alpha, beta; max alpha gamma beta tag`),
      );
      await suite.store.append("w", [text("the real x alpha beta gamma"), ...decoys, text("alpha beta at the start")]);
      const page = await suite.store.search("w", { query: " alpha beta", mode: "literal", limit: 5 });
      expect(page.hits.map((hit) => hit.row.seq)).toEqual([1]);
      expect(
        (await suite.store.search("w", { query: "x alpha beta g", mode: "literal" })).hits.map((hit) => hit.row.seq),
      ).toEqual([1]);
      expect(
        (await suite.store.search("w", { query: "alpha beta", mode: "literal" })).hits.map((hit) => hit.row.seq),
      ).toEqual([decoyCount + 2, 1]);
      const decoyPage = await suite.store.search("w", { query: "ALPHA, BETA; MAX", mode: "literal", limit: 2 });
      expect(decoyPage.hits.map((hit) => hit.row.seq)).toEqual([decoyCount + 1, decoyCount]);
    });

    test("sessions written in turns stay apart in search", async () => {
      for (let index = 0; index < 30; index += 1) {
        await suite.store.append("left", [text(`shared phrase number ${index}`)]);
        await suite.store.append("right", [text(`shared phrase number ${index}`)]);
      }
      const left = await suite.store.search("left", { query: "shared phrase number", mode: "literal", limit: 3 });
      expect(left.hits.map((hit) => [hit.row.sessionId, hit.row.seq])).toEqual([
        ["left", 30],
        ["left", 29],
        ["left", 28],
      ]);
      const ranked = await suite.store.search("right", { query: "shared phrase", mode: "ranked", limit: 50 });
      expect(ranked.hits).toHaveLength(30);
      expect(new Set(ranked.hits.map((hit) => hit.row.sessionId))).toEqual(new Set(["right"]));
    });

    test("refuses queries that cannot be searched", async () => {
      for (const options of [
        { query: "", mode: "literal" },
        { query: "   ", mode: "ranked" },
        { query: "x".repeat(10_000), mode: "literal" },
        { query: "ledger ".repeat(1_500), mode: "ranked" },
        { query: "!!!", mode: "ranked" },
        { query: "the of and to", mode: "ranked" },
        { query: "x\u0000y", mode: "literal" },
        { query: "needle\u0000", mode: "literal" },
        { query: "alpha\u0000beta", mode: "ranked" },
      ] as const) {
        await expect(suite.store.search("s", options)).rejects.toSatisfy((error: unknown) =>
          InvalidQueryError.isInstance(error),
        );
      }
      await expect(suite.store.search("s", { query: "x", mode: "fuzzy" as "literal" })).rejects.toSatisfy(
        (error: unknown) => InvalidArgumentError.isInstance(error),
      );
    });
  });
}
