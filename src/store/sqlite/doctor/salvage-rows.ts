/**
 * Reads every row that can still be read out of a damaged database, as lines of ctxwin's JSONL
 * export (`ctxwin history export`), which `ctxwin import` loads into a new store. Rows are read
 * by key in small ranges; a range that hits damage is read again key by key, so one damaged page
 * costs only the rows stored on it. Sessions are named from `ctxwin_sessions` when it can be read,
 * otherwise `recovered-session-<key>`.
 */
import type Database from "better-sqlite3";
import { decodeRow } from "../../row-codec.js";
import { isCorruptionFailure } from "../sqlite-failures.js";

/** Row keys read per range query. */
const RANGE = 256;
/** Ranges in a row without a readable row after which the scan stops, when the highest key is unknown. */
const EMPTY_RANGES_BEFORE_STOP = 64;

export interface SalvageReport {
  rowsWritten: number;
  sessions: number;
  /** Rows read whose stored JSON no longer decodes. */
  rowsUndecodable: number;
  /** Row keys that could not be read because the page holding them is damaged. */
  keysUnreadable: number;
}

interface RowRecord {
  row_key: number;
  session_key: number;
  seq: number;
  body: string;
}

/**
 * @example
 * const report = salvageRows(db, (line) => output.write(line));
 */
export function salvageRows(db: Database.Database, write: (line: string) => void): SalvageReport {
  const sessionName = sessionNames(db);
  const range = db.prepare(
    "SELECT row_key, session_key, seq, body FROM ctxwin_rows WHERE row_key BETWEEN ? AND ? ORDER BY row_key",
  );
  const single = db.prepare("SELECT row_key, session_key, seq, body FROM ctxwin_rows WHERE row_key = ?");
  const highest = attempt(
    () =>
      (db.prepare("SELECT max(row_key) AS highest FROM ctxwin_rows").get() as { highest: number | null }).highest ?? 0,
  );
  const report: SalvageReport = { rowsWritten: 0, sessions: 0, rowsUndecodable: 0, keysUnreadable: 0 };
  const seenSessions = new Set<number>();

  const emit = (record: RowRecord) => {
    const decoded = decodeRow(sessionName(record.session_key), record.seq, record.body);
    if (!decoded.ok) {
      report.rowsUndecodable += 1;
      return;
    }
    write(`${JSON.stringify(decoded.row)}\n`);
    report.rowsWritten += 1;
    seenSessions.add(record.session_key);
  };

  let emptyRanges = 0;
  for (let low = 1; highest.ok ? low <= highest.value : emptyRanges < EMPTY_RANGES_BEFORE_STOP; low += RANGE) {
    const high = low + RANGE - 1;
    const records = attempt(() => range.all(low, high) as RowRecord[]);
    let found = 0;
    if (records.ok) {
      for (const record of records.value) emit(record);
      found = records.value.length;
    } else {
      for (let key = low; key <= high; key += 1) {
        const record = attempt(() => single.get(key) as RowRecord | undefined);
        if (!record.ok) report.keysUnreadable += 1;
        else if (record.value !== undefined) {
          emit(record.value);
          found += 1;
        }
      }
    }
    emptyRanges = found > 0 ? 0 : emptyRanges + 1;
  }
  report.sessions = seenSessions.size;
  return report;
}

/** Session ids by key: all at once, or one by one when the table is damaged. */
function sessionNames(db: Database.Database): (sessionKey: number) => string {
  const names = new Map<number, string>();
  const all = attempt(
    () =>
      db.prepare("SELECT session_key, session_id FROM ctxwin_sessions").all() as {
        session_key: number;
        session_id: string;
      }[],
  );
  if (all.ok) for (const entry of all.value) names.set(entry.session_key, entry.session_id);
  const single = db.prepare("SELECT session_id FROM ctxwin_sessions WHERE session_key = ?");
  return (sessionKey) => {
    let name = names.get(sessionKey);
    if (name === undefined) {
      const found = all.ok
        ? { ok: true as const, value: undefined }
        : attempt(() => single.get(sessionKey) as { session_id: string } | undefined);
      name = found.ok && found.value !== undefined ? found.value.session_id : `recovered-session-${sessionKey}`;
      names.set(sessionKey, name);
    }
    return name;
  };
}

/** Runs a read; a damaged page is a value, any other failure is thrown. */
function attempt<T>(read: () => T): { ok: true; value: T } | { ok: false } {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (!isCorruptionFailure(error)) throw error;
    return { ok: false };
  }
}
