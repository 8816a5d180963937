/**
 * `ctxwin doctor` on one database file (ADR 0021): examine it, rebuild its search indexes when
 * only they are damaged, and optionally salvage every readable row to a JSONL export first.
 * A file found healthy in the end loses its damage mark (ADR 0020), so the store opens again.
 */
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { StoreFormatError } from "../../errors.js";
import { clearDamageMark } from "../damage-mark.js";
import { assertUsableFile } from "../open-database.js";
import { CTXWIN_APPLICATION_ID } from "../schema.js";
import { isReadOnlyFailure } from "../sqlite-failures.js";
import { checkDatabase } from "./check-database.js";
import { rebuildSearchIndexes } from "./rebuild-search.js";
import { salvageRows, type SalvageReport } from "./salvage-rows.js";

export type DoctorCondition = "healthy" | "repaired" | "search-index-damaged" | "damaged";

export interface DoctorReport {
  path: string;
  /** At the end: `healthy` (nothing found), `repaired` (search indexes rebuilt), or still damaged. */
  condition: DoctorCondition;
  /** What the check found first (at most 20 lines). */
  problems: string[];
  /** Rows indexed again when the search indexes were rebuilt. */
  rowsIndexed?: number;
  /** False when the file or its folder cannot be written: nothing was repaired. */
  writable: boolean;
  salvage?: SalvageReport;
}

export interface DoctorOptions {
  path: string;
  /** Receives the salvage export line by line; no salvage when absent. */
  salvage?: (line: string) => void;
  busyTimeoutMs?: number;
}

/**
 * @example
 * const report = doctorDatabase({ path: ".ctxwin/ctxwin.db" });
 */
export function doctorDatabase({ path: file, salvage, busyTimeoutMs = 10_000 }: DoctorOptions): DoctorReport {
  if (!existsSync(file)) throw new StoreFormatError(file, `No ctxwin database at '${file}'.`);
  assertUsableFile(file);
  const connect = () => new Database(file, { fileMustExist: true, timeout: busyTimeoutMs });
  let db = connect();
  let writable = true;
  try {
    try {
      assertCtxwin(db, file);
      db.pragma("schema_version");
      db.exec("BEGIN IMMEDIATE; ROLLBACK");
    } catch (error) {
      if (!isReadOnlyFailure(error)) throw error;
      db.close();
      db = new Database(file, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
      assertCtxwin(db, file);
      writable = false;
    }
    const report: DoctorReport = { path: file, condition: "healthy", problems: [], writable };
    if (salvage !== undefined) report.salvage = salvageRows(db, salvage);
    const found = checkDatabase(db, { writable });
    report.condition = found.condition;
    report.problems = found.problems;
    if (found.condition === "search-index-damaged" && writable) {
      db.close();
      report.rowsIndexed = rebuildSearchIndexes(connect);
      db = connect();
      const after = checkDatabase(db, { writable });
      report.condition = after.condition === "healthy" ? "repaired" : after.condition;
      if (after.condition !== "healthy") report.problems = after.problems;
    }
    if (writable && (report.condition === "healthy" || report.condition === "repaired")) clearDamageMark(file);
    return report;
  } finally {
    db.close();
  }
}

function assertCtxwin(db: Database.Database, file: string): void {
  if ((db.pragma("application_id", { simple: true }) as number) !== CTXWIN_APPLICATION_ID) {
    throw new StoreFormatError(
      file,
      `'${file}' is not a ctxwin database (its SQLite application id is not ctxwin's); ctxwin doctor left it untouched.`,
    );
  }
}
