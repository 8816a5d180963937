import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RowInput } from "../../core/row.js";
import { createMemoryStore } from "../memory/memory-store.js";
import { openStore } from "../open-store.js";
import type { CrossSearchOptions, CrossSearchPage, HistoryStore } from "../port.js";
import { reply, reset, text, textOf } from "../test-support/conformance-rows.js";
import { createTestDatabase, postgresUnavailable, type TestDatabase } from "../test-support/postgres-database.js";

/** A clock a second further on each call, from the same start in every store. */
const steppingClock = () => {
  let tick = 0;
  return () => new Date(Date.UTC(2026, 0, 1) + 1000 * (tick += 1));
};

const summary = (page: CrossSearchPage) => ({
  hits: page.hits.map((hit) => [hit.sessionId, hit.row.seq, textOf(hit.row), hit.windowId]),
  moreInSession: page.moreInSession,
  hasMore: page.hasMore,
  nextOffset: page.nextOffset,
  partial: page.partial,
  sessionsSearched: page.sessionsSearched,
});

/**
 * 40 sessions of 25 rows: "alpha" in every row, "beta" in a few rows of every third session,
 * "gamma 77" in one row of the oldest; some sessions cleared part way, one forked, one written to
 * again later (its activity moves it first).
 */
async function seedFleet(store: HistoryStore): Promise<void> {
  for (let index = 0; index < 40; index += 1) {
    const rows: RowInput[] = [];
    for (let seq = 1; seq <= 25; seq += 1) {
      const words = [`alpha note ${index}.${seq}`];
      if (index % 3 === 0 && seq % 8 === 0) words.push("beta");
      if (index === 0 && seq === 12) words.push("gamma 77");
      rows.push(seq % 2 === 1 ? text(words.join(" ")) : reply(words.join(" ")));
    }
    await store.append(`s${String(index).padStart(2, "0")}`, rows);
    if (index % 7 === 3) await store.append(`s${String(index).padStart(2, "0")}`, [reset(), text("alpha after beta")]);
  }
  await store.fork("s09", { atSeq: 16, newSessionId: "s09-fork" });
  await store.append("s09-fork", [text("alpha beta of the fork")]);
  await store.append("s01", [reply("alpha beta, later")]);
}

describe.skipIf(postgresUnavailable !== "")("PostgreSQL cross-session search (ADR 0089, 0093, 0094)", () => {
  let database: TestDatabase;
  const opened: HistoryStore[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const store of opened.splice(0)) await store.close();
    await database.drop();
  });

  it("a clear made through another connection applies to the next search at once", async () => {
    const reader = openStore({ url: database.url, schema: "cleared_elsewhere" });
    const writer = openStore({ url: database.url, schema: "cleared_elsewhere" });
    opened.push(reader, writer);
    await writer.append("s", [text("the walnut secret")]);
    const first = await reader.searchSessions({ query: "walnut secret", mode: "literal" });
    expect(first.hits.map((hit) => hit.sessionId)).toEqual(["s"]);
    // The same sessions table again: the scope is kept; then a clear, a new session and a fork change it.
    expect((await reader.searchSessions({ query: "walnut secret", mode: "literal" })).hits).toHaveLength(1);
    await writer.append("s", [reset()]);
    expect((await reader.searchSessions({ query: "walnut secret", mode: "literal" })).hits).toEqual([]);
    await writer.append("t", [text("a walnut secret too")]);
    expect(
      (await reader.searchSessions({ query: "walnut secret", mode: "ranked" })).hits.map((hit) => hit.sessionId),
    ).toEqual(["t"]);
    await writer.fork("t", { atSeq: 1, newSessionId: "u" });
    expect(
      (await reader.searchSessions({ query: "walnut secret", mode: "literal" })).hits.map((hit) => hit.sessionId),
    ).toEqual(["u", "t"]);
    await writer.deleteSession("u");
    expect(
      (await reader.searchSessions({ query: "walnut secret", mode: "literal" })).hits.map((hit) => hit.sessionId),
    ).toEqual(["t"]);
  });

  it("pages as the memory store does, whether the sessions are walked or listed by an index", async () => {
    const memory = createMemoryStore({ now: steppingClock() });
    const postgres = openStore({ url: database.url, schema: "fleet", now: steppingClock() });
    opened.push(memory, postgres);
    await seedFleet(memory);
    await seedFleet(postgres);
    // "alpha" fills a page from the newest sessions; "beta" and "gamma 77" are too sparse to walk
    // for (an index lists them); "note 3." is in every row of one session only.
    const searches: CrossSearchOptions[] = [
      { query: "alpha", mode: "literal" },
      { query: "alpha", mode: "literal", limit: 7, offset: 14, hitsPerSession: 2 },
      { query: "beta", mode: "literal", limit: 50, hitsPerSession: 5 },
      { query: "beta", mode: "literal", limit: 4, offset: 4 },
      { query: "gamma 77", mode: "literal" },
      { query: "note 3.", mode: "literal" },
      { query: "gamma", mode: "ranked" },
      { query: "beta", mode: "ranked", limit: 50, hitsPerSession: 5 },
      // A role filter (ADR 0093) is part of the walk's condition and of each index's statement.
      { query: "alpha", mode: "literal", role: "assistant" },
      { query: "alpha", mode: "literal", role: "user", limit: 7, offset: 14, hitsPerSession: 2 },
      { query: "beta", mode: "literal", role: "user", limit: 50, hitsPerSession: 5 },
      { query: "gamma 77", mode: "literal", role: "assistant" },
      { query: "gamma 77", mode: "literal", role: "user" },
      { query: "gamma", mode: "ranked", role: "user" },
      { query: "beta", mode: "ranked", role: "assistant", order: "newest", limit: 50, hitsPerSession: 5 },
    ];
    for (const search of searches) {
      const expected = summary(await memory.searchSessions(search));
      expect({ search, page: summary(await postgres.searchSessions(search)) }).toEqual({ search, page: expected });
    }
    // A common word's ranked page: the same sessions' rows, in an order BM25 may break ties of differently.
    const ranked = await postgres.searchSessions({ query: "alpha", mode: "ranked", limit: 50 });
    expect(ranked.hits).toHaveLength(50);
    expect(ranked.hits.every((hit) => textOf(hit.row).includes("alpha"))).toBe(true);
    // Filtered, walked and then listed by the word index: only rows that pass, still a full page.
    const filtered = await postgres.searchSessions({ query: "alpha", mode: "ranked", role: "user", limit: 50 });
    expect(filtered.hits).toHaveLength(50);
    expect(filtered.hits.every((hit) => hit.row.role === "user" && textOf(hit.row).includes("alpha"))).toBe(true);
  });
});
