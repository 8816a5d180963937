import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openStore } from "../open-store.js";
import { statementSql } from "./statements.js";

function queryPlan(db: Database.Database, sql: string, parameters: unknown[]): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map(
    (step) => step.detail,
  );
}

describe("SQLite query plans", () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-plan-")), "ctxwin.db");

  it("search is driven by the FTS5 index within the session's row-key range, never by a walk over rows", async () => {
    const store = openStore({ path: file });
    await store.append("s", [{ role: "user", parts: [{ type: "text", text: "hello" }] }]);
    await store.close();
    const db = new Database(file, { readonly: true });
    const bounds = [1, 1000, 1, 0, 10];
    const plans = [
      queryPlan(db, statementSql.searchLiteral, ['"hello"', ...bounds]),
      queryPlan(db, statementSql.searchWordPhrase, ['"hello world" *', ...bounds]),
    ];
    for (const plan of plans) {
      expect(plan[0]).toMatch(/^SCAN f VIRTUAL TABLE/);
      expect(plan[1]).toMatch(/^SEARCH r USING INTEGER PRIMARY KEY/);
      expect(plan.join(" ")).not.toMatch(/TEMP B-TREE/);
    }
    // Ranked search: the index alone (or joined row by row) picks the newest candidates, newest
    // first; no sort in SQL (ADR 0016).
    const keys = [1, 1000];
    // idxNum 192 = FTS5 itself delivers rowid order, descending (0x40 | 0x80), so the scan stops
    // at the cap; "M2><" = MATCH (of every column: the word index has two, ADR 0052) plus both
    // row-key bounds.
    const index = expect.stringMatching(/^SCAN f VIRTUAL TABLE INDEX 192:M2></);
    const byKey = "SEARCH r USING INTEGER PRIMARY KEY (rowid=?)";
    expect(queryPlan(db, statementSql.countWordRows, ['"hello"', ...keys, 1001])).toEqual([
      "CO-ROUTINE (subquery-1)",
      index,
      "SCAN (subquery-1)",
    ]);
    expect(queryPlan(db, statementSql.countSessionWordRows, ['"hello"', ...bounds, 1001])).toEqual([
      "CO-ROUTINE (subquery-1)",
      index,
      byKey,
      "SCAN (subquery-1)",
    ]);
    // A literal query's first matches, oldest first (idxNum 64 = FTS5 delivers ascending rowid order): no sort.
    expect(queryPlan(db, statementSql.literalKeysAscending, ['"hel"', ...keys, 65])).toEqual([
      expect.stringMatching(/^SCAN f VIRTUAL TABLE INDEX 64:M1></),
    ]);
    expect(queryPlan(db, statementSql.sessionRowByKey, [1, 1, 0, 10])).toEqual([
      "SEARCH r USING INTEGER PRIMARY KEY (rowid=?)",
    ]);
    // The newest candidates and their scores, unsorted: core orders them (ADR 0031).
    expect(queryPlan(db, statementSql.scoreWordsNewest, ['"hello"', ...keys, 500])).toEqual([index]);
    expect(queryPlan(db, statementSql.scoreSessionWordsNewest, ['"hello"', ...bounds, 500])).toEqual([index, byKey]);
    // Filter terms (ADR 0051): counted and walked on the table's key, newest first, each row by its key.
    expect(queryPlan(db, statementSql.countFilterTermRows, [1, "tool:bash", 0, 10, 1000])).toEqual([
      "CO-ROUTINE (subquery-1)",
      "SEARCH ctxwin_filter_terms USING PRIMARY KEY (session_key=? AND term=? AND seq>? AND seq<?)",
      "SCAN (subquery-1)",
    ]);
    expect(queryPlan(db, statementSql.filterTermRows, [1, "tool:bash", 0, 10])).toEqual([
      "SEARCH t USING PRIMARY KEY (session_key=? AND term=? AND seq>? AND seq<?)",
      "SEARCH r USING INDEX ctxwin_rows_by_seq (session_key=? AND seq=?)",
    ]);
    expect(queryPlan(db, statementSql.scanVisible, bounds)).toEqual([
      "SEARCH r USING INDEX ctxwin_rows_by_seq (session_key=? AND seq>? AND seq<?)",
    ]);
    expect(queryPlan(db, statementSql.rowsFrom, [1, 1])).toEqual([
      "SEARCH ctxwin_rows USING INDEX ctxwin_rows_by_seq (session_key=? AND seq>?)",
    ]);
    db.close();
  });
});
