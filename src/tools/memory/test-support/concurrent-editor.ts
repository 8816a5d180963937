/**
 * Child process for the concurrency tests: edits one memory through its own executor.
 * Protocol: prints `ready`, waits for `go` on stdin, runs, prints `result <json>` and exits.
 *
 * Modes:
 * - `append`: `iterations` times, replaces the unique `<<END>>` marker with `<name>-<i>\n<<END>>`.
 * - `race`: for each round r, tries to replace `state: v0` in `race-<r>.md` with `state: <name>`.
 * - `hold-lock`: takes the project scope's write lock, prints `locked`, and never releases it.
 * - `forever`: appends like `append` until killed.
 */
import path from "node:path";
import { createInterface } from "node:readline";
import { SCOPE_LOCK_NAME } from "../command-context.js";
import { withFileLock } from "../file-lock.js";
import { createMemoryExecutor } from "../memory-executor.js";

export interface EditorConfig {
  root: string;
  sessionId: string;
  name: string;
  mode: "append" | "race" | "hold-lock" | "forever";
  iterations: number;
}

export interface EditorReport {
  name: string;
  /** Per iteration or round: "ok" or the error code. */
  outcomes: string[];
}

const config = JSON.parse(process.argv[2] ?? "{}") as EditorConfig;
const executor = createMemoryExecutor({
  root: config.root,
  sessionId: config.sessionId,
  lockWaitMs: 60_000,
  onWarning: (message) => process.stderr.write(`${message}\n`),
});

async function run(): Promise<EditorReport> {
  const outcomes: string[] = [];
  if (config.mode === "hold-lock") {
    await withFileLock({
      lockFile: path.join(executor.layout.scopeDirectories.project, SCOPE_LOCK_NAME),
      run: () => {
        process.stdout.write("locked\n");
        return new Promise<never>(() => {}); // held until this process is killed
      },
    });
  }
  for (let index = 0; config.mode === "forever" || index < config.iterations; index += 1) {
    const input =
      config.mode === "race"
        ? {
            command: "str_replace",
            path: `/memories/project/race-${index}.md`,
            old_str: "state: v0",
            new_str: `state: ${config.name}`,
          }
        : {
            command: "str_replace",
            path: "/memories/project/shared.md",
            old_str: "<<END>>",
            new_str: `${config.name}-${index}\n<<END>>`,
          };
    const result = await executor.execute(input);
    outcomes.push(result.status === "ok" ? "ok" : result.code);
  }
  return { name: config.name, outcomes };
}

const lines = createInterface({ input: process.stdin });
process.stdout.write("ready\n");
lines.on("line", (line) => {
  if (line !== "go") return;
  lines.close();
  run().then(
    (report) => process.stdout.write(`result ${JSON.stringify(report)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
});
