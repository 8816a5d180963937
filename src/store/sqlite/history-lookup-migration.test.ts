/**
 * Store format 4 → 5 → 6 (issue 27): a database written before lookups were left out of search holds
 * each history lookup's text in both indexes; opening it re-indexes those rows, and search stops
 * returning them while every other row stays found.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { renderRowText } from "../../core/row-text.js";
import type { RowInput } from "../../core/row.js";
import { rankedTerms } from "../../core/search-query.js";
import { openStore } from "../open-store.js";
import { decodeRow } from "../row-codec.js";
import { historyLookup, text } from "../test-support/conformance-rows.js";
import { STORE_FORMAT_VERSION } from "./schema.js";
import { writeFormatFiveDatabase } from "./test-support/format-five-database.js";
import { temporaryDatabases } from "../test-support/temporary-database.js";

const temporaryDatabase = temporaryDatabases("ctxwin-lookup-migration-");

const rows: RowInput[] = [text("The codename is PELICAN-77."), historyLookup("PELICAN-77", { toolCallId: "c1" })];

describe("SQLite store format 4 → 5", () => {
  it("re-indexes rows holding a history lookup so that search no longer returns them", async () => {
    const file = temporaryDatabase();
    await writeFormatFiveDatabase({ file, sessions: { s: [rows] }, format: 4 });
    // Write the index as format 4 did: the lookup's call and query included.
    const db = new Database(file);
    for (const record of db.prepare("SELECT r.row_key, r.seq, r.body FROM ctxwin_rows r").all() as {
      row_key: number;
      seq: number;
      body: string;
    }[]) {
      const decoded = decodeRow("s", record.seq, record.body);
      if (!decoded.ok) throw new Error("fixture row did not decode");
      const oldText = renderRowText(decoded.row);
      db.prepare("DELETE FROM ctxwin_search_literal WHERE rowid = ?").run(record.row_key);
      db.prepare("DELETE FROM ctxwin_search_words WHERE rowid = ?").run(record.row_key);
      db.prepare("INSERT INTO ctxwin_search_literal (rowid, text) VALUES (?, ?)").run(record.row_key, oldText);
      db.prepare("INSERT INTO ctxwin_search_words (rowid, text) VALUES (?, ?)").run(
        record.row_key,
        rankedTerms(oldText).join(" "),
      );
    }
    expect(
      (
        db.prepare("SELECT count(*) AS n FROM ctxwin_search_words WHERE ctxwin_search_words MATCH 'pelican'").get() as {
          n: number;
        }
      ).n,
    ).toBe(2);
    db.pragma("user_version = 4");
    db.close();

    const reopened = openStore({ path: file });
    try {
      for (const mode of ["literal", "ranked"] as const) {
        expect((await reopened.search("s", { query: "PELICAN-77", mode })).hits.map((hit) => hit.row.seq)).toEqual([1]);
      }
      expect((await reopened.read("s", 2))?.parts[0]).toMatchObject({ toolName: "session_history" });
    } finally {
      await reopened.close();
    }
    const check = new Database(file, { readonly: true });
    expect(check.pragma("user_version", { simple: true })).toBe(STORE_FORMAT_VERSION);
    expect(
      (
        check
          .prepare("SELECT count(*) AS n FROM ctxwin_search_words WHERE ctxwin_search_words MATCH 'pelican'")
          .get() as { n: number }
      ).n,
    ).toBe(1);
    check.close();
  });
});
