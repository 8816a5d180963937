/**
 * The worker that finishes an import the hook's budget cut short: one per transcript and store
 * while it runs, a new one once it has ended.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { startBackgroundImport } from "./background-import.js";

const folder = mkdtempSync(path.join(os.tmpdir(), "ctxwin-background-import-"));
const workers: ChildProcess[] = [];

afterEach(() => {
  for (const worker of workers.splice(0)) if (worker.exitCode === null) worker.kill("SIGKILL");
  rmSync(folder, { recursive: true, force: true });
});

it("starts no second worker while the first runs, and a new one after it ended", async () => {
  const started: (readonly string[])[] = [];
  // A stand-in worker that runs until it is killed.
  const start = (args: readonly string[]) => {
    started.push(args);
    const worker = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    workers.push(worker);
    return worker;
  };
  const options = {
    args: ["import", "claude-code", "/t/a.jsonl", "--dir", "/p"],
    pidFile: path.join(folder, "a.pid"),
    start,
  };

  const first = startBackgroundImport(options);
  expect(first.status).toBe("started");
  expect(startBackgroundImport(options)).toEqual({ status: "running", pid: first.pid });
  expect(started).toHaveLength(1);

  const [worker] = workers as [ChildProcess];
  worker.kill("SIGKILL");
  await once(worker, "exit");
  expect(startBackgroundImport(options).status).toBe("started");
  expect(started).toEqual([options.args, options.args]);
});
