/**
 * Conformance cases of `searchSessions` (issue 51, ADR 0089): one search across sessions with every
 * session's privacy floor, hidden rows, lineage (forks read their origin's rows, ADR 0059) and
 * sub-agent visibility (ADR 0073) applied inside it, hits capped per session, paged by hit.
 * Test-only.
 */
import { describe, expect } from "vitest";
import { InvalidArgumentError } from "../../core/errors.js";
import type { RowInput } from "../../core/row.js";
import type { CrossSearchOptions, CrossSearchPage } from "../port.js";
import type { ConformanceSuite } from "./conformance-search.js";
import { leadIn, reply, reset, rollover, text, textOf } from "./conformance-rows.js";

/** An assistant row calling `Bash` with `command` (the tool's input is searchable). */
const bash = (command: string): RowInput => ({
  role: "assistant",
  parts: [
    { type: "tool-Bash", toolCallId: `c-${command}`, state: "output-available", input: { command }, output: "ok" },
  ],
});

/** `[session, item, text]` of each hit, in page order. */
const found = (page: CrossSearchPage) => page.hits.map((hit) => [hit.sessionId, hit.row.seq, textOf(hit.row)]);

/**
 * @example describeCrossSearchConformance({ get store() { return store; }, test });
 */
export function describeCrossSearchConformance(suite: ConformanceSuite): void {
  const { test } = suite;
  describe("searchSessions: one search across sessions (ADR 0089)", () => {
    test("literal: by session, newest activity first, each session's newest hits first, under its own id", async () => {
      const { store } = suite;
      await store.append("old", [text("the staging database"), reply("no match here")]);
      await store.append("new", [text("Staging database again"), reply("staging DATABASE three")]);
      await store.append("quiet", [text("nothing to see")]);
      const page = await store.searchSessions({ query: "staging database", mode: "literal" });
      expect(found(page)).toEqual([
        ["new", 2, "staging DATABASE three"],
        ["new", 1, "Staging database again"],
        ["old", 1, "the staging database"],
      ]);
      expect(page.hits.every((hit) => hit.windowId === "w:0")).toBe(true);
      expect(page).toMatchObject({ hasMore: false, moreInSession: [], sessionsSearched: 3 });
    });

    test("ranked: one BM25 over all sessions, most relevant first", async () => {
      const { store } = suite;
      await store.append("a", [text("ledger totals"), text("ledger migration plan for the ledger migration")]);
      await store.append("b", [text("the migration of birds"), text("weather report")]);
      const page = await store.searchSessions({ query: "ledger migration", mode: "ranked" });
      expect(found(page)[0]).toEqual(["a", 2, "ledger migration plan for the ledger migration"]);
      // b:2 holds the words in its context (the row before it, ADR 0052), as in a single-session search.
      expect(
        found(page)
          .map(([sessionId, seq]) => `${String(sessionId)}:${String(seq)}`)
          .sort(),
      ).toEqual(["a:1", "a:2", "b:1", "b:2"]);
    });

    test("the privacy floor of each session applies; hidden rows are never found", async () => {
      const { store } = suite;
      await store.append("cleared", [text("needle before the clear"), reset(), text("needle after the clear")]);
      await store.append("hidden", [
        text("needle hidden", { synthetic: true, uiVisible: false }),
        rollover("r1"),
        leadIn("needle"),
      ]);
      for (const mode of ["literal", "ranked"] as const) {
        const page = await store.searchSessions({ query: "needle", mode });
        expect(found(page)).toEqual([["cleared", 3, "needle after the clear"]]);
      }
    });

    test("a fork finds its origin's rows up to the fork point under its own id, within its own floor", async () => {
      const { store } = suite;
      await store.append("origin", [
        text("shared needle one"),
        reply("shared needle two"),
        text("later needle in origin"),
      ]);
      await store.fork("origin", { atSeq: 2, newSessionId: "fork" });
      await store.append("fork", [text("own needle of the fork")]);
      const page = await store.searchSessions({ query: "needle", mode: "literal", hitsPerSession: 5 });
      expect(found(page)).toEqual([
        ["fork", 3, "own needle of the fork"],
        ["fork", 2, "shared needle two"],
        ["fork", 1, "shared needle one"],
        ["origin", 3, "later needle in origin"],
        ["origin", 2, "shared needle two"],
        ["origin", 1, "shared needle one"],
      ]);
      // A clear in the fork hides the origin's rows from the fork, not from the origin.
      await store.append("fork", [reset(), text("fork starts over")]);
      const after = await store.searchSessions({ query: "needle", mode: "ranked", hitsPerSession: 5 });
      expect(after.hits.filter((hit) => hit.sessionId === "fork")).toEqual([]);
      expect(after.hits.filter((hit) => hit.sessionId === "origin")).toHaveLength(3);
      // A clear in the origin after the fork point hides nothing of the fork.
      await store.fork("origin", { atSeq: 2, newSessionId: "second" });
      await store.append("origin", [reset()]);
      const cleared = await store.searchSessions({ query: "shared needle", mode: "literal", hitsPerSession: 5 });
      expect(found(cleared)).toEqual([
        ["second", 2, "shared needle two"],
        ["second", 1, "shared needle one"],
      ]);
    });

    test("a child a clear above it hides is not searched (ADR 0073); a later child is", async () => {
      const { store } = suite;
      await store.append("main", [text("the secret 0451"), reply("delegating")]);
      await store.append("main/child", [text("the secret 0451 again")], { parent: { sessionId: "main", itemId: "2" } });
      expect(
        (await store.searchSessions({ query: "secret 0451", mode: "literal" })).hits.map((hit) => hit.sessionId).sort(),
      ).toEqual(["main", "main/child"]);
      await store.append("main", [reset(), reply("delegating again")]);
      await store.append("main/late", [text("the secret 0451 once more")], {
        parent: { sessionId: "main", itemId: "4" },
      });
      for (const mode of ["literal", "ranked"] as const) {
        const page = await store.searchSessions({ query: "secret 0451", mode });
        expect(found(page)).toEqual([["main/late", 1, "the secret 0451 once more"]]);
        expect(page.sessionsSearched).toBe(2);
      }
    });

    test("role and tool filters and order are in the one query; floors, hidden rows, forks, children hold (ADR 0093)", async () => {
      const { store } = suite;
      await store.append("cleared", [
        bash("needle before the clear"),
        reset(),
        text("needle after the clear"),
        bash("needle after the clear"),
      ]);
      await store.append("hidden", [text("needle hidden", { synthetic: true, uiVisible: false }), reply("a needle")]);
      await store.append("origin", [text("needle in origin"), bash("needle shared"), text("later needle in origin")]);
      await store.fork("origin", { atSeq: 2, newSessionId: "fork" });
      await store.append("fork", [bash("needle of the fork")]);
      await store.append("main", [text("start"), reply("delegating")]);
      await store.append("main/child", [bash("needle of the child")], { parent: { sessionId: "main", itemId: "2" } });
      await store.append("main", [reset(), reply("delegating again")]);
      await store.append("main/late", [bash("needle of the late child")], {
        parent: { sessionId: "main", itemId: "4" },
      });
      const keys = (page: CrossSearchPage) => page.hits.map((hit) => `${hit.sessionId}:${hit.row.seq}`).sort();
      for (const mode of ["literal", "ranked"] as const) {
        const search = (options: Partial<CrossSearchOptions>) =>
          store.searchSessions({ query: "needle", mode, hitsPerSession: 5, limit: 50, ...options });
        expect(keys(await search({ toolName: "BASH" }))).toEqual([
          "cleared:4",
          "fork:2",
          "fork:3",
          "main/late:1",
          "origin:2",
        ]);
        expect(keys(await search({ role: "user" }))).toEqual(["cleared:3", "fork:1", "origin:1", "origin:3"]);
        expect(keys(await search({ role: "assistant", toolName: "bash" }))).toEqual(
          keys(await search({ toolName: "bash" })),
        );
        expect(keys(await search({ role: "user", toolName: "bash" }))).toEqual([]);
        expect(keys(await search({ toolName: "grep" }))).toEqual([]);
        // Newest first within each session (the literal order), for ranked with `order: "newest"` too.
        const newest = await search({ role: "user", ...(mode === "ranked" ? { order: "newest" as const } : {}) });
        expect(newest.hits.filter((hit) => hit.sessionId === "origin").map((hit) => hit.row.seq)).toEqual([3, 1]);
      }
      // Pages go by hit with a filter too.
      const first = await store.searchSessions({ query: "needle", mode: "literal", role: "user", limit: 2 });
      const second = await store.searchSessions({
        query: "needle",
        mode: "literal",
        role: "user",
        limit: 2,
        offset: 2,
      });
      expect(first).toMatchObject({ hasMore: true, nextOffset: 2 });
      expect([...keys(first), ...keys(second)].sort()).toEqual(["cleared:3", "fork:1", "origin:1", "origin:3"]);
      await expect(
        store.searchSessions({ query: "needle", mode: "literal", order: "relevance" }),
      ).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(
        store.searchSessions({ query: "needle", mode: "ranked", role: "tool" as never }),
      ).rejects.toBeInstanceOf(InvalidArgumentError);
    });

    test("hits are capped per session and paged by hit; sessionIds narrows the sessions", async () => {
      const { store } = suite;
      await store.append("chatty", [text("word 1"), text("word 2"), text("word 3"), text("word 4")]);
      await store.append("brief", [text("word 5")]);
      const first = await store.searchSessions({ query: "word", mode: "literal", limit: 2, hitsPerSession: 2 });
      expect(found(first)).toEqual([
        ["brief", 1, "word 5"],
        ["chatty", 4, "word 4"],
      ]);
      expect(first).toMatchObject({ hasMore: true, nextOffset: 2, moreInSession: ["chatty"] });
      const second = await store.searchSessions({
        query: "word",
        mode: "literal",
        limit: 2,
        hitsPerSession: 2,
        offset: 2,
      });
      expect(found(second)).toEqual([["chatty", 3, "word 3"]]);
      expect(second).toMatchObject({ hasMore: false, moreInSession: ["chatty"] });
      const narrowed = await store.searchSessions({ query: "word", mode: "ranked", sessionIds: ["brief", "unknown"] });
      expect(found(narrowed)).toEqual([["brief", 1, "word 5"]]);
      expect(narrowed.sessionsSearched).toBe(1);
    });
  });
}
