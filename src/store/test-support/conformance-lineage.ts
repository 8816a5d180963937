/**
 * Conformance cases (issue 30): sessions form a tree. A fork shares its origin's rows up to a seq
 * without copying them, with the floor, windows and boundaries as they were then; a child records
 * its parent. Test-only.
 */
import { describe, expect } from "vitest";
import { InvalidArgumentError } from "../../core/errors.js";
import type { HistoryStore } from "../port.js";
import { MAX_LINEAGE_DEPTH } from "../lineage/attach-parent.js";
import { AttachParentRefusedError, ForkRefusedError, SessionHasForksError } from "../lineage/lineage-errors.js";
import type { ConformanceSuite } from "./conformance-search.js";
import { leadIn, reply, reset, rollover, text, textOf } from "./conformance-rows.js";

const attachRefusedFor = (reason: string) => (error: unknown) =>
  AttachParentRefusedError.isInstance(error) && error.reason === reason;
/** Expects `attachParent(sessionId, parent)` to be refused for `reason`. */
async function expectAttachRefused(
  store: HistoryStore,
  sessionId: string,
  parent: { sessionId: string; itemId: string },
  reason: string,
): Promise<void> {
  await expect(store.attachParent(sessionId, parent)).rejects.toSatisfy(attachRefusedFor(reason));
}
const refusedFor = (reason: string) => (error: unknown) =>
  ForkRefusedError.isInstance(error) && error.reason === reason;

/**
 * @example describeLineageConformance({ get store() { return store; }, test });
 */
export function describeLineageConformance(suite: ConformanceSuite): void {
  const { test } = suite;
  describe("lineage: fork", () => {
    test("a fork shares the history up to atSeq and goes its own way after it", async () => {
      const { store } = suite;
      await store.append("origin", [text("one"), reply("two"), text("three"), reply("four"), text("five")]);
      const summary = await store.fork("origin", { atSeq: 3, newSessionId: "fork" });
      expect(summary).toMatchObject({
        sessionId: "fork",
        lastSeq: 3,
        floorSeq: 0,
        windowCount: 1,
        forkOf: { sessionId: "origin", atSeq: 3 },
      });
      expect((await store.items("fork")).rows.map((row) => [row.sessionId, row.seq, textOf(row)])).toEqual([
        ["fork", 1, "one"],
        ["fork", 2, "two"],
        ["fork", 3, "three"],
      ]);
      const [own] = await store.append("fork", [text("another four")]);
      expect(own?.seq).toBe(4);
      await store.append("origin", [reply("six")]);
      expect(textOf((await store.read("fork", 2))!)).toBe("two");
      expect(textOf((await store.read("fork", 4))!)).toBe("another four");
      expect(await store.read("fork", 5)).toBeUndefined();
      // Several rows at once: the shared ones through the origin, under the fork's id.
      expect(
        (await store.readHits("fork", [4, 5, 2])).map((hit) => [
          hit.row.sessionId,
          hit.row.seq,
          textOf(hit.row),
          hit.windowId,
        ]),
      ).toEqual([
        ["fork", 4, "another four", "w:0"],
        ["fork", 2, "two", "w:0"],
      ]);
      expect((await store.items("fork")).rows.map((row) => textOf(row))).toEqual([
        "one",
        "two",
        "three",
        "another four",
      ]);
      expect((await store.items("origin")).rows.map((row) => textOf(row))).toEqual([
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
      ]);
      expect((await store.activeWindow("fork")).rows.map((row) => row.seq)).toEqual([1, 2, 3, 4]);
      expect((await store.sessions({ forkOfSessionId: "origin" })).map((session) => session.sessionId)).toEqual([
        "fork",
      ]);
      expect((await store.session("origin"))?.forkOf).toBeUndefined();
    });

    test("items page across the fork point in both directions", async () => {
      const { store } = suite;
      await store.append("origin", [text("a"), text("b"), text("c"), text("d")]);
      await store.fork("origin", { atSeq: 3, newSessionId: "fork" });
      await store.append("fork", [text("x"), text("y")]);
      const seqs = (page: { rows: { seq: number }[]; hasMore: boolean }) => [
        page.rows.map((row) => row.seq),
        page.hasMore,
      ];
      expect(seqs(await store.items("fork", { afterSeq: 1, limit: 2 }))).toEqual([[2, 3], true]);
      expect(seqs(await store.items("fork", { afterSeq: 2, limit: 2 }))).toEqual([[3, 4], true]);
      expect(seqs(await store.items("fork", { afterSeq: 3, limit: 5 }))).toEqual([[4, 5], false]);
      expect(seqs(await store.items("fork", { beforeSeq: 6, limit: 3 }))).toEqual([[3, 4, 5], true]);
      expect(seqs(await store.items("fork", { beforeSeq: 5, limit: 1 }))).toEqual([[4], true]);
      expect(seqs(await store.items("fork", { beforeSeq: 3, limit: 5 }))).toEqual([[1, 2], false]);
    });

    test("windows, the active window and boundaries are as they were at atSeq", async () => {
      const { store } = suite;
      await store.append("origin", [
        text("a"),
        reply("b"),
        rollover("r1"),
        leadIn("r1"),
        text("c"),
        reply("d"),
        rollover("r2", "w:3"),
        text("e"),
      ]);
      await store.fork("origin", { atSeq: 5, newSessionId: "fork" });
      const active = await store.activeWindow("fork");
      expect([active.windowId, active.kind, active.lastSeq, active.rows.map((row) => row.seq)]).toEqual([
        "w:3",
        "rollover",
        5,
        [3, 4, 5],
      ]);
      const before = await store.windows("fork");
      expect(
        before.windows.map((window) => [
          window.windowId,
          window.lastSeq,
          window.rowCount,
          window.visibleCount,
          window.active,
        ]),
      ).toEqual([
        ["w:3", 5, 3, 1, true],
        ["w:0", 2, 2, 2, false],
      ]);
      expect(before.windows[0]).toMatchObject({
        kind: "rollover",
        reason: "on-send",
        rolloverId: "r1",
        contextTokens: 900,
      });
      await store.append("fork", [reply("own d")]);
      const after = await store.windows("fork", { limit: 1 });
      expect([
        after.windows.map((window) => [window.windowId, window.lastSeq, window.rowCount, window.visibleCount]),
        after.hasMore,
      ]).toEqual([[["w:3", 6, 4, 2]], true]);
      expect((await store.windows("fork", { beforeWindow: "w:3" })).windows.map((window) => window.windowId)).toEqual([
        "w:0",
      ]);
      expect((await store.items("fork", { windowId: "w:3" })).rows.map((row) => textOf(row))).toEqual([
        "",
        "lead-in r1",
        "c",
        "own d",
      ]);
      expect((await store.items("fork", { windowId: "w:7" })).rows).toEqual([]);
      expect((await store.session("fork"))?.windowCount).toBe(2);
      await store.append("fork", [rollover("r3", "w:3"), text("f")]);
      expect((await store.activeWindow("fork")).rows.map((row) => row.seq)).toEqual([7, 8]);
      expect((await store.windows("fork")).windows.map((window) => window.windowId)).toEqual(["w:7", "w:3", "w:0"]);
    });

    test("the privacy floor is the one at atSeq; a reset of the fork hides the shared rows", async () => {
      const { store } = suite;
      await store.append("origin", [text("secret before clear"), reset(), text("kept three"), text("kept four")]);
      await store.fork("origin", { atSeq: 4, newSessionId: "fork" });
      await store.append("origin", [reset(), text("after origin clear")]);
      expect(await store.privacyFloor("fork")).toBe(2);
      expect(await store.read("fork", 1)).toBeUndefined();
      expect(textOf((await store.read("fork", 1, { includeCleared: true }))!)).toBe("secret before clear");
      expect((await store.items("fork")).rows.map((row) => row.seq)).toEqual([3, 4]);
      expect((await store.items("fork", { beforeSeq: 5 })).rows.map((row) => row.seq)).toEqual([3, 4]);
      expect((await store.search("fork", { query: "kept", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([
        4, 3,
      ]);
      expect((await store.search("fork", { query: "secret", mode: "literal" })).hits).toEqual([]);
      expect((await store.windows("fork")).windows.map((window) => window.windowId)).toEqual(["w:2"]);
      expect((await store.items("origin")).rows.map((row) => row.seq)).toEqual([6]);
      await store.append("fork", [reset(), text("fresh")]);
      expect((await store.items("fork")).rows.map((row) => textOf(row))).toEqual(["fresh"]);
      expect((await store.search("fork", { query: "kept", mode: "ranked" })).hits).toEqual([]);
      expect(await store.read("fork", 3)).toBeUndefined();
    });

    test("search covers both parts, newest first, under the fork's id", async () => {
      const { store } = suite;
      await store.append("origin", [
        text("deploy the ledger service"),
        reply("ledger deployed to staging"),
        text("ledger rollback in origin only"),
      ]);
      await store.fork("origin", { atSeq: 2, newSessionId: "fork" });
      await store.append("fork", [text("ledger checks in the fork")]);
      const literal = await store.search("fork", { query: "ledger", mode: "literal" });
      expect(literal.hits.map((hit) => [hit.row.sessionId, hit.row.seq, hit.windowId])).toEqual([
        ["fork", 3, "w:0"],
        ["fork", 2, "w:0"],
        ["fork", 1, "w:0"],
      ]);
      const paged = await store.search("fork", { query: "ledger", mode: "literal", limit: 2 });
      expect([paged.hits.map((hit) => hit.row.seq), paged.hasMore]).toEqual([[3, 2], true]);
      expect(
        (await store.search("fork", { query: "ledger", mode: "literal", beforeSeq: 3 })).hits.map((hit) => hit.row.seq),
      ).toEqual([2, 1]);
      const ranked = await store.search("fork", { query: "staging", mode: "ranked" });
      expect(ranked.hits.map((hit) => [hit.row.sessionId, hit.row.seq])).toEqual([["fork", 2]]);
      const all = await store.search("fork", { query: "ledger", mode: "ranked", limit: 10 });
      expect(all.hits.map((hit) => hit.row.seq).sort()).toEqual([1, 2, 3]);
      expect((await store.search("fork", { query: "rollback", mode: "ranked" })).hits).toEqual([]);
    });

    test("a fork of a fork reads through both origins", async () => {
      const { store } = suite;
      await store.append("origin", [text("one"), text("two"), text("three")]);
      await store.fork("origin", { atSeq: 2, newSessionId: "first" });
      await store.append("first", [text("first three"), text("first four")]);
      await store.fork("first", { atSeq: 3, newSessionId: "second" });
      await store.append("second", [text("second four")]);
      expect((await store.items("second")).rows.map((row) => [row.sessionId, textOf(row)])).toEqual([
        ["second", "one"],
        ["second", "two"],
        ["second", "first three"],
        ["second", "second four"],
      ]);
      expect((await store.search("second", { query: "o", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([
        4, 2, 1,
      ]);
      expect((await store.session("second"))?.forkOf).toEqual({ sessionId: "first", atSeq: 3 });
    });

    test("bad forks are refused and write nothing", async () => {
      const { store } = suite;
      await store.append("origin", [text("a"), reset(), text("b")]);
      await store.append("taken", [text("x")]);
      const before = await store.sessions();
      await expect(store.fork("nobody", { atSeq: 1, newSessionId: "f" })).rejects.toSatisfy(
        refusedFor("unknown-session"),
      );
      await expect(store.fork("origin", { atSeq: 4, newSessionId: "f" })).rejects.toSatisfy(refusedFor("unknown-seq"));
      await expect(store.fork("origin", { atSeq: 2, newSessionId: "f" })).rejects.toSatisfy(refusedFor("behind-floor"));
      await expect(store.fork("origin", { atSeq: 3, newSessionId: "taken" })).rejects.toSatisfy(
        refusedFor("session-exists"),
      );
      await expect(store.fork("origin", { atSeq: 0, newSessionId: "f" })).rejects.toSatisfy((error: unknown) =>
        InvalidArgumentError.isInstance(error),
      );
      await expect(store.fork("origin", { atSeq: 3, newSessionId: "" })).rejects.toSatisfy((error: unknown) =>
        InvalidArgumentError.isInstance(error),
      );
      expect(await store.sessions()).toEqual(before);
      expect(await store.lastSeq("f")).toBe(0);
    });

    test("an origin cannot be deleted while a fork shares its rows", async () => {
      const { store } = suite;
      await store.append("origin", [text("a"), text("b")]);
      await store.fork("origin", { atSeq: 1, newSessionId: "fork" });
      await expect(store.deleteSession("origin")).rejects.toSatisfy((error: unknown) =>
        SessionHasForksError.isInstance(error),
      );
      expect(await store.lastSeq("origin")).toBe(2);
      expect(await store.deleteSession("fork")).toBe(true);
      expect(await store.deleteSession("origin")).toBe(true);
    });
  });

  describe("lineage: children", () => {
    test("a child records its parent and the task call's item id", async () => {
      const { store } = suite;
      await store.append("parent", [text("delegate this")]);
      await store.append("child", [text("the task")], { parent: { sessionId: "parent", itemId: "2" } });
      await store.append("child", [reply("done")], { parent: { sessionId: "elsewhere", itemId: "9" } });
      expect((await store.session("child"))?.parent).toEqual({ sessionId: "parent", itemId: "2" });
      expect((await store.sessions({ parentSessionId: "parent" })).map((session) => session.sessionId)).toEqual([
        "child",
      ]);
      expect(await store.sessions({ parentSessionId: "child" })).toEqual([]);
      expect((await store.session("parent"))?.parent).toBeUndefined();
      await expect(
        store.append("other", [text("x")], { parent: { sessionId: "parent", itemId: "" } }),
      ).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error));
      expect(await store.lastSeq("other")).toBe(0);
    });
  });

  describe("lineage: attachParent", () => {
    test("attaches a session created without a parent, once; the same parent again changes nothing", async () => {
      const { store } = suite;
      await store.append("parent", [text("delegate this")]);
      await store.append("child", [text("the task")]);
      const before = await store.session("child");
      expect(await store.attachParent("child", { sessionId: "parent", itemId: "1" })).toBe("attached");
      const after = await store.session("child");
      expect(after?.parent).toEqual({ sessionId: "parent", itemId: "1" });
      expect(after).toEqual({ ...before, parent: { sessionId: "parent", itemId: "1" } });
      expect((await store.sessions({ parentSessionId: "parent" })).map((session) => session.sessionId)).toEqual([
        "child",
      ]);
      expect(await store.attachParent("child", { sessionId: "parent", itemId: "1" })).toBe("unchanged");
      expect((await store.items("child")).rows.map((row) => textOf(row))).toEqual(["the task"]);
    });

    test("a different parent, a fork, an unknown session or parent, and a bad argument are refused and write nothing", async () => {
      const { store } = suite;
      await store.append("parent", [text("p")]);
      await store.append("other", [text("o")]);
      await store.append("child", [text("c")], { parent: { sessionId: "parent", itemId: "1" } });
      await store.append("alone", [text("a")]);
      await store.fork("alone", { atSeq: 1, newSessionId: "fork" });
      await expectAttachRefused(store, "child", { sessionId: "other", itemId: "1" }, "has-other-parent");
      await expectAttachRefused(store, "child", { sessionId: "parent", itemId: "2" }, "has-other-parent");
      await expectAttachRefused(store, "fork", { sessionId: "parent", itemId: "1" }, "is-fork");
      await expectAttachRefused(store, "nobody", { sessionId: "parent", itemId: "1" }, "unknown-session");
      await expectAttachRefused(store, "alone", { sessionId: "nobody", itemId: "1" }, "unknown-parent");
      await expect(store.attachParent("alone", { sessionId: "parent", itemId: "" })).rejects.toSatisfy(
        (error: unknown) => InvalidArgumentError.isInstance(error),
      );
      expect((await store.session("child"))?.parent).toEqual({ sessionId: "parent", itemId: "1" });
      for (const id of ["fork", "alone", "parent", "other"]) expect((await store.session(id))?.parent).toBeUndefined();
      expect(await store.session("nobody")).toBeUndefined();
    });

    test("a cycle is refused: the session itself, or any ancestor of the new parent", async () => {
      const { store } = suite;
      await store.append("root", [text("r")]);
      await store.append("middle", [text("m")], { parent: { sessionId: "root", itemId: "1" } });
      await store.append("leaf", [text("l")], { parent: { sessionId: "middle", itemId: "1" } });
      await expectAttachRefused(store, "root", { sessionId: "root", itemId: "1" }, "cycle");
      await expectAttachRefused(store, "root", { sessionId: "leaf", itemId: "1" }, "cycle");
      await expectAttachRefused(store, "root", { sessionId: "middle", itemId: "1" }, "cycle");
      expect((await store.session("root"))?.parent).toBeUndefined();
    });

    test(`a chain of parents deeper than ${MAX_LINEAGE_DEPTH} is refused`, async () => {
      const { store } = suite;
      await store.append("level-0", [text("root")]);
      for (let level = 1; level < MAX_LINEAGE_DEPTH; level += 1) {
        await store.append(`level-${level}`, [text("x")], { parent: { sessionId: `level-${level - 1}`, itemId: "1" } });
      }
      await store.append("deepest", [text("d")]);
      await store.append("too-deep", [text("t")]);
      expect(await store.attachParent("deepest", { sessionId: `level-${MAX_LINEAGE_DEPTH - 1}`, itemId: "1" })).toBe(
        "attached",
      );
      await expectAttachRefused(store, "too-deep", { sessionId: "deepest", itemId: "1" }, "too-deep");
      expect((await store.session("too-deep"))?.parent).toBeUndefined();
    });

    test("racing attachments leave one parent, never a cycle", async () => {
      const { store } = suite;
      for (const id of ["a", "b", "p1", "p2", "c"]) await store.append(id, [text(id)]);
      const mutual = await Promise.allSettled([
        store.attachParent("a", { sessionId: "b", itemId: "1" }),
        store.attachParent("b", { sessionId: "a", itemId: "1" }),
      ]);
      expect(mutual.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
      const refused = mutual.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
      expect(attachRefusedFor("cycle")(refused?.reason)).toBe(true);
      const parents = [(await store.session("a"))?.parent?.sessionId, (await store.session("b"))?.parent?.sessionId];
      expect(parents.filter((parent) => parent !== undefined)).toHaveLength(1);

      const rivals = await Promise.allSettled([
        store.attachParent("c", { sessionId: "p1", itemId: "1" }),
        store.attachParent("c", { sessionId: "p2", itemId: "1" }),
      ]);
      expect(rivals.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
      const winner = rivals[0].status === "fulfilled" ? "p1" : "p2";
      expect((await store.session("c"))?.parent).toEqual({ sessionId: winner, itemId: "1" });
    });
  });
}
