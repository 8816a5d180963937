/**
 * The HistoryStore conformance suite: one set of cases that every backend must pass (like Hono's
 * shared router tests). A backend that cannot support a case lists it in `skip` with the reason.
 * Test-only: excluded from the build.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RowValidationError } from "../core/errors.js";
import type { RowInput } from "../core/row.js";
import { InvalidArgumentError } from "../core/errors.js";
import { AppendConflictError, DuplicateRolloverError, StoreClosedError } from "./errors.js";
import type { HistoryStore } from "./port.js";
import { compaction, leadIn, reply, reset, rollover, text, textOf } from "./test-support/conformance-rows.js";
import { describeChildVisibilityConformance } from "./test-support/conformance-child-visibility.js";
import { describeCrossSearchConformance } from "./test-support/conformance-cross-search.js";
import { describeHistoryLookupConformance } from "./test-support/conformance-history-lookups.js";
import { describeHugeRowConformance } from "./test-support/conformance-huge-rows.js";
import { describeLineageConformance } from "./test-support/conformance-lineage.js";
import { describeSearchConformance } from "./test-support/conformance-search.js";
import { describeSearchFilterConformance } from "./test-support/conformance-search-filters.js";

export interface ConformanceContext {
  now: () => Date;
  generateId: () => string;
}

export interface ConformanceOptions {
  /** Case titles this backend skips, each with the reason. */
  skip?: Record<string, string>;
}

/**
 * @example
 * describeStoreConformance("memory", (context) => openStore({ backend: "memory", ...context }));
 */
export function describeStoreConformance(
  name: string,
  open: (context: ConformanceContext) => HistoryStore | Promise<HistoryStore>,
  options: ConformanceOptions = {},
): void {
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
        expect(first[0]).toMatchObject({
          sessionId: "s",
          seq: 1,
          id: "id-1",
          role: "user",
          createdAt: "2026-01-01T00:00:01.000Z",
        });
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
            {
              type: "tool-read_file",
              toolCallId: "c1",
              state: "output-available",
              input: { path: "a.ts" },
              output: { lines: ["x", "y"] },
            },
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
        await expect(store.append("s", bad)).rejects.toSatisfy((error: unknown) =>
          RowValidationError.isInstance(error),
        );
        await expect(store.append("s", [])).rejects.toSatisfy((error: unknown) => RowValidationError.isInstance(error));
        await expect(store.append("", [text("x")])).rejects.toSatisfy((error: unknown) =>
          InvalidArgumentError.isInstance(error),
        );
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
        await expect(store.append("s", [text("b"), rollover("r1", "w:2")])).rejects.toSatisfy((error: unknown) =>
          DuplicateRolloverError.isInstance(error),
        );
        await expect(store.append("s", [rollover("r2", "w:2"), rollover("r2", "w:2")])).rejects.toSatisfy(
          (error: unknown) => DuplicateRolloverError.isInstance(error),
        );
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
          await expect(store.append("s", [text("x")], options)).rejects.toSatisfy((error: unknown) =>
            InvalidArgumentError.isInstance(error),
          );
        }
        expect(await store.lastSeq("s")).toBe(0);
      });
    });

    describe("windows", () => {
      test("activeWindow of an unknown session is an empty first window", async () => {
        expect(await store.activeWindow("nobody")).toEqual({
          windowId: "w:0",
          boundarySeq: 0,
          kind: "start",
          rows: [],
          skipped: 0,
          lastSeq: 0,
        });
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
        expect(page.windows[0]).toMatchObject({
          kind: "compaction",
          firstSeq: 7,
          lastSeq: 8,
          rowCount: 2,
          visibleCount: 2,
          active: true,
        });
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
        expect(next).toEqual({
          hasMore: false,
          windows: [expect.objectContaining({ windowId: "w:0", kind: "start", firstSeq: 1, lastSeq: 2, rowCount: 2 })],
        });
      });

      test("a rollover window's summary carries its boundary's contextTokens and maxTokens; other windows none", async () => {
        const measured = (rolloverId: string, contextTokens: number, maxTokens: number): RowInput => {
          const row = rollover(rolloverId);
          return { ...row, meta: { ...row.meta, type: "rollover", contextTokens, maxTokens } };
        };
        await store.append("s", [text("a"), measured("r1", 1420, 2000), leadIn("r1"), text("b")]);
        await store.append("s", [measured("r2", 0, 128_000), text("c"), compaction("sum"), reset(), text("d")]);
        const { windows } = await store.windows("s", { includeCleared: true });
        const figures = windows.map(({ windowId, kind, contextTokens, maxTokens }) => ({
          windowId,
          kind,
          contextTokens,
          maxTokens,
        }));
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
        expect((await store.windows("s", { includeCleared: true })).windows.map((window) => window.windowId)).toEqual([
          "w:4",
          "w:2",
          "w:0",
        ]);
        expect(await store.privacyFloor("s")).toBe(4);
      });

      test("refuses malformed window options", async () => {
        for (const options of [
          { limit: 0 },
          { limit: -1 },
          { limit: 2.5 },
          { limit: 100_000 },
          { beforeWindow: "w:-1" },
          { beforeWindow: "3" },
        ]) {
          await expect(store.windows("s", options)).rejects.toSatisfy((error: unknown) =>
            InvalidArgumentError.isInstance(error),
          );
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

      test("readHits reads several rows in the order asked, with their windows, in the session and above the floor", async () => {
        const hits = await store.readHits("s", [6, 2, 99, 0, 4]);
        expect(hits.map((hit) => [hit.row.seq, hit.windowId])).toEqual([
          [6, "w:4"],
          [2, "w:0"],
          [4, "w:4"],
        ]);
        expect(hits[0]?.row).toEqual(await store.read("s", 6));
        expect(await store.readHits("other", [2, 1])).toEqual([
          expect.objectContaining({ row: expect.objectContaining({ seq: 1 }), windowId: "w:0" }),
        ]);
        expect(await store.readHits("nobody", [1])).toEqual([]);
        expect(await store.readHits("s", [])).toEqual([]);
        await store.append("s", [reset(), text("fresh")]);
        expect((await store.readHits("s", [1, 10])).map((hit) => hit.row.seq)).toEqual([10]);
        expect((await store.readHits("s", [1, 10], { includeCleared: true })).map((hit) => hit.row.seq)).toEqual([
          1, 10,
        ]);
        for (const seqs of [[1.5], [-1], "1"] as unknown as number[][]) {
          await expect(store.readHits("s", seqs)).rejects.toSatisfy((error: unknown) =>
            InvalidArgumentError.isInstance(error),
          );
        }
      });

      test("refuses malformed item options", async () => {
        for (const options of [{ windowId: "window-1" }, { afterSeq: -1 }, { beforeSeq: 1.5 }, { limit: 0 }]) {
          await expect(store.items("s", options)).rejects.toSatisfy((error: unknown) =>
            InvalidArgumentError.isInstance(error),
          );
        }
      });

      test("refuses a read of a seq that is no integer, and a malformed parent on any append", async () => {
        for (const seq of [1.5, Number.NaN, "1"] as unknown as number[]) {
          await expect(store.read("s", seq)).rejects.toSatisfy((error: unknown) =>
            InvalidArgumentError.isInstance(error),
          );
        }
        const parent = { sessionId: "p", itemId: "" };
        for (const sessionId of ["s", "new"]) {
          await expect(store.append(sessionId, [text("two")], { parent })).rejects.toSatisfy((error: unknown) =>
            InvalidArgumentError.isInstance(error),
          );
        }
        expect([await store.lastSeq("s"), await store.lastSeq("new")]).toEqual([8, 0]);
      });
    });

    describeSearchConformance({
      get store() {
        return store;
      },
      test,
    });
    describeSearchFilterConformance({
      get store() {
        return store;
      },
      test,
    });
    describeHistoryLookupConformance({
      get store() {
        return store;
      },
      test,
    });

    describeHugeRowConformance({
      get store() {
        return store;
      },
      test,
    });

    describeLineageConformance({
      get store() {
        return store;
      },
      test,
    });
    describeChildVisibilityConformance({
      get store() {
        return store;
      },
      test,
    });
    describeCrossSearchConformance({
      get store() {
        return store;
      },
      test,
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
        expect(summary).toMatchObject({
          sessionId: "s",
          lastSeq: 5,
          floorSeq: 4,
          windowCount: 3,
          createdAt: "2026-01-01T00:00:01.000Z",
        });
        expect(summary?.incarnation).toEqual(expect.any(String));
        expect((await store.sessions())[0]).toEqual(summary);
        await store.append("s", [text("d")]);
        expect((await store.session("s"))?.incarnation).toBe(summary?.incarnation);
      });

      test("a closed store refuses further use", async () => {
        await store.close();
        await expect(store.lastSeq("s")).rejects.toSatisfy((error: unknown) => StoreClosedError.isInstance(error));
        await expect(store.append("s", [text("x")])).rejects.toSatisfy((error: unknown) =>
          StoreClosedError.isInstance(error),
        );
        const calls = [
          () => store.activeWindow("s"),
          () => store.windows("s"),
          () => store.items("s"),
          () => store.read("s", 1),
          () => store.readHits("s", [1]),
          () => store.search("s", { query: "x", mode: "literal" }),
          () => store.sessions(),
          () => store.session("s"),
          () => store.attachParent("s", { sessionId: "p", itemId: "i" }),
          () => store.deleteSession("s"),
        ];
        for (const call of calls)
          await expect(call()).rejects.toSatisfy((error: unknown) => StoreClosedError.isInstance(error));
      });
    });
  });
}
