/**
 * What `ctxwin hook session-start` does, apart from reading stdin and exiting: parse the hook
 * input, import the session transcript's new lines until `budgetMs` has passed, and build the
 * guidance from what the store holds. It never throws: every failure becomes a problem line and
 * the hook prints what it still can (fail open: a hook must never block the user's session).
 * An import that reaches the budget stops at its next line, page or batch (what it committed is
 * whole) and is handed back as `continueImport`, for a worker to finish (ADR 0076). A resumed
 * session that already carries the guidance since its last compaction gets none again.
 */
import { statSync, type Stats } from "node:fs";
import { importFiles } from "../../import/import-files.js";
import { specialKind, type TranscriptFormat } from "../../import/source-files.js";
import type { HistoryStore } from "../../store/port.js";
import { carriesGuidance } from "./carried-guidance.js";
import { parseHookInput } from "./hook-input.js";
import { hookOutput, recoveryGuidance } from "./recovery-guidance.js";

/** How long the hook imports before it answers with what is stored (ms). */
export const DEFAULT_IMPORT_BUDGET_MS = 2_000;
/**
 * How long past the budget the hook still waits for an import that is waiting on its store (a
 * lock, a slow server) before it answers anyway: the import checks the budget itself between
 * lines and batches, this covers a single store call that does not return.
 */
export const STALLED_IMPORT_GRACE_MS = 500;
/** The share of the budget the hook spends at most looking for its own earlier guidance in the transcript. */
const CARRIED_GUIDANCE_SHARE = 0.25;

export interface SessionStartHookOptions {
  /** Everything the CLI wrote to the hook's stdin. */
  stdin: string;
  /** Whose transcript this is: it names the store session (`<client>:<session_id>`). */
  client: TranscriptFormat;
  /** Opens the store (called once, after the input is known to be usable). */
  openStore: () => HistoryStore;
  budgetMs?: number;
  /** The clock the budget is measured on (tests move it by hand). */
  now?: () => number;
}

export interface SessionStartHookOutcome {
  /** The hook's stdout (the CLI's JSON shape), or undefined when there is nothing to add. */
  stdout: string | undefined;
  /** What went wrong, for one line on stderr; empty when all went well. */
  problems: string[];
  /** The opened store, for the caller to close (unless an import is still running on it). */
  store: HistoryStore | undefined;
  /** Store work still running when its time ran out (an import, a read): the caller exits without waiting. */
  pendingImport: Promise<unknown> | undefined;
  /** The transcript whose import stopped at the budget: the caller has it finished (a worker process). */
  continueImport: string | undefined;
  /** The session already carries the guidance since its last compaction: none was printed again. */
  guidanceCarried: boolean;
}

type ImportResult =
  | { status: "done"; warnings: string[]; partial: boolean }
  | { status: "failed"; message: string }
  | { status: "pending" };

/** How long the hook waits for the store to answer the one read it makes after the import (ms). */
export const READ_DEADLINE_MS = 2_000;

/**
 * @example const outcome = await runSessionStartHook({ stdin, client: "claude-code", openStore: () => openStore({ directory }) });
 */
export async function runSessionStartHook({
  stdin,
  client,
  openStore,
  budgetMs = DEFAULT_IMPORT_BUDGET_MS,
  now = Date.now,
}: SessionStartHookOptions): Promise<SessionStartHookOutcome> {
  const deadline = now() + budgetMs;
  const outcome: SessionStartHookOutcome = {
    stdout: undefined,
    problems: [],
    store: undefined,
    pendingImport: undefined,
    continueImport: undefined,
    guidanceCarried: false,
  };
  const parsed = parseHookInput(stdin);
  if ("problem" in parsed) {
    outcome.problems.push(parsed.problem);
    return outcome;
  }
  const { sessionId, transcriptPath, source, event } = parsed.input;
  // A named pipe, a device or a socket could keep the hook waiting forever: refused unread.
  const transcript = transcriptPath === undefined ? undefined : transcriptFile(transcriptPath);
  if (transcript?.problem !== undefined) outcome.problems.push(`${transcript.problem}; nothing was imported`);
  try {
    outcome.store = openStore();
  } catch (error) {
    outcome.problems.push(`cannot open the ctxwin store: ${messageOf(error)}`);
    return outcome;
  }
  const store = outcome.store;
  let imported: ImportResult = { status: "done", warnings: [], partial: false };
  if (transcriptPath !== undefined && transcript?.problem === undefined) {
    // Read before the import takes the budget; a transcript with no compaction near its end may take a while.
    const lookUntil = now() + budgetMs * CARRIED_GUIDANCE_SHARE;
    try {
      outcome.guidanceCarried = await carriesGuidance({
        file: transcriptPath,
        format: client,
        stopWhen: () => now() >= lookUntil,
      });
    } catch (error) {
      outcome.problems.push(`cannot read ${transcriptPath} (${messageOf(error)})`);
    }
  }
  if (transcriptPath === undefined)
    outcome.problems.push("the hook input names no transcript_path; nothing was imported");
  else if (transcript?.problem === undefined) {
    const running = importFiles({ store, format: client, paths: [transcriptPath], now, deadline });
    const result = running.then((report): ImportResult => ({
      status: "done",
      warnings: report.warnings,
      partial: report.partial,
    }));
    imported = await withinBudget(result, Math.max(0, deadline - now()) + STALLED_IMPORT_GRACE_MS);
    if (imported.status === "pending") outcome.pendingImport = running.catch(() => undefined);
    if (imported.status === "pending" || (imported.status === "done" && imported.partial))
      outcome.continueImport = transcriptPath;
    if (imported.status === "failed")
      outcome.problems.push(
        `importing ${transcriptPath} failed (${imported.message}); the guidance counts what was stored before`,
      );
    if (imported.status === "done" && imported.warnings.length > 0)
      outcome.problems.push(`importing ${transcriptPath}: ${imported.warnings[0] ?? ""}`);
  }
  // Codex's PostCompact cannot add context: importing is all it is for.
  if (event === "PostCompact") return outcome;
  const storeSessionId = `${client}:${sessionId}`;
  try {
    const reading = store.session(storeSessionId);
    const answer = await withinBudget(
      reading.then((): ImportResult => ({ status: "done", warnings: [], partial: false })),
      READ_DEADLINE_MS,
    );
    if (answer.status === "pending") {
      outcome.pendingImport ??= reading.catch(() => undefined);
      outcome.problems.push(
        `the ctxwin store did not answer within ${READ_DEADLINE_MS / 1000} s; no guidance was added`,
      );
      return outcome;
    }
    if (answer.status === "failed") throw new Error(answer.message);
    const summary = await reading;
    if (summary === undefined) {
      outcome.problems.push(`the store holds nothing of session ${storeSessionId} yet; no guidance was added`);
      return outcome;
    }
    if (outcome.guidanceCarried) return outcome;
    const importPending = outcome.continueImport !== undefined;
    const guidance = recoveryGuidance({
      storeSessionId,
      items: summary.lastSeq,
      windows: summary.windowCount,
      source,
      importPending,
    });
    outcome.stdout = hookOutput(guidance);
  } catch (error) {
    outcome.problems.push(`cannot read session ${storeSessionId} from the ctxwin store: ${messageOf(error)}`);
  }
  return outcome;
}

/** The transcript's path as a file the hook may read, or why not (one clause). */
function transcriptFile(file: string): { problem: string | undefined } {
  let stat: Stats | undefined;
  try {
    stat = statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    return { problem: `the transcript ${file} cannot be read (${messageOf(error)})` };
  }
  if (stat === undefined) return { problem: `the transcript ${file} does not exist` };
  if (!stat.isFile()) return { problem: `the transcript ${file} is ${specialKind(stat)}, not a file` };
  return { problem: undefined };
}

/** The result of `running`, or `pending` once `budgetMs` passed; a rejection becomes `failed`. */
async function withinBudget(running: Promise<ImportResult>, budgetMs: number): Promise<ImportResult> {
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<ImportResult>((resolve) => {
    timer = setTimeout(() => resolve({ status: "pending" }), budgetMs);
  });
  try {
    return await Promise.race([
      running.catch((error: unknown): ImportResult => ({ status: "failed", message: messageOf(error) })),
      budget,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? "unknown error";
}
