/**
 * Vitest global setup: bundles every test worker (`TEST_WORKER_SOURCES` in test/test-workers.ts)
 * with esbuild, so that the crash and concurrency tests start them with plain `node`. Each bundle
 * holds the worker and the `src/` modules it imports; packages stay external and load from
 * `node_modules` as they do for the library. Runs on every test run (a fraction of a second, also
 * under `CTXWIN_SKIP_BUILD=1`), so a worker never runs stale code. Each bundle is written to a
 * temporary file and renamed into place: another test run in the same checkout may be starting
 * the previous bundle at that moment.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { REPOSITORY_ROOT, TEST_WORKER_DIRECTORY, TEST_WORKER_SOURCES } from "./test-workers.js";

export default async function buildTestWorkers(): Promise<void> {
  const result = await build({
    absWorkingDir: REPOSITORY_ROOT,
    entryPoints: [...TEST_WORKER_SOURCES],
    outbase: REPOSITORY_ROOT,
    outdir: TEST_WORKER_DIRECTORY,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "inline",
    write: false,
    logLevel: "silent",
  });
  for (const output of result.outputFiles) {
    mkdirSync(path.dirname(output.path), { recursive: true });
    const temporary = `${output.path}.${process.pid}.tmp`;
    writeFileSync(temporary, output.contents);
    renameSync(temporary, output.path);
  }
}
