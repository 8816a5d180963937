/**
 * Child-process scripts of the crash and concurrency tests ("test workers"), and the one way to
 * start them. The vitest global setup `test/build-test-workers.ts` bundles each script listed in
 * `TEST_WORKER_SOURCES` with esbuild before any test runs; `spawnTestWorker` starts the bundle
 * with plain `node`. A worker therefore runs the current `src/` code without paying tsx's start-up
 * and transpiling in every child (about 1.4 CPU-seconds each, and the SIGKILL tests start over a
 * hundred of them).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPOSITORY_ROOT = path.resolve(import.meta.dirname, "..");

/** Every test worker, relative to the repository root. Add a new worker script here. */
export const TEST_WORKER_SOURCES = [
  "src/store/test-support/append-worker.ts",
  "src/store/sqlite/test-support/open-store-worker.ts",
  "src/session/test-support/session-worker.ts",
  "src/tools/memory/test-support/concurrent-editor.ts",
  "src/tools/workspace/test-support/call-tool-worker.ts",
] as const;

/**
 * Where the bundles go: under `node_modules/.cache`, so that the packages the bundles leave
 * external (`ai`, `zod`, `better-sqlite3`, ...) resolve from the repository's `node_modules`. One
 * folder per checkout, in case several checkouts share one `node_modules` through a link.
 */
export const TEST_WORKER_DIRECTORY = path.join(
  REPOSITORY_ROOT,
  "node_modules",
  ".cache",
  "ctxwin-test-workers",
  createHash("sha256").update(REPOSITORY_ROOT).digest("hex").slice(0, 12),
);

/** The bundle built from a worker source (`src/a/b.ts` → `<TEST_WORKER_DIRECTORY>/src/a/b.mjs`). */
export function testWorkerBundle(source: string): string {
  return path.join(TEST_WORKER_DIRECTORY, source.replace(/\.ts$/, ".mjs"));
}

/**
 * Starts a test worker as a real child process (`node <bundle> ...args`, working directory the
 * repository root, every stdio stream piped).
 *
 * @example
 * const child = spawnTestWorker({ source: new URL("./append-worker.ts", import.meta.url), args: [JSON.stringify(config)] });
 */
export function spawnTestWorker({
  source,
  args = [],
}: {
  source: URL;
  args?: readonly string[];
}): ChildProcessWithoutNullStreams {
  const relative = path.relative(REPOSITORY_ROOT, fileURLToPath(source)).split(path.sep).join("/");
  if (!(TEST_WORKER_SOURCES as readonly string[]).includes(relative)) {
    throw new Error(`${relative} is not a test worker: add it to TEST_WORKER_SOURCES in test/test-workers.ts`);
  }
  const bundle = testWorkerBundle(relative);
  if (!existsSync(bundle)) {
    throw new Error(
      `the test worker bundle ${bundle} is missing: run the tests through vitest, whose global setup (test/build-test-workers.ts) builds it`,
    );
  }
  return spawn(process.execPath, ["--enable-source-maps", bundle, ...args], {
    cwd: REPOSITORY_ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
}
