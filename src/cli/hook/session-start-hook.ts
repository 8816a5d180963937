/**
 * What `ctxwin hook session-start` does, apart from reading stdin and exiting: parse the hook
 * input, import the session transcript's new lines for at most `budgetMs`, and build the
 * guidance from what the store holds. It never throws: every failure becomes a problem line and
 * the hook prints what it still can (fail open: a hook must never block the user's session).
 * An import still running at the budget is handed back unfinished: what it committed so far is
 * whole (each append commits a batch or nothing), and the next import adds the rest.
 */
import { existsSync } from "node:fs";
import { importFiles } from "../../import/import-files.js";
import type { TranscriptFormat } from "../../import/source-files.js";
import type { HistoryStore } from "../../store/port.js";
import { parseHookInput } from "./hook-input.js";
import { hookOutput, recoveryGuidance } from "./recovery-guidance.js";

/** How long the hook imports before it answers with what is stored (ms). */
export const DEFAULT_IMPORT_BUDGET_MS = 2_000;

export interface SessionStartHookOptions {
  /** Everything the CLI wrote to the hook's stdin. */
  stdin: string;
  /** Whose transcript this is: it names the store session (`<client>:<session_id>`). */
  client: TranscriptFormat;
  /** Opens the store (called once, after the input is known to be usable). */
  openStore: () => HistoryStore;
  budgetMs?: number;
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
}

type ImportResult = { status: "done"; warnings: string[] } | { status: "failed"; message: string } | { status: "pending" };

/** How long the hook waits for the store to answer the one read it makes after the import (ms). */
export const READ_DEADLINE_MS = 2_000;

/**
 * @example const outcome = await runSessionStartHook({ stdin, client: "claude-code", openStore: () => openStore({ directory }) });
 */
export async function runSessionStartHook({ stdin, client, openStore, budgetMs = DEFAULT_IMPORT_BUDGET_MS }: SessionStartHookOptions): Promise<SessionStartHookOutcome> {
  const outcome: SessionStartHookOutcome = { stdout: undefined, problems: [], store: undefined, pendingImport: undefined };
  const parsed = parseHookInput(stdin);
  if ("problem" in parsed) {
    outcome.problems.push(parsed.problem);
    return outcome;
  }
  const { sessionId, transcriptPath, source, event } = parsed.input;
  try {
    outcome.store = openStore();
  } catch (error) {
    outcome.problems.push(`cannot open the ctxwin store: ${messageOf(error)}`);
    return outcome;
  }
  const store = outcome.store;
  let imported: ImportResult = { status: "done", warnings: [] };
  if (transcriptPath === undefined) outcome.problems.push("the hook input names no transcript_path; nothing was imported");
  else if (!existsSync(transcriptPath)) outcome.problems.push(`the transcript ${transcriptPath} does not exist; nothing was imported`);
  else {
    const running = importFiles({ store, format: client, paths: [transcriptPath] });
    imported = await withinBudget(running.then((report): ImportResult => ({ status: "done", warnings: report.warnings })), budgetMs);
    if (imported.status === "pending") outcome.pendingImport = running.catch(() => undefined);
    if (imported.status === "failed") outcome.problems.push(`importing ${transcriptPath} failed (${imported.message}); the guidance counts what was stored before`);
    if (imported.status === "done" && imported.warnings.length > 0) outcome.problems.push(`importing ${transcriptPath}: ${imported.warnings[0] ?? ""}`);
  }
  // Codex's PostCompact cannot add context: importing is all it is for.
  if (event === "PostCompact") return outcome;
  const storeSessionId = `${client}:${sessionId}`;
  try {
    const reading = store.session(storeSessionId);
    const answer = await withinBudget(reading.then((): ImportResult => ({ status: "done", warnings: [] })), READ_DEADLINE_MS);
    if (answer.status === "pending") {
      outcome.pendingImport ??= reading.catch(() => undefined);
      outcome.problems.push(`the ctxwin store did not answer within ${READ_DEADLINE_MS / 1000} s; no guidance was added`);
      return outcome;
    }
    if (answer.status === "failed") throw new Error(answer.message);
    const summary = await reading;
    if (summary === undefined) {
      outcome.problems.push(`the store holds nothing of session ${storeSessionId} yet; no guidance was added`);
      return outcome;
    }
    const guidance = recoveryGuidance({ storeSessionId, items: summary.lastSeq, windows: summary.windowCount, source, importPending: imported.status === "pending" });
    outcome.stdout = hookOutput(guidance);
  } catch (error) {
    outcome.problems.push(`cannot read session ${storeSessionId} from the ctxwin store: ${messageOf(error)}`);
  }
  return outcome;
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
