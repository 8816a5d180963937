/**
 * Source format `ctxwin`: the JSON lines of `ctxwin history export` (one stored row per line,
 * exactly as stored). A line's key is its row's id; rows keep their id and creation time, and the
 * store gives them new seqs. One file may hold several sessions.
 */
import { parsedLines } from "./jsonl-lines.js";
import type { FileEntry, SessionRows, SourceFormat, SourceLine, SourceRow } from "./source-format.js";

/**
 * @example for await (const entry of ctxwinFormat.lines("s1.jsonl")) console.log(entry.kind);
 */
export const ctxwinFormat: SourceFormat = {
  name: "ctxwin",
  keysNameRows: true,
  async sessionsOf(file) {
    const sessions = new Set<string>();
    for await (const entry of ctxwinLines(file)) if (entry.kind === "line") sessions.add(entry.sessionId);
    return [...sessions];
  },
  lines: ctxwinLines,
  rows: ({ lines }: { lines: readonly SourceLine[] }): SessionRows => ({
    rows: lines.map(({ value, file, line }) => {
      const { sessionId: _sessionId, seq: _seq, v: _version, ...row } = value;
      return { row: row as unknown as SourceRow, file, line };
    }),
    notes: [],
    waiting: 0,
  }),
};

async function* ctxwinLines(file: string): AsyncGenerator<FileEntry> {
  for await (const entry of parsedLines(file)) {
    if (entry.kind !== "value") {
      yield entry;
      continue;
    }
    const value = entry.value;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      yield { kind: "malformed", file, line: entry.line, message: "expected one exported row (a JSON object)" };
      continue;
    }
    const { sessionId, id, createdAt } = value;
    if (typeof sessionId !== "string" || sessionId === "" || typeof id !== "string" || id === "") {
      yield {
        kind: "malformed",
        file,
        line: entry.line,
        message: "an exported row needs a string 'sessionId' and 'id'",
      };
      continue;
    }
    const time = Date.parse(String(createdAt));
    yield {
      kind: "line",
      sessionId,
      line: { key: id, time: Number.isNaN(time) ? undefined : time, value, file, line: entry.line },
    };
  }
}
