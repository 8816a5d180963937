/**
 * Reading stored row bodies back. A body whose JSON is corrupt (edited by hand) or that was
 * written in a newer row format is skipped with a warning; a read never crashes on it.
 */
import { ROW_FORMAT_VERSION, StoredRowBodySchema } from "../core/row.js";
import { hasSearchFilter, rowMatchesFilter, type SearchFilter } from "../core/search-filter.js";
import type { StoreWarning, StoredRow } from "./port.js";

export type RowDecodeResult = { ok: true; row: StoredRow } | { ok: false; warning: StoreWarning };

export function decodeRow(sessionId: string, seq: number, body: string): RowDecodeResult {
  const skipped = (code: StoreWarning["code"], reason: string): RowDecodeResult => ({
    ok: false,
    warning: { code, sessionId, seq, message: `row ${seq} of session '${sessionId}' ${reason}` },
  });
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return skipped("corrupt-row", `has corrupt JSON (${(error as Error).message}); skipped`);
  }
  const parsed = StoredRowBodySchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? "" : ` at ${issue.path.join(".") || "(root)"}: ${issue.message}`;
    return skipped("corrupt-row", `does not match the row schema${where}; skipped`);
  }
  const { v, ...rest } = parsed.data;
  if (v !== undefined && v > ROW_FORMAT_VERSION) {
    return skipped(
      "newer-row-format",
      `uses row format ${v}, newer than ${ROW_FORMAT_VERSION}; skipped (upgrade ctxwin)`,
    );
  }
  return { ok: true, row: { sessionId, seq, ...rest } as StoredRow };
}

/** A stored row as a database backend reads it: its seq and its JSON body. */
export interface EncodedBody {
  seq: number;
  body: string;
}

/** A backend's reads of stored rows: a skipped row is counted and reported to `onWarning`. */
export interface RowDecoder {
  /** The row, or `undefined` for a skipped one. */
  decode(sessionId: string, encoded: EncodedBody): StoredRow | undefined;
  /** The rows that decode, in order, and how many were skipped. */
  decodeAll(sessionId: string, encoded: readonly EncodedBody[]): { rows: StoredRow[]; skipped: number };
  /** Rows skipped since the store opened (`diagnostics().corruptRowsSkipped`). */
  skippedRows(): number;
}

/**
 * @example
 * const rows = createRowDecoder((warning) => console.warn(warning.message));
 * rows.decodeAll("s1", encoded).rows;
 */
export function createRowDecoder(onWarning: (warning: StoreWarning) => void): RowDecoder {
  let skippedRows = 0;
  const decode = (sessionId: string, encoded: EncodedBody): StoredRow | undefined => {
    const result = decodeRow(sessionId, encoded.seq, encoded.body);
    if (result.ok) return result.row;
    skippedRows += 1;
    onWarning(result.warning);
    return undefined;
  };
  return {
    decode,
    decodeAll(sessionId, encoded) {
      const rows = encoded.map((entry) => decode(sessionId, entry)).filter((row) => row !== undefined);
      return { rows, skipped: encoded.length - rows.length };
    },
    skippedRows: () => skippedRows,
  };
}

/**
 * Whether a stored body may pass a search filter, judged from its JSON alone (no schema check):
 * `false` only when the body parses and its role or tool parts rule it out. A filtered search
 * skips the full decode of the rows this drops (ADR 0033); the rows it keeps are decoded as usual.
 *
 * @example bodyMayMatchFilter('{"role":"user","parts":[]}', { role: "assistant" }) // false
 */
export function bodyMayMatchFilter(body: string, filter: SearchFilter): boolean {
  if (!hasSearchFilter(filter)) return true;
  if (!bodyMayHold(body, filter)) return false;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return true;
  }
  if (typeof value !== "object" || value === null) return true;
  const { role, parts } = value as { role?: unknown; parts?: unknown };
  if (typeof role !== "string" || !Array.isArray(parts)) return true;
  if (
    !parts.every(
      (part) => typeof part === "object" && part !== null && typeof (part as { type?: unknown }).type === "string",
    )
  )
    return true;
  return rowMatchesFilter({ role, parts: parts as { type: string }[] }, filter);
}

const rolePatterns = {
  user: /"role"\s*:\s*"user"/,
  assistant: /"role"\s*:\s*"assistant"/,
  system: /"role"\s*:\s*"system"/,
} as const;

/** A tool name whose letters JSON.stringify writes as they are and whose lower case is per character. */
const plainToolName = /^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * Cheaper than parsing: a row of the role has `"role": "<role>"` in its JSON text, and a row
 * calling a plainly named tool has the name somewhere in it (in any case), since bodies are
 * written by `JSON.stringify`, which escapes no ASCII letter, digit or punctuation other than
 * quotes and backslashes. `false` only when one of them is missing. (A body edited by hand to spell
 * those letters as `\u` escapes would be missed by the filter; nothing ctxwin writes is.)
 */
function bodyMayHold(body: string, filter: SearchFilter): boolean {
  if (filter.role !== undefined && !rolePatterns[filter.role].test(body)) return false;
  const name = filter.toolName;
  if (name === undefined || !plainToolName.test(name)) return true;
  return body.toLowerCase().includes(name.toLowerCase());
}
