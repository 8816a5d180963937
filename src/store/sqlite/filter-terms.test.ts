import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { RowInput } from "../../core/row.js";
import { openStore } from "../open-store.js";
import type { StoreWarning } from "../port.js";
import { writeFormatFiveDatabase } from "./test-support/format-five-database.js";
import { temporaryDatabases } from "../test-support/temporary-database.js";
import { expectCurrentFormatWhole } from "./test-support/current-format.js";
import { bashRow, LEDGER_FILTER_TERMS, ledgerRows } from "../test-support/ledger-rows.js";

const sessions: Record<string, RowInput[][]> = {
  s: [ledgerRows("broken ledger")],
  t: [[bashRow]],
};

function termsOf(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare(
        "SELECT s.session_id, f.term, f.seq FROM ctxwin_filter_terms f JOIN ctxwin_sessions s USING (session_key) ORDER BY 1, 2, 3",
      )
      .all();
    return (rows as { session_id: string; term: string; seq: number }[]).map(
      (row) => `${row.session_id} ${row.term} ${row.seq}`,
    );
  } finally {
    db.close();
  }
}

const temporaryDatabase = temporaryDatabases("ctxwin-terms-");

describe("SQLite filter terms (store format 6, ADR 0051)", () => {
  it("an append writes each searchable row's role and called tools, once each, in lower case", async () => {
    const file = temporaryDatabase();
    const store = openStore({ path: file });
    for (const [sessionId, appends] of Object.entries(sessions))
      for (const rows of appends) await store.append(sessionId, rows);
    await store.close();
    expect(termsOf(file)).toEqual(LEDGER_FILTER_TERMS);
  });

  it.each([5, 4] as const)(
    "opens a format-%i database and fills the filter terms from its rows; a row that no longer decodes is left out",
    async (format) => {
      const file = temporaryDatabase();
      await writeFormatFiveDatabase({ file, sessions, format });
      const old = new Database(file);
      expect(old.pragma("user_version", { simple: true })).toBe(format);
      expect(
        old.prepare("SELECT count(*) AS count FROM sqlite_schema WHERE name = 'ctxwin_filter_terms'").get(),
      ).toEqual({ count: 0 });
      old.prepare("UPDATE ctxwin_rows SET body = '{\"broken' WHERE seq = 5 AND session_key = 1").run();
      old.close();

      const warnings: StoreWarning[] = [];
      const store = openStore({ path: file, onWarning: (warning) => warnings.push(warning) });
      const seqs = async (sessionId: string, options: object) =>
        (await store.search(sessionId, { query: "ledger", mode: "literal", ...options })).hits.map(
          (hit) => hit.row.seq,
        );
      expect(await seqs("s", { toolName: "READ_FILE" })).toEqual([2]);
      expect(await seqs("s", { role: "system" })).toEqual([4]);
      expect(await seqs("t", { toolName: "bash" })).toEqual([1]);
      expect(await seqs("t", { toolName: "read_file" })).toEqual([]);
      expect(warnings).toEqual([]);
      await store.close();
      // The row broken since (seq 5 of "s") has no terms.
      expect(termsOf(file)).toEqual(LEDGER_FILTER_TERMS.filter((term) => term !== "s role:user 5"));
      expectCurrentFormatWhole(file);
    },
  );

  it("deleting a session deletes its terms", async () => {
    const file = temporaryDatabase();
    const store = openStore({ path: file });
    for (const [sessionId, appends] of Object.entries(sessions))
      for (const rows of appends) await store.append(sessionId, rows);
    await store.deleteSession("s");
    await store.close();
    expect(termsOf(file)).toEqual(["t role:assistant 1", "t tool:bash 1"]);
  });
});
