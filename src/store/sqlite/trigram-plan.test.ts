import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createTrigramRarity, planTrigramQuery, type TrigramRarity } from "./trigram-plan.js";

/** A rarity answering from a table (unknown trigrams are in every row), recording what was probed. */
function tableRarity(rows: Record<string, number>): TrigramRarity & { probed: string[] } {
  const probed: string[] = [];
  return {
    probed,
    rowsIn(trigram, rangeKeys) {
      probed.push(trigram);
      return Math.min(rows[trigram] ?? rangeKeys, rangeKeys);
    },
  };
}

describe("planTrigramQuery", () => {
  it("asks only for a trigram that leaves few candidates, even one that looks common", () => {
    const rarity = tableRarity({ hth: 5 });
    expect(planTrigramQuery({ query: "lighthouse budget review", rangeKeys: 100_000, rarity })).toEqual({
      match: '"hth"',
      expectedRows: 5,
    });
  });

  it("adds the next rarest trigram that does not overlap a chosen one while it rules out more than its walk costs", () => {
    // "mig" overlaps "igr"; "edg" (in another word) leaves 10% of igr's rows; "lan" would cost more than it saves.
    const rarity = tableRarity({ igr: 800, mig: 900, edg: 10_000, dge: 20_000, lan: 47_000 });
    const plan = planTrigramQuery({ query: "migration plan for the ledger", rangeKeys: 100_000, rarity });
    expect(plan?.match).toBe('"igr" AND "edg"');
    expect(plan?.expectedRows).toBeCloseTo(80);
  });

  it("ANDs at most six trigrams, in the query's order", () => {
    const rows = Object.fromEntries(
      "abcdefghijklmnopqrstuvwx".split("").map((letter, index) => [`${letter}${letter}${letter}`, 40_000 + index]),
    );
    const plan = planTrigramQuery({ query: "bbbcccdddfffggghhhkkk", rangeKeys: 100_000, rarity: tableRarity(rows) });
    expect(plan?.match).toBe('"bbb" AND "ccc" AND "ddd" AND "fff" AND "ggg" AND "hhh"');
  });

  it("stops probing at the first trigram with few rows, trying the rarest-looking (digits, punctuation) first", () => {
    const rarity = tableRarity({ "441": 5, "-44": 5, "417": 5, "e-4": 5 });
    const plan = planTrigramQuery({ query: "kestrel-invoice-4417", rangeKeys: 100_000, rarity });
    expect(rarity.probed).toHaveLength(1);
    expect(plan?.expectedRows).toBe(5);
  });

  it("probes at most 24 trigrams of a long query", () => {
    const rarity = tableRarity({});
    planTrigramQuery({
      query: "the quick brown fox jumps over the lazy dog again and again",
      rangeKeys: 1_000,
      rarity,
    });
    expect(rarity.probed).toHaveLength(24);
  });

  it("never asks for a trigram the index folds otherwise than containsLiteral, and gives up when none is left", () => {
    const rarity = tableRarity({});
    expect(planTrigramQuery({ query: "ᲐᲑᲒᲓ", rangeKeys: 1_000, rarity })).toBeUndefined();
    expect(planTrigramQuery({ query: "ab", rangeKeys: 1_000, rarity })).toBeUndefined();
    planTrigramQuery({ query: "İzmir", rangeKeys: 1_000, rarity });
    planTrigramQuery({ query: "\uDE00abc", rangeKeys: 1_000, rarity });
    expect(rarity.probed.sort()).toEqual(["abc", "mir", "zmi"]);
  });

  it("treats trigrams that differ only in case as one, as the index does", () => {
    const rarity = tableRarity({});
    planTrigramQuery({ query: "AbcABC", rangeKeys: 1_000, rarity });
    expect(rarity.probed.map((trigram) => trigram.toLowerCase()).sort()).toEqual(["abc", "bca", "cab"]);
  });
});

describe("createTrigramRarity", () => {
  function trigramIndex(texts: readonly string[]) {
    const db = new Database(":memory:");
    db.exec(
      "CREATE VIRTUAL TABLE t USING fts5(text, content = '', detail = none, tokenize = 'trigram case_sensitive 0')",
    );
    const insert = db.prepare("INSERT INTO t (rowid, text) VALUES (?, ?)");
    texts.forEach((text, index) => insert.run(index + 1, text));
    const statement = db.prepare("SELECT rowid AS row_key FROM t WHERE t MATCH ? ORDER BY rowid LIMIT ?");
    let probes = 0;
    const probe = new Proxy(statement, {
      get: (target, property) =>
        property === "all"
          ? (...parameters: unknown[]) => ((probes += 1), target.all(...parameters))
          : Reflect.get(target, property),
    });
    return { probe, probes: () => probes };
  }
  const texts = Array.from({ length: 1_000 }, (_unused, index) =>
    index % 200 === 7 ? "the kestrel report" : index % 4 === 0 ? "the ledger" : "the day",
  );

  it("counts a rare trigram exactly and estimates a common one from the span of its first rows", () => {
    const index = trigramIndex(texts);
    const rarity = createTrigramRarity({ probe: index.probe });
    expect(rarity.rowsIn("kes", 1_000)).toBe(5);
    expect(rarity.rowsIn("the", 1_000)).toBe(1_000);
    expect(rarity.rowsIn("led", 1_000)).toBeGreaterThan(200);
    expect(rarity.rowsIn("led", 1_000)).toBeLessThan(300);
    expect(rarity.rowsIn("zzz", 1_000)).toBe(0);
    // At most the range: a few rows in the file are at most that many in a smaller range.
    expect(rarity.rowsIn("kes", 3)).toBe(3);
  });

  it("remembers a probe for a minute, then probes again", () => {
    const index = trigramIndex(texts);
    let clock = 0;
    const rarity = createTrigramRarity({ probe: index.probe, now: () => clock });
    rarity.rowsIn("kes", 1_000);
    rarity.rowsIn("KES", 1_000);
    expect(index.probes()).toBe(1);
    clock = 60_001;
    rarity.rowsIn("kes", 1_000);
    expect(index.probes()).toBe(2);
  });
});
