/**
 * Parent side of the append worker: spawns real child processes (`spawnTestWorker`, plain node on
 * a bundle built before the tests), reads their stdout line by line, and kills them with SIGKILL.
 */
import { createInterface } from "node:readline";
import { spawnTestWorker } from "../../../test/test-workers.js";
import type { AppendWorkerConfig } from "./append-worker-protocol.js";

const workerSource = new URL("./append-worker.ts", import.meta.url);

export interface WorkerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface WorkerProcess {
  readonly label: string;
  /** Every stdout line received so far, in order. */
  readonly lines: readonly string[];
  /** The first line (received already or later) that matches; rejects if the worker ends first. */
  waitForLine(pattern: RegExp): Promise<string>;
  /** Writes one line to the worker's stdin. */
  send(line: string): void;
  /** Closes the worker's stdin (the batches mode then finishes its batch and exits). */
  closeInput(): void;
  /** SIGKILL, then waits until the worker's output is fully read. */
  kill(): Promise<WorkerExit>;
  /** Resolves once the worker has exited and its output is fully read. */
  readonly exited: Promise<WorkerExit>;
  /** What the worker wrote to stderr so far. */
  stderr(): string;
}

/**
 * @example
 * const worker = startAppendWorker({ mode: "batches", path, sessionId: "s", worker: "w1" });
 * await worker.waitForLine(/^ready$/);
 * worker.send("go");
 */
export function startAppendWorker(config: AppendWorkerConfig): WorkerProcess {
  const child = spawnTestWorker({ source: workerSource, args: [JSON.stringify(config)] });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  let errorOutput = "";
  let ended: WorkerExit | undefined;
  let stdinError: Error | undefined;

  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    errorOutput += chunk;
  });
  // Writing "go" to a worker that was just killed fails with EPIPE; keep the error for reports.
  child.stdin.on("error", (error) => {
    stdinError = error;
  });
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (!waiter.pattern.test(line)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });

  const describe = () =>
    `worker ${config.worker} ended (code ${String(ended?.code)}, signal ${String(ended?.signal)})` +
    `${stdinError ? `, stdin: ${stdinError.message}` : ""}; stderr:\n${errorOutput || "(empty)"}`;

  const exited = new Promise<WorkerExit>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      ended = { code, signal };
      for (const waiter of waiters.splice(0))
        waiter.reject(new Error(`${describe()}\nbefore printing a line matching ${String(waiter.pattern)}`));
      resolve(ended);
    });
  });

  return {
    label: config.worker,
    lines,
    waitForLine(pattern) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      if (ended !== undefined)
        return Promise.reject(new Error(`${describe()}\nbefore printing a line matching ${String(pattern)}`));
      return new Promise((resolve, reject) => waiters.push({ pattern, resolve, reject }));
    },
    send(line) {
      child.stdin.write(`${line}\n`);
    },
    closeInput() {
      child.stdin.end();
    },
    async kill() {
      if (ended === undefined) child.kill("SIGKILL");
      return exited;
    },
    exited,
    stderr: () => errorOutput,
  };
}
