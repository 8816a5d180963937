/**
 * An imported session is dated by its transcript, never by the import (ADR 0079): the session's
 * header row gets the earliest time of its lines, or the start the format states when it is
 * earlier (a first line without a time does not leave the start to the store's clock), and a row whose line
 * states no time gets the time of the row before it (or, at the start, the first time after it).
 */
import { IMPORTED_SESSION_TYPE } from "./transcript-rows.js";
import type { SessionRows, SourceLine, SourceRow } from "./source-format.js";

/**
 * @example const built = withTranscriptTimes(source.rows({ sessionId, lines, settled }), lines);
 */
export function withTranscriptTimes(built: SessionRows, lines: readonly SourceLine[]): SessionRows {
  let first: number | undefined;
  for (const { time } of lines) if (time !== undefined && (first === undefined || time < first)) first = time;
  // A format may know an earlier start than any line's own time (Codex: `session_meta.payload.timestamp`).
  const stated = built.rows.find(({ row }) => row.meta?.type === IMPORTED_SESSION_TYPE)?.row.createdAt;
  const statedTime = stated === undefined ? Number.NaN : Date.parse(String(stated));
  if (!Number.isNaN(statedTime) && (first === undefined || statedTime < first)) first = statedTime;
  if (first === undefined) return built;
  const start = new Date(first).toISOString();
  const isHeader = (row: SourceRow) => row.meta?.type === IMPORTED_SESSION_TYPE;
  let previous = built.rows.find(({ row }) => row.createdAt !== undefined && !isHeader(row))?.row.createdAt;
  const rows = built.rows.map((entry) => {
    const { row } = entry;
    if (row.meta?.type === IMPORTED_SESSION_TYPE) return { ...entry, row: { ...row, createdAt: start } };
    if (row.createdAt !== undefined) {
      previous = row.createdAt;
      return entry;
    }
    return { ...entry, row: { ...row, createdAt: previous ?? start } };
  });
  return { ...built, rows };
}
