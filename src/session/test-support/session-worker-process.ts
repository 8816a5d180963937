/**
 * Parent side of the session crash test: starts `session-worker.ts` as a real child process
 * (`spawnTestWorker`, plain node on a bundle built before the tests), collects its stdout lines,
 * and kills it with SIGKILL.
 */
import { createInterface } from "node:readline";
import { spawnTestWorker } from "../../../test/test-workers.js";
import type { SessionWorkerConfig } from "./session-worker.js";

const workerSource = new URL("./session-worker.ts", import.meta.url);

export interface SessionWorker {
  readonly lines: readonly string[];
  /** Resolves when `count` lines matching `pattern` have been printed; rejects if the worker ends first. */
  waitForLines(pattern: RegExp, count: number): Promise<void>;
  /** Tells a ready worker to start sending. */
  go(): void;
  kill(): Promise<void>;
  stderr(): string;
}

/**
 * @example
 * const worker = startSessionWorker({ path, label: "round-1" });
 * await worker.waitForLines(/^step$/, 3);
 * await worker.kill();
 */
export function startSessionWorker(config: SessionWorkerConfig): SessionWorker {
  const child = spawnTestWorker({ source: workerSource, args: [JSON.stringify(config)] });
  // Writing to a worker that was just killed fails with EPIPE; the kill is what the test wants.
  child.stdin.on("error", () => undefined);
  const lines: string[] = [];
  let errorOutput = "";
  let ended = false;
  const waiters: Array<{ pattern: RegExp; count: number; resolve: () => void; reject: (error: Error) => void }> = [];
  const matches = (pattern: RegExp) => lines.filter((line) => pattern.test(line)).length;
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    errorOutput += chunk;
  });
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (matches(waiter.pattern) < waiter.count) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  const exited = new Promise<void>((resolve) => {
    child.on("close", () => {
      ended = true;
      for (const waiter of waiters.splice(0))
        waiter.reject(
          new Error(
            `the session worker ended before ${waiter.count} lines matching ${String(waiter.pattern)}; stderr:\n${errorOutput}`,
          ),
        );
      resolve();
    });
  });
  return {
    lines,
    waitForLines(pattern, count) {
      if (matches(pattern) >= count) return Promise.resolve();
      if (ended) return Promise.reject(new Error(`the session worker ended; stderr:\n${errorOutput}`));
      return new Promise((resolve, reject) => waiters.push({ pattern, count, resolve, reject }));
    },
    go() {
      child.stdin.write("go\n");
    },
    async kill() {
      if (!ended) child.kill("SIGKILL");
      await exited;
    },
    stderr: () => errorOutput,
  };
}
