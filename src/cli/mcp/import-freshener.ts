/**
 * Keeps the store fresh for `ctxwin mcp --import claude-code|codex`: before a tool answers, new
 * transcript lines are imported, but a call waits for that work only a short, fixed time. An
 * import that takes longer (the first one over thousands of files) goes on in the background,
 * one at a time, and the answer says how far it got.
 */
import type { ImportProgress } from "../../import/import-files.js";

/** Runs one incremental import, reporting progress; resolves with the rows it added. */
export type ImportRun = (progress: ImportProgress) => Promise<{ rowsAdded: number }>;

export interface ImportFreshener {
  /** Starts an import unless one is running, waits for it at most `waitMs`; a note when it is not done or failed. */
  beforeCall(): Promise<string | undefined>;
  /** Starts an import now unless one is running (the server's first import, before any call). */
  startNow(): void;
  /** Waits for the import in flight, if any (shutdown). */
  settle(): Promise<void>;
}

/**
 * @example
 * const freshener = createImportFreshener({ label: "claude-code", run: (progress) => importFiles({ store, format, paths, progress }) });
 * const note = await freshener.beforeCall();
 */
export function createImportFreshener({
  label,
  run,
  waitMs = 2_000,
  minIntervalMs = 5_000,
  now = () => Date.now(),
  onError = (message) => process.stderr.write(`ctxwin mcp: ${message}\n`),
}: {
  label: string;
  run: ImportRun;
  /** The longest a tool call waits for the import before answering. */
  waitMs?: number;
  /** A new import starts at most this long after the previous one finished. */
  minIntervalMs?: number;
  now?: () => number;
  onError?: (message: string) => void;
}): ImportFreshener {
  let inFlight: Promise<void> | undefined;
  let filesDone = 0;
  let filesTotal: number | undefined;
  let lastFailure: string | undefined;
  let completedRuns = 0;
  let lastFinished: number | undefined;

  function start(): Promise<void> {
    filesDone = 0;
    filesTotal = undefined;
    const progress: ImportProgress = {
      start: (files) => (filesTotal = files),
      advance: () => (filesDone += 1),
      stop: () => undefined,
    };
    let running: Promise<unknown>;
    try {
      running = run(progress);
    } catch (error) {
      running = Promise.reject(error as Error);
    }
    const tracked: Promise<void> = running
      .then(
        () => {
          lastFailure = undefined;
          completedRuns += 1;
        },
        (error: unknown) => {
          lastFailure = error instanceof Error ? error.message : String(error);
          onError(`importing ${label} transcripts failed: ${lastFailure}`);
        },
      )
      .finally(() => {
        if (inFlight === tracked) inFlight = undefined;
        lastFinished = now();
      });
    inFlight = tracked;
    return tracked;
  }

  async function beforeCall(): Promise<string | undefined> {
    const rested = lastFinished === undefined || now() - lastFinished >= minIntervalMs;
    const current = inFlight ?? (rested ? start() : undefined);
    if (current === undefined) return lastFailure === undefined ? undefined : failureNote(label, lastFailure);
    const finished = await settledWithin(current, waitMs);
    if (!finished) {
      const where = filesTotal === undefined ? "listing the files" : `${filesDone} of ${filesTotal} files read`;
      const first = completedRuns === 0 ? " (the first import)" : "";
      return `Note: ctxwin is still importing ${label} transcripts in the background${first}: ${where}. Results may miss the newest sessions; ask again later.`;
    }
    return lastFailure === undefined ? undefined : failureNote(label, lastFailure);
  }

  return {
    beforeCall,
    startNow: () => {
      inFlight ??= start();
    },
    settle: async () => {
      await inFlight;
    },
  };
}

function failureNote(label: string, failure: string): string {
  return `Note: the last import of ${label} transcripts failed (${failure}); results come from what was imported before.`;
}

/** Whether `promise` settled within `ms` (it never rejects here). */
async function settledWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
