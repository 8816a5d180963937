/**
 * The search-filter cases of the HistoryStore conformance suite (`../conformance.ts`): role, tool
 * name and order filters (ADR 0033), their bounds and refusals, the same on every backend. Test-only.
 */
import { beforeEach, describe, expect } from "vitest";
import { InvalidArgumentError } from "../../core/errors.js";
import type { RowInput } from "../../core/row.js";
import { RANKED_CANDIDATE_LIMIT } from "../../core/ranked-search-plan.js";
import { LITERAL_SCAN_LIMIT } from "../filtered-scan.js";
import type { SearchOptions } from "../port.js";
import { fillers, reply, reset, text } from "./conformance-rows.js";
import { seedSearchRows, type ConformanceSuite } from "./conformance-search.js";

/**
 * @example
 * describeSearchFilterConformance({ get store() { return store; }, test });
 */
export function describeSearchFilterConformance(suite: ConformanceSuite): void {
  const { test } = suite;
  describe("search filters", () => {
    beforeEach(() => seedSearchRows(suite.store));

    const toolRows = (): RowInput[] => [
      text("deploy the ledger service"),
      reply("ledger deployed"),
      {
        role: "assistant",
        parts: [
          {
            type: "tool-Bash",
            toolCallId: "c1",
            state: "output-available",
            input: { command: "ledger status" },
            output: "ok",
          },
        ],
      },
      {
        role: "assistant",
        parts: [
          {
            type: "dynamic-tool",
            toolName: "read_file",
            toolCallId: "c2",
            state: "output-error",
            input: { path: "ledger.md" },
            errorText: "missing",
          },
        ],
      },
      text("ledger again"),
      {
        role: "assistant",
        parts: [
          { type: "text", text: "checking the ledger" },
          { type: "tool-bash", toolCallId: "c3", state: "input-available", input: { command: "ls" } },
        ],
      },
    ];
    const seqsOf = (page: { hits: { row: { seq: number } }[] }) => page.hits.map((hit) => hit.row.seq);

    test("filters by role and by tool name (ADR 0033), in both modes", async () => {
      await suite.store.append("t", toolRows());
      for (const mode of ["literal", "ranked"] as const) {
        const sorted = async (options: object) =>
          seqsOf(await suite.store.search("t", { query: "ledger", mode, limit: 25, ...options })).sort(
            (left, right) => left - right,
          );
        expect(await sorted({})).toEqual([1, 2, 3, 4, 5, 6]);
        expect(await sorted({ role: "user" })).toEqual([1, 5]);
        expect(await sorted({ role: "assistant" })).toEqual([2, 3, 4, 6]);
        // A tool part matches in any state (call only, result, error), whatever the name's case.
        expect(await sorted({ toolName: "BASH" })).toEqual([3, 6]);
        expect(await sorted({ toolName: "read_file" })).toEqual([4]);
        expect(await sorted({ toolName: "grep" })).toEqual([]);
        expect(await sorted({ role: "user", toolName: "bash" })).toEqual([]);
      }
      expect(seqsOf(await suite.store.search("t", { query: "ledger", mode: "literal", role: "assistant" }))).toEqual([
        6, 4, 3, 2,
      ]);
      // A filtered page is full when enough rows pass, and pages on by offset without gaps.
      const first = await suite.store.search("t", { query: "ledger", mode: "ranked", role: "assistant", limit: 3 });
      const rest = await suite.store.search("t", {
        query: "ledger",
        mode: "ranked",
        role: "assistant",
        limit: 3,
        offset: 3,
      });
      expect(first.hasMore).toBe(true);
      expect(rest.hasMore).toBe(false);
      expect([...seqsOf(first), ...seqsOf(rest)].sort((left, right) => left - right)).toEqual([2, 3, 4, 6]);
      const literalPage = await suite.store.search("t", {
        query: "ledger",
        mode: "literal",
        toolName: "bash",
        limit: 1,
      });
      expect([seqsOf(literalPage), literalPage.hasMore]).toEqual([[6], true]);
    });

    test("ranked results come newest first on request, the same rows as by relevance", async () => {
      await suite.store.append("t", toolRows());
      const newest = await suite.store.search("t", {
        query: "ledger deploy",
        mode: "ranked",
        order: "newest",
        limit: 25,
      });
      expect(seqsOf(newest)).toEqual([6, 5, 4, 3, 2, 1]);
      const relevant = await suite.store.search("t", {
        query: "ledger deploy",
        mode: "ranked",
        order: "relevance",
        limit: 25,
      });
      expect(seqsOf(relevant)).not.toEqual(seqsOf(newest));
      expect([...seqsOf(relevant)].sort((left, right) => right - left)).toEqual(seqsOf(newest));
      const paged = await suite.store.search("t", {
        query: "ledger",
        mode: "ranked",
        order: "newest",
        role: "user",
        limit: 1,
        offset: 1,
      });
      expect([seqsOf(paged), paged.hasMore]).toEqual([[1], false]);
      expect(
        seqsOf(await suite.store.search("t", { query: "ledger", mode: "literal", order: "newest", limit: 2 })),
      ).toEqual([6, 5]);
    });

    test("filters never reach rows at or before the privacy floor, hidden or rejected rows", async () => {
      expect(seqsOf(await suite.store.search("s", { query: "zx-4471", mode: "literal", role: "user" }))).toEqual([
        8, 1,
      ]);
      expect(seqsOf(await suite.store.search("s", { query: "needle", mode: "ranked", toolName: "grep" }))).toEqual([3]);
      await suite.store.append("s", [reset(), reply("after the reset: needle again")]);
      expect(seqsOf(await suite.store.search("s", { query: "needle", mode: "ranked", toolName: "grep" }))).toEqual([]);
      expect(seqsOf(await suite.store.search("s", { query: "needle", mode: "literal", role: "assistant" }))).toEqual([
        11,
      ]);
      expect(
        seqsOf(
          await suite.store.search("s", { query: "zx-4471", mode: "literal", role: "user", includeCleared: true }),
        ),
      ).toEqual([8, 1]);
    });

    test("a filtered ranked search keeps to the rows the ranked bound scores (ADR 0016, 0033)", async () => {
      await suite.store.append("b", [text("progress from the user"), ...fillers(RANKED_CANDIDATE_LIMIT + 10)]);
      // The newest RANKED_CANDIDATE_LIMIT rows with the word are all the assistant's.
      expect(seqsOf(await suite.store.search("b", { query: "progress", mode: "ranked", role: "user" }))).toEqual([]);
      expect(seqsOf(await suite.store.search("b", { query: "progress", mode: "literal", role: "user" }))).toEqual([1]);
      expect(
        seqsOf(await suite.store.search("b", { query: "progress", mode: "ranked", role: "user", beforeSeq: 100 })),
      ).toEqual([1]);
    });

    /** Every hit of a literal search, paging on where each page says to resume; and how many calls it took. */
    const allLiteralHits = async (sessionId: string, options: Omit<SearchOptions, "mode" | "beforeSeq">) => {
      const seqs: number[] = [];
      let beforeSeq: number | undefined;
      for (let calls = 1; calls <= 20; calls += 1) {
        const page = await suite.store.search(sessionId, {
          ...options,
          mode: "literal",
          ...(beforeSeq === undefined ? {} : { beforeSeq }),
        });
        seqs.push(...seqsOf(page));
        if (page.resumeBeforeSeq === undefined) return { seqs, calls, hasMore: page.hasMore };
        beforeSeq = page.resumeBeforeSeq;
      }
      throw new Error("the search did not end within 20 calls");
    };
    /** User rows without the word "progress": they hold the filter term `role:user`, not the query. */
    const userChatter = (count: number) => Array.from({ length: count }, (_, index) => text(`user chatter ${index}`));

    test("a filtered literal search reads a bounded number of rows and says where to resume (ADR 0033)", async () => {
      // Many rows of the role, and many matches of the query, but only the oldest row is both.
      await suite.store.append("l", [
        text("progress from the user"),
        ...userChatter(LITERAL_SCAN_LIMIT + 10),
        ...fillers(LITERAL_SCAN_LIMIT + 100),
      ]);
      const newest = 2 * LITERAL_SCAN_LIMIT + 111;
      const first = await suite.store.search("l", { query: "progress", mode: "literal", role: "user" });
      expect([seqsOf(first), first.hasMore]).toEqual([[], true]);
      expect(first.resumeBeforeSeq).toBeGreaterThan(1);
      expect(first.resumeBeforeSeq).toBeLessThanOrEqual(newest);
      expect(await allLiteralHits("l", { query: "progress", role: "user" })).toMatchObject({
        seqs: [1],
        hasMore: false,
      });
      // A page that fills first, an unfiltered search and a ranked one never stop early.
      const assistant = await suite.store.search("l", {
        query: "progress",
        mode: "literal",
        role: "assistant",
        limit: 3,
      });
      expect([seqsOf(assistant), assistant.resumeBeforeSeq]).toEqual([[newest, newest - 1, newest - 2], undefined]);
      expect(
        (await suite.store.search("l", { query: "from the user", mode: "literal" })).resumeBeforeSeq,
      ).toBeUndefined();
      expect(
        (await suite.store.search("l", { query: "progress", mode: "ranked", role: "user" })).resumeBeforeSeq,
      ).toBeUndefined();
    });

    test("a filter that no row of the range passes answers an empty last page at once, in both modes (ADR 0051)", async () => {
      await suite.store.append("n", [...toolRows(), ...fillers(LITERAL_SCAN_LIMIT + 100)]);
      await suite.store.append("n-other", [
        { role: "system", parts: [{ type: "text", text: "routine progress from the system" }] },
      ]);
      for (const mode of ["literal", "ranked"] as const) {
        for (const filter of [
          { toolName: "grep" },
          { role: "system" as const },
          { toolName: "bash", role: "user" as const },
          { toolName: "bash", beforeSeq: 3 },
        ]) {
          const page = await suite.store.search("n", { query: "progress", mode, ...filter });
          expect([mode, filter, seqsOf(page), page.hasMore, page.resumeBeforeSeq]).toEqual([
            mode,
            filter,
            [],
            false,
            undefined,
          ]);
        }
      }
      // The rows that do pass are found, however many rows match the query alone.
      expect(seqsOf(await suite.store.search("n", { query: "ledger", mode: "literal", toolName: "BASH" }))).toEqual([
        6, 3,
      ]);
    });

    test("a filtered literal search finds a tool's rare rows under many matching rows", async () => {
      await suite.store.append("r", [
        ...toolRows(),
        ...Array.from({ length: LITERAL_SCAN_LIMIT + 100 }, (_, index) => reply(`the ledger line ${index}`)),
      ]);
      expect(await allLiteralHits("r", { query: "ledger", toolName: "read_file" })).toMatchObject({
        seqs: [4],
        hasMore: false,
      });
      expect(await allLiteralHits("r", { query: "ledger", toolName: "bash", limit: 1 })).toMatchObject({ seqs: [6] });
    });

    test("a literal query of punctuation or stop words is searched exactly, and a miss costs a bounded call (ADR 0051)", async () => {
      await suite.store.append("p", [text("it is what it is ?! ~~"), ...fillers(LITERAL_SCAN_LIMIT + 50)]);
      for (const query of ["?!", "~~", " ?! ", "it is what it is", "the the the", "!!!"]) {
        const found = await allLiteralHits("p", { query });
        expect([query, found.seqs, found.hasMore]).toEqual([
          query,
          query === "the the the" || query === "!!!" ? [] : [1],
          false,
        ]);
        expect(found.calls).toBeLessThanOrEqual(3);
      }
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
        await expect(
          suite.store.search("s", { query: "zx", mode: "literal", ...(options as object) }),
        ).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error));
      }
      await expect(
        suite.store.search("s", { query: "zx", mode: "ranked", order: "oldest" as "newest" }),
      ).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error));
    });
  });
}
