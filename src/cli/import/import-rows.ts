/**
 * The import engine shared by every source format: rows of many sessions come in source order;
 * each session resumes after the last row it already holds (found by row id, which importers
 * derive from the source), and new rows are appended in batches under an `operationId`, so an
 * import that is repeated, interrupted or run twice at once never writes a row twice.
 */
import { createHash } from "node:crypto";
import { RowValidationError } from "../../core/errors.js";
import { assertSessionId, validateRowInputs, type RowInput } from "../../core/row.js";
import type { HistoryStore } from "../../store/port.js";
import { MAX_REPORTED_MALFORMED, type ImportReport } from "./import-report.js";

/** A row with the id the importer derived from the source (stable across runs). */
export type SourceRow = RowInput & { id: string };

export type SourceItem =
  | { kind: "row"; sessionId: string; row: SourceRow; file: string; line: number }
  | { kind: "unknown"; file: string; line: number }
  | { kind: "malformed"; file: string; line: number; message: string };

interface SessionState {
  /** `seeking`: skipping source rows up to `cursorId`, the id of the session's last stored row. */
  phase: "seeking" | "appending";
  cursorId: string | undefined;
  pending: SourceRow[];
  seekingSkipped: number;
  updated: boolean;
}

export interface ImportRowsOptions {
  store: HistoryStore;
  items: AsyncIterable<SourceItem>;
  report: ImportReport & { malformedCount: number };
  /** Names the source format in operation ids, so formats never share one. */
  source: string;
  batchSize?: number;
}

/**
 * @example await importRows({ store, items: readCtxwinExport(file), report, source: "ctxwin" });
 */
export async function importRows({ store, items, report, source, batchSize = 500 }: ImportRowsOptions): Promise<void> {
  const sessions = new Map<string, SessionState>();
  const flush = async (sessionId: string, state: SessionState) => {
    if (state.pending.length === 0) return;
    const rows = state.pending;
    state.pending = [];
    await store.append(sessionId, rows, { operationId: operationIdOf(source, sessionId, rows[0]!.id) });
    report.rowsAdded += rows.length;
    if (!state.updated) report.sessionsUpdated += 1;
    state.updated = true;
  };

  let previous: [string, SessionState] | undefined;
  for await (const item of items) {
    if (item.kind === "unknown") {
      report.unknownLines += 1;
      continue;
    }
    if (item.kind === "malformed") {
      addMalformed(report, item);
      continue;
    }
    const problem = rowProblem(item.sessionId, item.row);
    if (problem !== undefined) {
      addMalformed(report, { file: item.file, line: item.line, message: problem });
      continue;
    }
    // Sources hold one session after another: a session's rows are written when the next begins.
    if (previous !== undefined && previous[0] !== item.sessionId) await flush(...previous);
    let state = sessions.get(item.sessionId);
    if (state === undefined) {
      state = await startSession(store, item.sessionId);
      sessions.set(item.sessionId, state);
    }
    previous = [item.sessionId, state];
    if (state.phase === "seeking") {
      state.seekingSkipped += 1;
      report.rowsAlreadyPresent += 1;
      if (item.row.id === state.cursorId) state.phase = "appending";
      continue;
    }
    state.pending.push(item.row);
    if (state.pending.length >= batchSize) await flush(item.sessionId, state);
  }
  for (const [sessionId, state] of sessions) {
    await flush(sessionId, state);
    if (state.phase === "seeking") {
      report.warnings.push(
        `session '${sessionId}': the store's last row (${state.cursorId}) is not in the source, so the store holds a different history for it; its ${state.seekingSkipped} rows were not imported.`,
      );
      report.rowsAlreadyPresent -= state.seekingSkipped;
    }
  }
}

async function startSession(store: HistoryStore, sessionId: string): Promise<SessionState> {
  const lastSeq = await store.lastSeq(sessionId);
  const empty = { pending: [], seekingSkipped: 0, updated: false };
  if (lastSeq === 0) return { phase: "appending", cursorId: undefined, ...empty };
  const last = await store.read(sessionId, lastSeq, { includeCleared: true });
  // A last row that cannot be read (corrupt) leaves no cursor: nothing is appended after it.
  return { phase: "seeking", cursorId: last?.id ?? "", ...empty };
}

function rowProblem(sessionId: string, row: SourceRow): string | undefined {
  try {
    assertSessionId(sessionId);
  } catch (error) {
    return (error as Error).message;
  }
  try {
    validateRowInputs([row]);
    return undefined;
  } catch (error) {
    if (!RowValidationError.isInstance(error)) throw error;
    return error.issues.map((issue) => `${issue.path === "" ? "" : `${issue.path}: `}${issue.message}`).join("; ");
  }
}

function addMalformed(report: ImportReport & { malformedCount: number }, entry: { file: string; line: number; message: string }): void {
  report.malformedCount += 1;
  if (report.malformed.length < MAX_REPORTED_MALFORMED) report.malformed.push({ file: entry.file, line: entry.line, message: entry.message });
}

/** Same source, session and first row: the same batch, whichever run appends it first. */
function operationIdOf(source: string, sessionId: string, firstRowId: string): string {
  const digest = createHash("sha256").update(`${sessionId}\u0000${firstRowId}`).digest("hex").slice(0, 40);
  return `import:${source}:${digest}`;
}
