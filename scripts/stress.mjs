#!/usr/bin/env node
/**
 * `npm run test:stress [-- --runs N] [files…]`: runs the crash, concurrency and memory-lock test
 * files N times (default 20) and prints a pass/fail tally, so a flaky child-process test shows up
 * here before it shows up in CI. Exit code 1 when any run failed.
 */
import { spawnSync } from "node:child_process";

const DEFAULT_FILES = [
  "src/tools/memory/file-lock.test.ts",
  "src/tools/memory/concurrent-edits.test.ts",
  "src/store/sqlite/crash.test.ts",
  "src/store/sqlite/migration-crash.test.ts",
  "src/store/sqlite/multi-process.test.ts",
  "src/store/postgres/crash.test.ts",
  "src/store/postgres/multi-process.test.ts",
  "src/store/postgres/server-restart.test.ts",
  "src/session/crash.test.ts",
];

const args = process.argv.slice(2);
let runs = 20;
const files = [];
for (let index = 0; index < args.length; index += 1) {
  if (args[index] === "--runs") {
    runs = Number(args[index + 1]);
    index += 1;
  } else files.push(args[index]);
}
if (!Number.isSafeInteger(runs) || runs < 1) {
  console.error("--runs needs a whole number of runs, e.g. --runs 20");
  process.exit(2);
}
const selected = files.length > 0 ? files : DEFAULT_FILES;
const failures = [];
for (let run = 1; run <= runs; run += 1) {
  const started = Date.now();
  const result = spawnSync("npx", ["vitest", "run", ...selected], { encoding: "utf8", env: { ...process.env, CTXWIN_SKIP_BUILD: "1" } });
  const passed = result.status === 0;
  console.log(`run ${run}/${runs}: ${passed ? "passed" : "FAILED"} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (!passed) failures.push({ run, output: `${result.stdout}\n${result.stderr}`.split("\n").filter((line) => /FAIL|Error|×/.test(line)).slice(0, 20).join("\n") });
}
console.log(`\n${runs - failures.length}/${runs} runs passed over ${selected.length} files`);
for (const failure of failures) console.log(`\nrun ${failure.run}:\n${failure.output}`);
process.exit(failures.length === 0 ? 0 : 1);
