/**
 * The open check must not mistake another process's commits for damage. FTS5's part of
 * `quick_check` reuses the index structure cached on the connection by an earlier statement;
 * when a writer merged segments in between, the stale structure points at pages that are gone
 * and SQLite reports "fts5: corruption found". The crash test hit this about one run in three
 * (a worker opening the file while the previous one wrote), and the false report marked a
 * healthy file damaged. Here the writer's commits are placed exactly between the check's
 * statements, so the case is deterministic.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openStore } from "../open-store.js";
import { findDamage } from "./open-check.js";
import { temporaryDatabases } from "../test-support/temporary-database.js";

const temporaryDatabase = temporaryDatabases("ctxwin-open-check-");

async function newHistory(): Promise<string> {
  const file = temporaryDatabase();
  const store = openStore({ path: file });
  for (let index = 0; index < 20; index += 1) {
    await store.append("s", [
      { role: "user", parts: [{ type: "text", text: `ctx note ${index} about the alpha release` }] },
    ]);
  }
  await store.close();
  return file;
}

/** Commits one row at a time to both search indexes, as a concurrent writer does; each commit may merge segments. */
function commitFromAnotherConnection(file: string, commits: number, firstRowid: number): void {
  const writer = new Database(file);
  try {
    for (let index = 0; index < commits; index += 1) {
      for (const name of ["ctxwin_search_words", "ctxwin_search_literal"]) {
        writer
          .prepare(`INSERT INTO ${name} (rowid, text) VALUES (?, ?)`)
          .run(firstRowid + index, `ctx later note ${index} beta`);
      }
    }
  } finally {
    writer.close();
  }
}

/** The connection, with `quick_check` preceded by another connection's commits. */
function withCommitsBeforeQuickCheck(db: Database.Database, file: string): Database.Database {
  let firstRowid = 1_000;
  return new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== "function") return value;
      if (property !== "pragma") return value.bind(target);
      return (source: string, options?: Database.PragmaOptions) => {
        if (source.startsWith("quick_check")) {
          commitFromAnotherConnection(file, 40, firstRowid);
          firstRowid += 40;
        }
        return target.pragma(source, options);
      };
    },
  });
}

describe("the open check while another process writes", () => {
  it("reports no damage when commits land between its statements", async () => {
    const file = await newHistory();
    const db = new Database(file);
    try {
      const checked = withCommitsBeforeQuickCheck(db, file);
      for (let round = 0; round < 5; round += 1) expect(findDamage(checked, file), `round ${round}`).toBeUndefined();
    } finally {
      db.close();
    }
    const fresh = new Database(file, { readonly: true });
    try {
      expect(fresh.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      fresh.close();
    }
  });
});
