import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { bm25Scorer, termCounts } from "../../core/bm25.js";
import { contextTerms } from "../../core/ranked-context.js";
import { rankedTerms } from "../../core/search-query.js";
import { WORD_INDEX_V6, WORD_SCORE } from "./word-index.js";

describe("the SQLite word index (format 6)", () => {
  it("FTS5's bm25() over a row's terms and context is core's BM25, so every backend ranks alike (ADR 0052)", () => {
    const texts = [
      "Did you paint that sunrise over the lake?",
      "Yes, I painted it last year, the sunrise was lovely",
      "We went camping with the kids",
      "How often do you work out with your family?",
      "Three times a week; it keeps us on track.",
      "Sunrise, sunset, sunrise again: painting every day",
      "nothing to see here",
    ];
    const own = texts.map((text) => rankedTerms(text));
    const context = own.map((_terms, index) => (index === 0 ? [] : contextTerms(own[index - 1] ?? [])));
    const db = new Database(":memory:");
    try {
      db.exec(WORD_INDEX_V6);
      const insert = db.prepare("INSERT INTO ctxwin_search_words (rowid, text, context) VALUES (?, ?, ?)");
      own.forEach((terms, index) => insert.run(index + 1, terms.join(" "), (context[index] ?? []).join(" ")));
      const search = db.prepare(
        `SELECT rowid, ${WORD_SCORE} AS score FROM ctxwin_search_words WHERE ctxwin_search_words MATCH ? ORDER BY rowid`,
      );
      const rows = own.map((terms, index) => ({
        counts: termCounts({ own: terms, context: context[index] ?? [] }),
        length: terms.length + (context[index] ?? []).length,
      }));
      for (const words of [
        ["sunris"],
        ["paint", "sunris"],
        ["often", "work", "famili"],
        ["the"],
        ["kid", "camp", "week"],
      ]) {
        const fromSqlite = search.all(words.map((word) => `"${word}"`).join(" OR ")) as {
          rowid: number;
          score: number;
        }[];
        const score = bm25Scorer({
          words,
          rows: rows.length,
          terms: rows.reduce((sum, row) => sum + row.length, 0),
          wordRows: (word) => rows.filter((row) => row.counts.has(word)).length,
        });
        const fromCore = rows
          .map((row, index) => ({ rowid: index + 1, score: score(row) }))
          .filter((entry) => entry.score > 0);
        expect(
          fromSqlite.map((entry) => entry.rowid),
          words.join(" "),
        ).toEqual(fromCore.map((entry) => entry.rowid));
        fromSqlite.forEach((entry, index) =>
          expect(entry.score, words.join(" ")).toBeCloseTo(fromCore[index]?.score ?? Number.NaN, 12),
        );
      }
    } finally {
      db.close();
    }
  });
});
