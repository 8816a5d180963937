/**
 * Reading stored row bodies back. A body whose JSON is corrupt (edited by hand) or that was
 * written in a newer row format is skipped with a warning; a read never crashes on it.
 */
import { ROW_FORMAT_VERSION, StoredRowBodySchema } from "../core/row.js";
import type { StoreWarning, StoredRow } from "./port.js";

export type RowDecodeResult = { ok: true; row: StoredRow } | { ok: false; warning: StoreWarning };

export function decodeRow(sessionId: string, seq: number, body: string): RowDecodeResult {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { ok: false, warning: { code: "corrupt-row", sessionId, seq, message: `row ${seq} of session '${sessionId}' has corrupt JSON (${(error as Error).message}); skipped` } };
  }
  const parsed = StoredRowBodySchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? "" : ` at ${issue.path.join(".") || "(root)"}: ${issue.message}`;
    return { ok: false, warning: { code: "corrupt-row", sessionId, seq, message: `row ${seq} of session '${sessionId}' does not match the row schema${where}; skipped` } };
  }
  const { v, ...rest } = parsed.data;
  if (v !== undefined && v > ROW_FORMAT_VERSION) {
    return {
      ok: false,
      warning: { code: "newer-row-format", sessionId, seq, message: `row ${seq} of session '${sessionId}' uses row format ${v}, newer than ${ROW_FORMAT_VERSION}; skipped (upgrade ctxwin)` },
    };
  }
  return { ok: true, row: { sessionId, seq, ...rest } as StoredRow };
}
