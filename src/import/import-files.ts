/**
 * The import engine shared by every source format (ADR 0049). The files given are grouped by the
 * session their lines belong to; each session's lines are read from all its files, merged into
 * one transcript order (each line once), turned into rows, and the rows the session does not hold
 * yet are appended. So the same import gives the same session whatever the file order, however
 * often it runs, and while a transcript is still being written; the report counts only rows that
 * were committed. Given a deadline, it stops at the first line, page or batch past it and says the
 * report is partial (ADR 0076): the batches it committed are whole, and the next import adds the rest.
 */
import { statSync } from "node:fs";
import { RowValidationError } from "../core/errors.js";
import { assertSessionId, validateRowInputs } from "../core/row.js";
import type { HistoryStore } from "../store/port.js";
import { claudeCodeFormat } from "./claude-code-format.js";
import { codexFormat } from "./codex-format.js";
import { ctxwinFormat } from "./ctxwin-format.js";
import { addMergeCounts, addNote, emptyReport, type ImportReport } from "./import-report.js";
import { mergeLines } from "./merge-lines.js";
import { DeadlineReached, readSessionLines, type FileReader } from "./session-lines.js";
import { sourceFiles, type SourceFormatName } from "./source-files.js";
import type { BuiltRow, SessionRows, SourceFormat } from "./source-format.js";
import { ChildCalls, parentOf } from "./session-parent.js";
import { writeSessionRows } from "./session-writer.js";
import { withTranscriptTimes } from "./transcript-times.js";

export const IMPORT_FORMATS = ["ctxwin", "claude-code", "codex"] as const;
export type ImportFormat = SourceFormatName;

const FORMATS: Record<ImportFormat, SourceFormat> = {
  ctxwin: ctxwinFormat,
  "claude-code": claudeCodeFormat,
  codex: codexFormat,
};

/**
 * A transcript whose files have not changed for this long is settled: a tool call still without a
 * result in it will never get one, and is imported as it is.
 */
export const DEFAULT_SETTLE_MS = 10 * 60 * 1000;

/**
 * Building a session's rows from its lines takes about half as long as reading and parsing them
 * (a 33 MB Claude Code transcript: 0.9 s to read, 0.5 s to merge and build); a little more is
 * assumed, so an import with a deadline does not start work that would run far past it.
 */
const ROW_BUILDING_PER_READING = 0.6;

export interface ImportProgress {
  /** Called once with the number of files, then after each file. */
  start: (files: number) => void;
  advance: () => void;
  stop: () => void;
}

export interface ImportFilesOptions {
  store: HistoryStore;
  format: ImportFormat;
  /** Files or folders (folders are searched for the format's files). */
  paths: readonly string[];
  progress?: ImportProgress;
  /** The clock that decides whether a transcript is settled and whether the deadline has passed (tests). */
  now?: () => number;
  settleMs?: number;
  /**
   * A time on `now`'s clock: the import stops at the first file, line, page or batch it reaches
   * after this and reports `partial` (the SessionStart hook's budget). Work that runs without a
   * pause (building one session's rows from its lines) starts only when it is expected to end
   * before the deadline.
   */
  deadline?: number;
}

/**
 * @example const report = await importFiles({ store, format: "claude-code", paths: ["~/.claude/projects"] });
 */
export async function importFiles({
  store,
  format,
  paths,
  progress,
  now = Date.now,
  settleMs = DEFAULT_SETTLE_MS,
  deadline,
}: ImportFilesOptions): Promise<ImportReport> {
  const report = emptyReport(format);
  try {
    await importInto(report, { store, format, paths, progress, now, settleMs, deadline });
  } catch (error) {
    if (!(error instanceof DeadlineReached)) throw error;
    report.partial = true;
  }
  return report;
}

async function importInto(
  report: ImportReport,
  {
    store,
    format,
    paths,
    progress,
    now,
    settleMs,
    deadline,
  }: ImportFilesOptions & { now: () => number; settleMs: number },
): Promise<void> {
  const source = FORMATS[format];
  const pastDeadline = () => deadline !== undefined && now() >= deadline;
  const checkDeadline = () => {
    if (pastDeadline()) throw new DeadlineReached();
  };
  const { files, missing, warnings } = sourceFiles({ format, paths });
  for (const path of missing) report.warnings.push(`${path} does not exist.`);
  report.warnings.push(...warnings);
  progress?.start(files.length);
  try {
    const sessions = new Map<string, string[]>();
    const reader: FileReader = {
      format: source,
      remaining: new Map(),
      cache: new Map(),
      onFileRead: () => progress?.advance(),
      checkDeadline,
    };
    for (const file of files) {
      checkDeadline();
      let ids: string[];
      try {
        ids = await source.sessionsOf(file);
      } catch (error) {
        report.warnings.push(unreadable(file, error));
        continue;
      }
      report.files += 1;
      reader.remaining.set(file, ids.length);
      for (const id of ids) sessions.set(id, [...(sessions.get(id) ?? []), file]);
      // A file with no session still has lines the report counts.
      if (ids.length === 0) await readSessionLines({ reader, sessionId: undefined, files: [file], report });
    }
    // A sub-agent's session is written after its parent's (ADR 0067), so it can name the row that started it.
    const written = new Set<string>();
    const calls = new ChildCalls();
    const children: { sessionId: string; built: SessionRows; parentSettled: boolean }[] = [];
    const isSettled = (sessionFiles: readonly string[]) =>
      sessionFiles.every((file) => now() - modifiedAt(file) >= settleMs);
    const parentSettled = (built: SessionRows, settled: boolean) => {
      const parentFiles = built.parentSessionId === undefined ? undefined : sessions.get(built.parentSessionId);
      // A parent only in the store is settled as far as this import knows when its child is.
      return parentFiles === undefined ? settled : isSettled(parentFiles);
    };
    for (const [sessionId, sessionFiles] of sessions) {
      const settled = isSettled(sessionFiles);
      const readingFrom = now();
      const sequences = await readSessionLines({ reader, sessionId, files: sessionFiles, report, settled });
      const merged = mergeLines(sequences, { keysNameRows: source.keysNameRows === true });
      addMergeCounts(report, merged.counts);
      // Building the rows cannot pause: it starts only when the time left covers it, as estimated from the reading.
      if (deadline !== undefined && now() + (now() - readingFrom) * ROW_BUILDING_PER_READING >= deadline) {
        throw new DeadlineReached();
      }
      const built = withTranscriptTimes(source.rows({ sessionId, lines: merged.lines, settled }), merged.lines);
      for (const note of built.notes) addNote(report, note);
      report.rowsWaiting += built.waiting;
      const parent = built.parentSessionId;
      if (parent !== undefined && sessions.has(parent) && !written.has(parent))
        children.push({ sessionId, built, parentSettled: parentSettled(built, settled) });
      else {
        const settledParent = parentSettled(built, settled);
        await importSession({
          store,
          source,
          sessionId,
          built,
          parentSettled: settledParent,
          report,
          calls,
          pastDeadline,
        });
        written.add(sessionId);
      }
    }
    while (children.length > 0) {
      // Parents first; sessions that name each other as parents (never written by the CLIs) go as they are.
      const next = children.findIndex(({ built }) => written.has(built.parentSessionId!));
      const [child] = children.splice(Math.max(next, 0), 1) as [(typeof children)[number]];
      await importSession({ store, source, ...child, report, calls, pastDeadline });
      written.add(child.sessionId);
    }
  } finally {
    progress?.stop();
  }
}

async function importSession({
  store,
  source,
  sessionId,
  built,
  parentSettled,
  report,
  calls,
  pastDeadline,
}: {
  store: HistoryStore;
  source: SourceFormat;
  sessionId: string;
  built: SessionRows;
  parentSettled: boolean;
  report: ImportReport;
  calls: ChildCalls;
  pastDeadline: () => boolean;
}): Promise<void> {
  const rows = validRows(sessionId, built.rows, report, pastDeadline);
  if (rows.length === 0) return;
  const parentSessionId = built.parentSessionId;
  const decision =
    parentSessionId === undefined
      ? undefined
      : await parentOf({ store, sessionId, parentSessionId, parentSettled, report, calls });
  if (decision?.kind === "wait") {
    // The parent has not named the child yet: the next import attaches it to the call that started it.
    report.rowsWaiting += rows.length;
    return;
  }
  const parent = decision?.kind === "attach" ? decision.parent : undefined;
  const outcome = await writeSessionRows({
    store,
    sessionId,
    rows,
    ...(source.normalizeStoredId === undefined ? {} : { normalizeId: source.normalizeStoredId }),
    refuseForeignRows: source.name === "ctxwin",
    ...(parent === undefined ? {} : { parent }),
    stopWhen: pastDeadline,
  });
  report.rowsAdded += outcome.added;
  report.rowsAlreadyPresent += outcome.alreadyPresent;
  if (outcome.added > 0) report.sessionsUpdated += 1;
  if (outcome.divergent !== undefined) {
    report.warnings.push(
      `session '${sessionId}': the store holds ${outcome.divergent.foreignRows} rows that are not ` +
        "in the source (a different history under the same id); nothing was imported into it.",
    );
  }
  if (outcome.late > 0) {
    report.warnings.push(
      `session '${sessionId}': ${outcome.late} rows belong before rows an earlier import stored; ` +
        "they were appended at the end with their own times (marked importedLate).",
    );
  }
  if (outcome.lateResults > 0)
    report.warnings.push(
      `session '${sessionId}': ${outcome.lateResults} tool results came after their calls were stored without one; each was added as a row of its own.`,
    );
  if (outcome.stopped) throw new DeadlineReached();
}

/** Rows the store would refuse are reported as malformed lines; the others import. Checks the deadline every 1,000 rows. */
function validRows(sessionId: string, rows: BuiltRow[], report: ImportReport, pastDeadline: () => boolean): BuiltRow[] {
  try {
    assertSessionId(sessionId);
  } catch (error) {
    for (const { file, line } of rows)
      addNote(report, { kind: "malformed", file, line, message: (error as Error).message });
    return [];
  }
  return rows.filter(({ row, file, line }, index) => {
    if (index % 1_000 === 999 && pastDeadline()) throw new DeadlineReached();
    try {
      validateRowInputs([row]);
      return true;
    } catch (error) {
      if (!RowValidationError.isInstance(error)) throw error;
      const message = error.issues
        .map((issue) => `${issue.path === "" ? "" : `${issue.path}: `}${issue.message}`)
        .join("; ");
      addNote(report, { kind: "malformed", file, line, message });
      return false;
    }
  });
}

/** The file's modification time in whole milliseconds, as `Date.now()` counts: a file written this millisecond is 0 ms old, never -0.7 ms. */
function modifiedAt(file: string): number {
  try {
    return Math.floor(statSync(file).mtimeMs);
  } catch {
    // A file that vanished since it was read will not grow any more.
    return 0;
  }
}

function unreadable(file: string, error: unknown): string {
  return `${file}: ${error instanceof Error ? error.message : String(error)}`;
}
