/**
 * Source format `ctxwin`: the JSON lines of `ctxwin history export` (one stored row per line,
 * exactly as stored). Rows keep their id and creation time; the store gives them new seqs.
 */
import type { SourceItem, SourceRow } from "./import-rows.js";
import { jsonLines } from "./jsonl-lines.js";

/**
 * @example await importRows({ store, items: readCtxwinExport("s1.jsonl"), report, source: "ctxwin" });
 */
export async function* readCtxwinExport(file: string): AsyncGenerator<SourceItem> {
  for await (const entry of jsonLines(file)) {
    if (!entry.ok) {
      yield { kind: "malformed", file, line: entry.line, message: entry.message };
      continue;
    }
    const value = entry.value;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      yield { kind: "malformed", file, line: entry.line, message: "expected one exported row (a JSON object)" };
      continue;
    }
    const { sessionId, seq: _seq, v: _version, ...row } = value as Record<string, unknown>;
    if (typeof sessionId !== "string" || sessionId === "" || typeof row["id"] !== "string") {
      yield { kind: "malformed", file, line: entry.line, message: "an exported row needs a string 'sessionId' and 'id'" };
      continue;
    }
    yield { kind: "row", sessionId, row: row as unknown as SourceRow, file, line: entry.line };
  }
}
