/**
 * Child process for the session crash test: runs an endless agent session on a SQLite file (or a
 * PostgreSQL server: `url` and `schema` instead of `path`) with a
 * scripted model that reads files through a tool under a small limit, so steps, warnings and
 * rollovers keep happening. Prints `step`, `rollover <id>`, `warning` and `done <label> <status>`
 * lines; the parent kills it with SIGKILL at random moments. It starts sending only after the
 * parent writes `go` to its stdin, so the parent can start it ahead of its turn.
 *
 * Started through `spawnTestWorker` (test/test-workers.ts), which runs its bundle with plain node:
 * `node session-worker.mjs '{"path":"...","label":"w1"}'`.
 */
import { createInterface } from "node:readline";
import { tool } from "ai";
import { z } from "zod";
import { openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";
import { createAgentSession } from "../create-agent-session.js";
import { scriptedModel, type RecordedCall, type ScriptedStep } from "./scripted-model.js";

export const CRASH_SESSION = "crash-session";

/** The worker's store: a SQLite `path`, or a server `url` and `schema`. */
export type SessionWorkerStore = { path: string; url?: undefined } | { url: string; schema: string; path?: undefined };
export type SessionWorkerConfig = SessionWorkerStore & { label: string };
export const CRASH_LIMIT = 8_000;

/** Reads a few files per turn (counted from the prompt), then answers. Deterministic from what it receives. */
export function crashScript(call: RecordedCall): ScriptedStep {
  const lines = call.text.split("\n");
  const lastUser = lines.findLastIndex((line) => line.startsWith("user: "));
  const readsSince = lines.slice(lastUser + 1).filter((line) => line.startsWith("tool: result read")).length;
  if (readsSince < 3) return { toolCalls: [{ toolName: "read", input: { path: `file-${call.index % 7}.txt` } }] };
  return { text: `summary after ${readsSince} reads` };
}

/** The `read` tool of the crash test: about 450 tokens per file. */
export const crashReadTool = tool({
  description: "Reads a file",
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => `${path}: ${"lorem ipsum dolor sit amet ".repeat(70)}`,
});

/** The crash test's session over `store`: {@link crashScript} reading under the small limit; `calls` are its requests. */
export function crashSession(store: HistoryStore) {
  const { model, calls } = scriptedModel({ script: crashScript });
  const session = createAgentSession({
    store,
    sessionId: CRASH_SESSION,
    model,
    tools: { read: crashReadTool },
    budget: { contextLimit: CRASH_LIMIT, warningTurnTokens: 300 },
    logWarning: () => undefined,
  });
  return { session, calls };
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? "{}") as SessionWorkerConfig;
  const store = openStore(
    config.url === undefined ? { path: config.path } : { url: config.url, schema: config.schema },
  );
  const { session } = crashSession(store);
  session.on("step-end", () => console.log("step"));
  session.on("rollover", (event) => console.log(`rollover ${event.rolloverId}`));
  session.on("budget-warning", () => console.log("warning"));
  console.log("ready");
  await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once("line", () => resolve()));
  for (let index = 0; ; index += 1) {
    const label = `${config.label}-message-${index}`;
    const result = await session.send(`${label}: read some files and summarize`);
    console.log(`done ${label} ${result.status}`);
  }
}

// Runs only as the entry point (the crash test itself imports the session above).
if (/session-worker\.(?:ts|mjs)$/.test(process.argv[1] ?? "")) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
